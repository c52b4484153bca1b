#!/usr/bin/env node
// `npx @cabinet/tools-react mock --port 8790`: the simulated service on a port of this machine,
// for a proxy (or a script) to reach with no key of the real service.
import { parseArgs } from 'node:util'
import { serve } from 'srvx'
import { createMockService, MOCK_ACCOUNTS, MOCK_KEY_NOTES, MOCK_KEYS, type MockKeyName, type MockService } from '../mock/index.js'

const USAGE = `Usage: npx @cabinet/tools-react mock [--port 8790] [--host 127.0.0.1] [--job-duration-ms 3000]

Serves the simulated Tools API on a port: every tool, the fixture keys, jobs, files and bills.`

/** What the service knows, for a person or a test to read: bills per account, wallets, every request. */
function stateOf(service: MockService) {
  const accounts = MOCK_ACCOUNTS.map((account) => account.id)
  return {
    bills: { total: service.bills(), ...Object.fromEntries(accounts.map((id) => [id, service.bills(id)])) },
    wallets: Object.fromEntries(accounts.map((id) => [id, service.account(id)])),
    log: service.log,
  }
}

async function serveMock(options: { port: number; host: string; jobDurationMs: number }) {
  const server = serve({
    port: options.port,
    hostname: options.host,
    silent: true,
    gracefulShutdown: false, // closed below, at once: a simulated service holds nothing worth waiting for
    fetch: (request) => {
      if (new URL(request.url).pathname === '/state') return Response.json(stateOf(service))
      return service.fetch(request)
    },
  })
  await server.ready()
  const origin = server.url!.replace(/\/+$/, '')
  // The base URL holds the port, known once the server listens.
  const service = createMockService({ baseUrl: `${origin}/v1`, jobDurationMs: options.jobDurationMs })
  const width = Math.max(...Object.values(MOCK_KEYS).map((key) => key.length))
  console.log(
    [
      `The simulated Tools API listens on ${service.baseUrl}`,
      '',
      'Keys (Authorization: Bearer <key>):',
      ...Object.entries(MOCK_KEYS).map(([name, key]) => `  ${key.padEnd(width)}  ${MOCK_KEY_NOTES[name as MockKeyName]}`),
      '',
      `Bills: GET ${origin}/state (calls billed, per account and in all; wallets; every request)`,
      'Stop: Ctrl+C (or SIGTERM).',
    ].join('\n'),
  )
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void server.close(true))
}

/** The command line's settings, or undefined when it does not read as the usage says. */
function settings() {
  try {
    const { positionals, values } = parseArgs({
      allowPositionals: true,
      options: {
        port: { type: 'string', default: '8790' },
        host: { type: 'string', default: '127.0.0.1' },
        'job-duration-ms': { type: 'string', default: '3000' },
      },
    })
    const port = Number(values.port)
    const jobDurationMs = Number(values['job-duration-ms'])
    const valid = positionals.length === 1 && positionals[0] === 'mock' && Number.isInteger(port) && port >= 0 && jobDurationMs >= 0
    return valid ? { port, host: values.host, jobDurationMs } : undefined
  } catch {
    return undefined // an unknown option, or one without its value
  }
}

const chosen = settings()
if (chosen) {
  await serveMock(chosen)
} else {
  console.error(USAGE)
  process.exitCode = 1
}
