import { build } from 'esbuild'
import { gzipSync } from 'node:zlib'
const [entry, names, show] = process.argv.slice(2)
const r = await build({ stdin: { contents: `export { ${names} } from '${entry}'`, resolveDir: process.cwd(), loader: 'ts' }, bundle: true, minify: true, write: false, metafile: true, format: 'esm', external: ['react', 'react-dom', '@tanstack/react-query', 'react/jsx-runtime', 'msw'] })
const out = r.outputFiles[0].contents
console.log('total gz', gzipSync(out).length, 'raw', out.length)
const inputs = Object.entries(r.metafile.outputs)[0][1].inputs
const rows = Object.entries(inputs).map(([k, v]) => [v.bytesInOutput, k]).sort((a, b) => b[0] - a[0])
for (const [b, k] of rows.slice(0, 30)) console.log(b, k)
if (show) console.log(new TextDecoder().decode(out))
