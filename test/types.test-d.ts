// Type contracts derived from the catalogue: checked by `tsc` (npm run typecheck) and by Vitest's
// typecheck in the unit project. A `@ts-expect-error` that stops being an error fails both.
import type { ContextManager, Meter, MeterProvider, Tracer, TracerProvider } from '@opentelemetry/api'
import type { UseQueryResult } from '@tanstack/react-query'
import type { Ref } from 'react'
import { describe, expectTypeOf, it } from 'vitest'
import {
  createToolsClient,
  isToolsError,
  ToolsError,
  type DeferredToolId,
  type FileToolId,
  type Job,
  type JobHandle,
  type ListingToolId,
  type Result,
  type SyncToolId,
  type ToolId,
  type ToolInput,
  type ToolResult,
  type ToolsErrorKind,
  type ToolsErrorOf,
  type UseJobResult,
  type ValidationIssue,
  type UseToolOptions,
  type UseToolResult,
  type Usage,
  type UsageMeterProps,
  type Waiting,
  useUsage,
} from '../src/components/index.js'
import { useForgetRuns, useValuationRent, type ToolsProviderProps } from '../src/react/index.js'
import * as toolHooks from '../src/react/toolHooks.js'
import type { ToolHookName } from '../src/react/toolHookName.js'
import type { PROXY_ERROR_CODES, ProxyEvent, ProxyOutcome, ProxyUpstreamEvent, ToolsProxyOptions } from '../src/server/index.js'
import type { OtelMeter, OtelRegistry, OtelTracer } from '../src/server/telemetry/otel.js'

const client = createToolsClient({ baseUrl: 'https://tools.example/v1', apiKey: 'key' })

describe('the catalogue’s derived types', () => {
  it('tells sync, deferred, file and listing tools apart', () => {
    expectTypeOf<'valuation/rent'>().toExtend<SyncToolId>()
    expectTypeOf<'valuation/rent'>().not.toExtend<DeferredToolId>()
    expectTypeOf<'pdf/create'>().toExtend<DeferredToolId>()
    expectTypeOf<'photo/enhance'>().toExtend<FileToolId>()
    expectTypeOf<'pdf/create'>().toExtend<ListingToolId>()
    expectTypeOf<'valuation/rent'>().not.toExtend<FileToolId>()
  })

  it('a sync tool has no start: only deferred tools create jobs', () => {
    // @ts-expect-error valuation/rent answers at once: there is no job to start
    void client.start('valuation/rent', { propertyCategory: 'flat', totalArea: 50, city: 'Kazan' })
    expectTypeOf(client.start('pdf/create', { objectId: 'obj_1' })).resolves.toEqualTypeOf<JobHandle<'pdf/create'>>()
    // @ts-expect-error no job of a sync tool to read
    void client.job('valuation/rent', 'job_1')
  })

  it('rent needs its three fields, typed', () => {
    void client.run('valuation/rent', { propertyCategory: 'flat', totalArea: 50, city: 'Kazan' })
    // @ts-expect-error city is missing
    void client.run('valuation/rent', { propertyCategory: 'flat', totalArea: 50 })
    // @ts-expect-error totalArea is a number
    void client.run('valuation/rent', { propertyCategory: 'flat', totalArea: '50', city: 'Kazan' })
    // Fields the spec does not name pass through.
    void client.run('valuation/rent', { propertyCategory: 'flat', totalArea: 50, city: 'Kazan', rooms: 2 })
    expectTypeOf<ToolInput<'valuation/rent'>>().toHaveProperty('totalArea').toEqualTypeOf<number>()
  })

  it('a file tool takes a Blob', () => {
    expectTypeOf<ToolInput<'photo/enhance'>>().toHaveProperty('file').toEqualTypeOf<Blob>()
    // @ts-expect-error the file is required
    void client.run('photo/enhance', {})
  })

  it('results: a sync tool’s Result, a deferred tool’s Job', () => {
    expectTypeOf<ToolResult<'valuation/rent'>>().toEqualTypeOf<Result<'valuation/rent'>>()
    expectTypeOf<ToolResult<'pdf/create'>>().toEqualTypeOf<Extract<Job<'pdf/create'>, { phase: 'succeeded' }>>()
    expectTypeOf<ToolResult<'pdf/create'>['phase']>().toEqualTypeOf<'succeeded'>()
    expectTypeOf(client.run('pdf/create', { objectId: 'obj_1' })).resolves.toEqualTypeOf<ToolResult<'pdf/create'>>()
    // Undeclared in `Register`: the answer's body is unknown.
    expectTypeOf<ToolResult<'valuation/rent'>['data']>().toEqualTypeOf<unknown>()
  })

  it('names each hook after its tool', () => {
    expectTypeOf<ToolHookName<'pdf/create'>>().toEqualTypeOf<'usePdfCreate'>()
    expectTypeOf<ToolHookName<'valuation/rent'>>().toEqualTypeOf<'useValuationRent'>()
    expectTypeOf(toolHooks.usePdfCreate).returns.toEqualTypeOf<UseToolResult<'pdf/create'>>()
    expectTypeOf(useValuationRent).returns.toHaveProperty('run').parameter(0).toEqualTypeOf<ToolInput<'valuation/rent'>>()
    // @ts-expect-error no such tool, no such hook
    void toolHooks.useValuationRents
    // Every catalogue row has its hook, of its own type, and there is no other.
    void (toolHooks satisfies { [T in ToolId as ToolHookName<T>]: (options?: UseToolOptions) => UseToolResult<T> })
    expectTypeOf<keyof typeof toolHooks>().toEqualTypeOf<ToolHookName<ToolId>>()
  })

  it('errors: one class, kinds as a union, unexpected among them', () => {
    expectTypeOf<ToolsError['kind']>().toEqualTypeOf<ToolsErrorKind>()
    expectTypeOf<'unexpected'>().toExtend<ToolsErrorKind>()
    expectTypeOf<'timeout-of-my-own'>().not.toExtend<ToolsErrorKind>()
  })

  it('errors: a union told apart by kind, each kind with its own fields typed', () => {
    const read = (error: ToolsError) => {
      if (error.kind === 'scope') expectTypeOf(error.scope).toEqualTypeOf<string>()
      if (error.kind === 'rate-limit') expectTypeOf(error.retryAfter).toEqualTypeOf<number>()
      if (error.kind === 'timeout') expectTypeOf(error.jobId).toEqualTypeOf<string>()
      if (error.kind === 'validation') expectTypeOf(error.issues).toEqualTypeOf<ValidationIssue[]>()
      if (error.kind === 'billing') {
        expectTypeOf(error.scope).toEqualTypeOf<undefined>()
        // A proxy's cap (402 proxy_user_limit) says when its window ends.
        expectTypeOf(error.retryAfter).toEqualTypeOf<number | undefined>()
      }
      // Before narrowing, each field is what any kind may hold.
      expectTypeOf(error.scope).toEqualTypeOf<string | undefined>()
    }
    void read
    const caught: unknown = new ToolsError('scope', 'no', { scope: 'tools:pdf' })
    if (caught instanceof ToolsError && caught.kind === 'scope') expectTypeOf(caught.scope).toEqualTypeOf<string>()
    if (isToolsError(caught) && caught.kind === 'rate-limit') expectTypeOf(caught.retryAfter).toEqualTypeOf<number>()
    expectTypeOf(new ToolsError('rate-limit', 'wait', { retryAfter: 1000 })).toEqualTypeOf<ToolsErrorOf<'rate-limit'>>()
    // @ts-expect-error: a scope error names the missing scope
    void new ToolsError('scope', 'no')
    // @ts-expect-error: a rate limit says how long to wait
    void new ToolsError('rate-limit', 'wait', {})
  })

  it('errors: each kind\'s fields typed as the client sets them at run time', () => {
    // Per kind: [scope, retryAfter, jobId], as src/client/refusals.ts, send.ts and follow.ts set them.
    type Fields<K extends ToolsErrorKind> = [ToolsErrorOf<K>['scope'], ToolsErrorOf<K>['retryAfter'], ToolsErrorOf<K>['jobId']]
    type Plain = [undefined, undefined, string | undefined]
    expectTypeOf<Fields<'validation'>>().toEqualTypeOf<Plain>()
    expectTypeOf<Fields<'bad-request'>>().toEqualTypeOf<Plain>()
    expectTypeOf<Fields<'unauthorized'>>().toEqualTypeOf<Plain>()
    expectTypeOf<Fields<'billing'>>().toEqualTypeOf<[undefined, number | undefined, string | undefined]>()
    expectTypeOf<Fields<'scope'>>().toEqualTypeOf<[string, undefined, string | undefined]>()
    expectTypeOf<Fields<'listing-access'>>().toEqualTypeOf<Plain>()
    expectTypeOf<Fields<'not-found'>>().toEqualTypeOf<Plain>()
    expectTypeOf<Fields<'rate-limit'>>().toEqualTypeOf<[undefined, number, string | undefined]>()
    expectTypeOf<Fields<'server'>>().toEqualTypeOf<Plain>()
    expectTypeOf<Fields<'network'>>().toEqualTypeOf<Plain>()
    expectTypeOf<Fields<'job-failed'>>().toEqualTypeOf<Plain>()
    expectTypeOf<Fields<'aborted'>>().toEqualTypeOf<Plain>()
    expectTypeOf<Fields<'timeout'>>().toEqualTypeOf<[undefined, undefined, string]>()
    expectTypeOf<Fields<'unexpected'>>().toEqualTypeOf<Plain>()
    // The cap's 402 is built with its wait, and reads back as a number once checked.
    const capped = new ToolsError('billing', 'over the cap', { status: 402, retryAfter: 60_000 })
    if (capped.retryAfter !== undefined) expectTypeOf(capped.retryAfter).toEqualTypeOf<number>()
  })

  it('run ownership: the provider names who is signed in; forgetting runs takes that person or another', () => {
    expectTypeOf<ToolsProviderProps['user']>().toEqualTypeOf<string | undefined>()
    expectTypeOf(useForgetRuns).returns.toEqualTypeOf<(user?: string) => Promise<void>>()
    expectTypeOf(client).toHaveProperty('apiKey')
  })
})

describe('waiting', () => {
  it('hook results carry `waiting`, and useJob stays a TanStack query result', () => {
    expectTypeOf<UseToolResult<'pdf/create'>['waiting']>().toEqualTypeOf<Waiting | null>()
    expectTypeOf<UseJobResult<'pdf/create'>['waiting']>().toEqualTypeOf<Waiting | null>()
    expectTypeOf<UseJobResult<'pdf/create'>>().toExtend<UseQueryResult<Job<'pdf/create'>, ToolsError>>()
    expectTypeOf<Waiting['reason']>().toEqualTypeOf<'rate-limit' | 'offline' | 'retrying'>()
    // @ts-expect-error: a wait has one of three reasons
    const unknown: Waiting = { reason: 'busy' }
    void unknown
  })
})

describe('UseToolResult', () => {
  it('is narrowed by phase: a result when succeeded, an error when failed, nothing before', () => {
    const read = (state: UseToolResult<'pdf/create'>) => {
      if (state.phase === 'succeeded') expectTypeOf(state.result).toEqualTypeOf<ToolResult<'pdf/create'>>()
      if (state.phase === 'failed') expectTypeOf(state.error).toEqualTypeOf<ToolsError>()
      if (state.phase === 'idle' || state.phase === 'submitting') {
        expectTypeOf(state.result).toEqualTypeOf<undefined>()
        expectTypeOf(state.job).toEqualTypeOf<undefined>()
        expectTypeOf(state.error).toEqualTypeOf<null>()
      }
      if (state.phase === 'running') expectTypeOf(state.job).toEqualTypeOf<Job<'pdf/create'> | undefined>()
      // @ts-expect-error: `result` may be undefined until the phase says succeeded
      const artifacts: string[] = state.result.artifacts
      return artifacts
    }
    void read
  })
})

describe('usage', () => {
  it('useUsage is a TanStack query of the proxy’s figures; the meter takes a div’s props and ref', () => {
    expectTypeOf(useUsage).returns.toEqualTypeOf<UseQueryResult<Usage, ToolsError>>()
    expectTypeOf(client.usage).returns.resolves.toEqualTypeOf<Usage>()
    expectTypeOf<Usage>().toEqualTypeOf<{ used: number; limit: number | null; resetAt: string | null }>()
    expectTypeOf<UsageMeterProps['ref']>().toExtend<Ref<HTMLDivElement> | undefined>()
    // @ts-expect-error: the meter shows the provider's figures, none given to it
    const given: UsageMeterProps = { usage: { used: 1, limit: 2, resetAt: null } }
    void given
  })
})

describe('the proxy’s telemetry', () => {
  it('reads @opentelemetry/api 1.x through interfaces the real one fits', () => {
    expectTypeOf<Tracer>().toExtend<OtelTracer>()
    expectTypeOf<Meter>().toExtend<OtelMeter>()
    expectTypeOf<ContextManager>().toExtend<NonNullable<OtelRegistry['context']>>()
    expectTypeOf<TracerProvider>().toExtend<NonNullable<OtelRegistry['trace']>>()
    expectTypeOf<MeterProvider>().toExtend<NonNullable<OtelRegistry['metrics']>>()
  })

  it('gives onEvent a union narrowed by its type', () => {
    const onEvent: ToolsProxyOptions['onEvent'] = (event) => {
      if (event.type === 'request') {
        expectTypeOf(event.outcome).toEqualTypeOf<ProxyOutcome>()
        expectTypeOf(event.code).toEqualTypeOf<(typeof PROXY_ERROR_CODES)[keyof typeof PROXY_ERROR_CODES] | undefined>()
        // @ts-expect-error only a stream's event has `change`
        void event.change
      } else if (event.type === 'stream') expectTypeOf(event.open).toBeNumber()
      else expectTypeOf(event).toEqualTypeOf<ProxyUpstreamEvent>()
    }
    void onEvent
    expectTypeOf<Parameters<NonNullable<ToolsProxyOptions['onEvent']>>[0]>().toEqualTypeOf<ProxyEvent>()
  })
})
