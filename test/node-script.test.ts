// @vitest-environment node
// examples/node-script, run as a partner runs it (a plain .mjs importing the built
// `@cabinet/tools-react/client`), killed with SIGKILL at each moment of a paid run and started
// again with the same journal file: the run ends with its result and one bill, every time. The
// simulated service lives in a process of its own and holds the request of the moment, so the
// kill lands there, with no sleeps.
import { spawn, type ChildProcess } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MOCK_KEYS } from '../src/mock/index.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const cache = join(root, 'node_modules/.cache/node-script')
/** Where the partner's script runs: the example's files beside the package, built, in its node_modules. */
const app = join(cache, 'app')
const journals = mkdtempSync(join(tmpdir(), 'tools-node-script-'))

/** A child process speaking one JSON object per line. */
function lines(child: ChildProcess) {
  const reader = createInterface({ input: child.stdout! })[Symbol.asyncIterator]()
  return async <T>() => JSON.parse((await reader.next()).value as string) as T
}

let service: { child: ChildProcess; read: <T>() => Promise<T>; send: (command: object) => void; url: string }

beforeAll(async () => {
  // The package as a partner installs it: its package.json and the built JavaScript.
  const pkg = join(app, 'node_modules/@cabinet/tools-react')
  rmSync(cache, { recursive: true, force: true })
  mkdirSync(pkg, { recursive: true })
  copyFileSync(join(root, 'package.json'), join(pkg, 'package.json'))
  await build({ configFile: join(root, 'vite.lib.config.ts'), logLevel: 'silent', build: { outDir: join(pkg, 'dist'), sourcemap: false } })
  for (const file of ['run.mjs', 'fileStorage.mjs', 'package.json']) copyFileSync(join(root, 'examples/node-script', file), join(app, file))
  // The service, built from the sources, in a process of its own.
  await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      ssr: join(root, 'test/support/service-child.ts'),
      outDir: join(cache, 'service'),
      emptyOutDir: true,
      rolldownOptions: { output: { entryFileNames: 'service-child.mjs' } },
    },
  })
  const child = spawn(process.execPath, [join(cache, 'service/service-child.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] })
  const read = lines(child)
  service = { child, read, send: (command) => child.stdin!.write(`${JSON.stringify(command)}\n`), ...(await read<{ url: string }>()) }
}, 120_000)

afterAll(() => {
  service?.child.kill()
  rmSync(journals, { recursive: true, force: true })
})

/** The example script, started as `node run.mjs` with the service, the key and a journal file. */
function script(journal: string) {
  const child = spawn(process.execPath, ['run.mjs'], {
    cwd: app,
    env: { PATH: process.env.PATH, TOOLS_BASE_URL: service.url, TOOLS_API_KEY: MOCK_KEYS.demo, TOOLS_JOURNAL: journal, TOOLS_POLL_INTERVAL: '60' },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, read: lines(child), exited }
}

const journaled = (journal: string) => Object.values(JSON.parse(readFileSync(journal, 'utf8')) as Record<string, string>).map((run) => JSON.parse(run))

describe('a Node script with a journal, killed at any moment of a paid run', () => {
  it.each([
    ['before the POST reaches the service', 'before'],
    ['while the POST’s answer is on its way (billed, not yet heard)', 'answer'],
    ['while the job runs', 'poll'],
  ] as const)('killed %s, then started again: its result, and one bill', { timeout: 60_000 }, async (_, moment) => {
    service.send({ reset: true })
    await service.read()
    const journal = join(journals, `${moment}.json`)
    writeFileSync(journal, '{}')

    service.send({ hold: moment })
    const first = script(journal)
    expect(await service.read()).toEqual({ held: moment })
    first.child.kill('SIGKILL')
    await first.exited
    // The run was journaled before its POST left (and, once answered, with its job).
    expect(journaled(journal)).toMatchObject([{ tool: 'pdf/create', phase: moment === 'poll' ? 'pending' : 'submitting' }])

    const second = script(journal)
    const outcome = await second.read<{ jobId: string; phase: string }>()
    expect(await second.exited).toBe(0)
    expect(outcome).toMatchObject({ jobId: expect.stringMatching(/^job_/), phase: 'succeeded' })

    service.send({ calls: true })
    const { calls } = await service.read<{ calls: { idempotencyKey: string; replay: boolean; billed: boolean }[] }>()
    expect(calls.filter((call) => call.billed)).toHaveLength(1)
    // Every POST of the run carried its one key; a POST the service had seen was replayed; a job
    // already known was followed, with no POST again.
    expect(new Set(calls.map((call) => call.idempotencyKey)).size).toBe(1)
    expect(calls.map((call) => call.replay)).toEqual(moment === 'answer' ? [false, true] : [false])
    // Its end seen, the run is forgotten.
    expect(journaled(journal)).toEqual([])
  })
})

describe('docs/client.md', () => {
  it('shows the example script as it is', () => {
    const page = readFileSync(join(root, 'docs/client.md'), 'utf8')
    expect(page).toContain(`\`\`\`js\n${readFileSync(join(root, 'examples/node-script/run.mjs'), 'utf8')}\`\`\``)
  })
})
