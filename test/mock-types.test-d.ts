// The simulated service's renamed options: the names in milliseconds, and the old names still typed (deprecated).
import { describe, expectTypeOf, it } from 'vitest'
import type { MockFaultInjection, MockServiceOptions } from '../src/mock/index.js'

describe('the simulated service’s durations are named in milliseconds', () => {
  it('takes jobDurationMs and latencyMs, and still the deprecated jobDuration and latency', () => {
    expectTypeOf<{ jobDurationMs: number; latencyMs: number }>().toExtend<MockServiceOptions>()
    expectTypeOf<{ jobDuration: number; latency: number }>().toExtend<MockServiceOptions>()
    expectTypeOf<MockServiceOptions['jobDurationMs']>().toEqualTypeOf<number | undefined>()
    expectTypeOf<MockServiceOptions['latencyMs']>().toEqualTypeOf<number | undefined>()
  })

  it('a fault takes retryAfterMs, and still the deprecated retryAfter (seconds)', () => {
    expectTypeOf<{ fault: 'rate-limit'; retryAfterMs: number }>().toExtend<MockFaultInjection>()
    expectTypeOf<{ fault: 'rate-limit'; retryAfterMs: Date }>().toExtend<MockFaultInjection>()
    expectTypeOf<{ fault: 'rate-limit'; retryAfter: number }>().toExtend<MockFaultInjection>()
  })
})
