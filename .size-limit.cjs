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
    // 11.9 kB before this round; the target for it is 14 kB. Measured 14.77 kB: the shared pace
    // (pacer, wait budget, polling cadence, visible waits: ~3.3 kB minified), durable runs (the
    // journal, resume, key binding and honest cancel in useTool, a client per key in the
    // provider: ~3.3 kB minified), download names and the wider reading of failed jobs (~0.5 kB),
    // less ~1.2 kB of duplication removed since. zod/mini alone is 16 kB of the 39 kB minified.
    // Set at the measured figure so nothing grows; the 14 kB target is not met (see README).
    limit: '14.8 kB',
  },
  {
    name: "import { ToolsProvider, ToolRunner } from '@cabinet/tools-react'",
    path: 'dist/entries/index.js',
    import: '{ ToolsProvider, ToolRunner }',
    gzip: true,
    // Measured floor before any component code: zod/mini 5.3 kB, react-dropzone with
    // file-selector and attr-accept 5.95 kB (its `Dropzone.displayName` assignment keeps the
    // unused <Dropzone> in every bundle), client and hooks 3.6 kB; the English strings 2.1 kB.
    // The components themselves are about 7.5 kB. 27.8 kB before this round; the target is 30 kB.
    // Measured 32.33 kB: the hooks' additions above, the English strings of the new notices
    // (waits, proxy refusals, interrupted uploads: the strings are 2.5 kB of the total), the wait
    // notice, the review's download names, depth cap and component props. Set at the measured
    // figure so nothing grows; the 30 kB target is not met (see README).
    limit: '32.4 kB',
  },
]
