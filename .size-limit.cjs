// `npm run size`: what an import costs a partner's bundle, measured on the BUILT dist/
// (run `npm run build` first). Each check bundles the import with every dependency it pulls in
// (zod, react-dropzone), minifies and gzips it. Peers (react, react-dom, @tanstack/react-query,
// msw) are left out: size-limit reads them from package.json's peerDependencies.
module.exports = [
  {
    name: "import { createToolsClient } from '@cabinet/tools-react/client'",
    path: 'dist/entries/client.js',
    import: '{ createToolsClient }',
    gzip: true,
    // 9.9 kB before the shared pace for every request (pacer, wait budget, polling cadence,
    // visible waits) and artifacts' Content-Disposition names with the `unexpected` kind.
    limit: '12 kB',
  },
  {
    name: "import { ToolsProvider, useValuationReport } from '@cabinet/tools-react'",
    path: 'dist/entries/index.js',
    import: '{ ToolsProvider, useValuationReport }',
    gzip: true,
    // 11.9 kB before the shared pace for every request, the hooks' `waiting` and the client
    // additions above.
    limit: '15.75 kB',
  },
  {
    name: "import { ToolsProvider, ToolRunner } from '@cabinet/tools-react'",
    path: 'dist/entries/index.js',
    import: '{ ToolsProvider, ToolRunner }',
    gzip: true,
    // Measured floor before any component code: zod/mini 5.3 kB, react-dropzone with
    // file-selector and attr-accept 5.95 kB (its `Dropzone.displayName` assignment keeps the
    // unused <Dropzone> in every bundle), client and hooks 3.6 kB; the English strings 2.1 kB.
    // The components themselves are about 7.5 kB; durable runs and pacing add the rest.
    limit: '33.25 kB',
  },
]
