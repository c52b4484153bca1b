// `npm run build`: the package's dist/ from scratch — JavaScript, stylesheet, declarations.
import { spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { build } from 'vite'

const config = { configFile: 'vite.lib.config.ts', logLevel: 'warn' }

// What is made from the tool catalogue first (hooks, stories, docs/tools.md): a new row needs no hand step.
if (spawnSync(process.execPath, ['scripts/derive.mjs'], { stdio: 'inherit' }).status !== 0) process.exit(1)
rmSync('dist', { recursive: true, force: true })
await build(config)
await build({ ...config, mode: 'styles' })
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
if (spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit' }).status !== 0) process.exit(1)
console.log('dist/ built')
