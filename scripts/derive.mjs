// Writes what is made from the tool catalogue (the tool hooks, the tool stories, docs/tools.md):
// run by `npm run build`, `npm test`, `npm start` and `npm run typecheck`, so adding a row to
// src/tools/catalogue.ts needs no hand step. test/derived.test.ts checks the files are current.
import { runnerImport } from 'vite'

const { module } = await runnerImport('./scripts/derived/write.ts', { configFile: false, logLevel: 'warn' })
for (const path of module.written) console.log(`derived from the catalogue: ${path}`)
