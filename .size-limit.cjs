// `npm run size`: what an import costs a partner's page, measured on the BUILT dist/ (run `npm run
// build` first). Each check bundles the import with every dependency it pulls in (zod,
// react-dropzone), minifies and gzips it. Peers (react, react-dom, @tanstack/react-query, msw) are
// left out: size-limit reads them from package.json's peerDependencies.
//
// What a page loads first: the event stream's code (src/client/events.ts with eventsource-parser)
// is a chunk a bundler splits off, loaded only when a proxy first names a stream, and so are
// durable runs in the client (src/client/runs/durable.ts), loaded only when a client is given a
// `journal`; the first four checks leave them out and the last ones weigh them alone. Where a JSON
// field's text stops parsing (src/components/jsonSyntax.ts) is loaded only when it does not parse.
const lazyChunks = ['./events.js', './runs/durable.js', './jsonSyntax.js']
const firstLoad = (config) => ({ ...config, external: [...(config.external ?? []), ...lazyChunks] })

// The first four limits grew by 0.4-1.6 kB when durable runs moved from the hooks into the client
// (a run core any script can use) and the proxy's and provider's checks were added; the design's
// budgets (7 / 10 / 21 / 26 kB) are the next step, by loading checks, the file drop and viewers late.
module.exports = [
  {
    name: "import { createToolsClient } from '@cabinet/tools-react/client'",
    path: 'dist/entries/client.js',
    import: '{ createToolsClient }',
    gzip: true,
    modifyEsbuildConfig: firstLoad,
    limit: '13.0 kB',
  },
  {
    name: "import { ToolsProvider, useValuationReport } from '@cabinet/tools-react'",
    path: 'dist/entries/index.js',
    import: '{ ToolsProvider, useValuationReport }',
    gzip: true,
    modifyEsbuildConfig: firstLoad,
    limit: '17.2 kB',
  },
  {
    name: "import { ToolsProvider, ToolRunner } from '@cabinet/tools-react'",
    path: 'dist/entries/index.js',
    import: '{ ToolsProvider, ToolRunner }',
    gzip: true,
    modifyEsbuildConfig: firstLoad,
    // zod/mini (about 5.3 kB) and react-dropzone with file-selector and attr-accept (about 6 kB) of it.
    limit: '36.0 kB',
  },
  {
    // Every export of the main entry; locales other than English are entries of their own
    // (`@cabinet/tools-react/locales/ru`), so an app carries only the strings it shows.
    name: "import * from '@cabinet/tools-react'",
    path: 'dist/entries/index.js',
    import: '*',
    gzip: true,
    modifyEsbuildConfig: firstLoad,
    limit: '37.8 kB',
  },
  {
    name: 'the event stream, loaded when a proxy first names one',
    path: 'dist/client/events.js',
    import: '{ createEventHub }',
    gzip: true,
    limit: '2.9 kB',
  },
  {
    name: 'durable runs in the client, loaded when a client is given a journal',
    path: 'dist/client/runs/durable.js',
    import: '{ durableRuns }',
    gzip: true,
    limit: '3 kB',
  },
]
