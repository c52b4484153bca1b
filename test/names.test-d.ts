// Every public duration ends in `Ms`: the new names type-check, and each old one still does,
// marked deprecated (an editor strikes it through) rather than removed.
import { describe, expectTypeOf, it } from 'vitest'
import type { CallOptions, RetryOptions, ToolsClientOptions } from '../src/tools/index.js'
import type { ToolsProviderProps, UseJobOptions } from '../src/react/index.js'

describe('durations end in Ms; the old names keep working', () => {
  it('client: pollIntervalMs (pollInterval deprecated)', () => {
    expectTypeOf<ToolsClientOptions['pollIntervalMs']>().toEqualTypeOf<number | undefined>()
    expectTypeOf<ToolsClientOptions['pollInterval']>().toEqualTypeOf<number | undefined>()
  })
  it('CallOptions: pollIntervalMs (pollInterval deprecated)', () => {
    expectTypeOf<CallOptions['pollIntervalMs']>().toEqualTypeOf<number | undefined>()
    expectTypeOf<CallOptions['pollInterval']>().toEqualTypeOf<number | undefined>()
  })
  it('retry: maxWaitMs (maxWait deprecated)', () => {
    expectTypeOf<RetryOptions['maxWaitMs']>().toEqualTypeOf<number | undefined>()
    expectTypeOf<RetryOptions['maxWait']>().toEqualTypeOf<number | undefined>()
  })
  it('provider and useJob: pollIntervalMs (pollInterval deprecated)', () => {
    expectTypeOf<ToolsProviderProps['pollIntervalMs']>().toEqualTypeOf<number | undefined>()
    expectTypeOf<ToolsProviderProps['pollInterval']>().toEqualTypeOf<number | undefined>()
    expectTypeOf<UseJobOptions['pollIntervalMs']>().toEqualTypeOf<number | undefined>()
    expectTypeOf<UseJobOptions['pollInterval']>().toEqualTypeOf<number | undefined>()
  })
})
