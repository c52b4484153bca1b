// @vitest-environment node
// The money rule (src/server/money.ts), read as a table: what the service may bill, and what a
// user's spend cap counts and gives back. The proxy's own tests show it end to end.
import { describe, expect, it } from 'vitest'
import { memoryStore, type ProxyStore } from '../src/server/index.js'
import { keys } from '../src/server/keys.js'
import { billable, outcomeOfFailure, reserve } from '../src/server/money.js'
import { UpstreamFailure } from '../src/server/upstream.js'
import { getTool } from '../src/tools/index.js'

describe('billable', () => {
  it.each([
    [{ status: 200 }, true],
    [{ status: 202 }, true],
    [{ status: 400 }, false],
    [{ status: 402 }, false],
    [{ status: 409 }, false],
    [{ status: 429 }, false],
    [{ status: 500 }, true], // the service may have done the work before it failed
    [{ status: 504 }, true],
    ['unsent', false],
    ['lost', true],
  ] as const)('%j → %s', (outcome, expected) => {
    expect(billable(outcome)).toBe(expected)
  })

  it('counts a failed call as unsent only when the service cannot have processed it', () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } })
    const timeout = new UpstreamFailure('timeout', 'no answer')
    expect(outcomeOfFailure(false, timeout, timeout)).toBe('unsent') // the body was never whole
    expect(outcomeOfFailure(true, refused, new UpstreamFailure('unreachable', ''))).toBe('unsent')
    expect(outcomeOfFailure(true, timeout, new UpstreamFailure('redirect', ''))).toBe('unsent')
    expect(outcomeOfFailure(true, timeout, timeout)).toBe('lost')
  })
})

describe('a call that failed before it left', () => {
  const failedWith = (cause: object) => Object.assign(new TypeError('fetch failed'), { cause })
  const unreachable = new UpstreamFailure('unreachable', '')
  it.each([
    ['a port the Fetch standard blocks (undici)', failedWith(new Error('bad port')), 'unsent'],
    ['an unknown host', failedWith({ code: 'ENOTFOUND' }), 'unsent'],
    ['a refused connection', failedWith({ code: 'ECONNREFUSED' }), 'unsent'],
    ['an unreachable network', failedWith({ code: 'ENETUNREACH' }), 'unsent'],
    ['a connect timeout', failedWith({ code: 'UND_ERR_CONNECT_TIMEOUT' }), 'unsent'],
    ['a certificate refused in the TLS handshake', failedWith({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }), 'unsent'],
    ['a scheme fetch cannot send', failedWith(new Error('unknown scheme')), 'unsent'],
    ['a connection reset once the body may have left', failedWith({ code: 'ECONNRESET' }), 'lost'],
    ['a socket closed while the answer was awaited', failedWith({ code: 'UND_ERR_SOCKET' }), 'lost'],
  ] as const)('%s → %s', (_, error, expected) => {
    expect(outcomeOfFailure(true, error, unreachable)).toBe(expected)
  })
})

describe('reserve', () => {
  const limits = { calls: 2, windowMs: 60_000 }
  const rent = getTool('valuation/rent')
  const report = getTool('valuation/report')
  // A minute's window from 12:00:00 to 12:01:00, as the epoch counts them.
  const NOW = Date.UTC(2026, 10, 26, 12, 0, 30)
  const counted = (store: ProxyStore, at = NOW) => store.increment(keys.calls('alice', Math.floor(at / 60_000)), 0, 60_000)

  it('counts calls up to the cap, refuses past it, and gives a call back', async () => {
    const store = memoryStore()
    const first = await reserve(store, limits, 'alice', rent, undefined, NOW)
    expect(await reserve(store, limits, 'alice', rent, undefined, NOW)).not.toBeNull()
    expect(await reserve(store, limits, 'alice', rent, undefined, NOW)).toBeNull()
    expect(await reserve(store, limits, 'bob', rent, undefined, NOW)).not.toBeNull()
    await first!()
    expect(await reserve(store, limits, 'alice', rent, undefined, NOW)).not.toBeNull()
  })

  it('counts a job creation sent again with its key until its answer shows a replay (the caller gives it back), and counts nothing without limits', async () => {
    const store = memoryStore()
    expect(await reserve(store, limits, 'alice', report, 'key-1', NOW)).not.toBeNull()
    const again = await reserve(store, limits, 'alice', report, 'key-1', NOW)
    expect(await reserve(store, limits, 'alice', report, 'key-1', NOW)).toBeNull()
    await again!()
    expect(await counted(store)).toBe(1)
    for (let i = 0; i < 5; i++) expect(await reserve(store, undefined, 'alice', rent, undefined, NOW)).not.toBeNull()
    expect(await counted(store)).toBe(1)
  })

  it('starts each window afresh at its epoch-aligned start, and gives a call back to the window it was counted in', async () => {
    const store = memoryStore()
    const late = await reserve(store, limits, 'alice', rent, undefined, NOW)
    expect(await reserve(store, limits, 'alice', rent, undefined, NOW + 29_000)).not.toBeNull()
    expect(await reserve(store, limits, 'alice', rent, undefined, NOW + 29_000)).toBeNull()
    // 12:01:00: a new window, whatever time the first call came.
    expect(await reserve(store, limits, 'alice', rent, undefined, NOW + 30_000)).not.toBeNull()
    await late!()
    expect(await counted(store)).toBe(1)
    expect(await counted(store, NOW + 30_000)).toBe(1)
  })
})
