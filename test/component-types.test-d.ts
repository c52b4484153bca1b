// The components' type contracts: a generic component keeps its tool through forwardRef, and each
// root's ref is typed by its element.
import type { Ref } from 'react'
import { describe, expectTypeOf, it } from 'vitest'
import { JobProgress, RecentRuns, ToolRunner, UploadForm, type ToolResult } from '../src/components/index.js'

describe('component types', () => {
  it('ToolRunner keeps its tool: onResult gets that tool’s result, input takes that tool’s fields', () => {
    type Props = Parameters<typeof ToolRunner<'valuation/rent'>>[0]
    expectTypeOf<Parameters<NonNullable<Props['onResult']>>[0]>().toEqualTypeOf<ToolResult<'valuation/rent'>>()
    expectTypeOf<{ city: string }>().toExtend<NonNullable<Props['input']>>()
    // @ts-expect-error a tool that does not exist
    expectTypeOf<Parameters<typeof ToolRunner<'valuation/rents'>>[0]>()
  })

  it('each root takes a ref of its own element', () => {
    expectTypeOf<Parameters<typeof ToolRunner>[0]['ref']>().toEqualTypeOf<Ref<HTMLElement> | undefined>()
    expectTypeOf<Parameters<typeof UploadForm>[0]['ref']>().toEqualTypeOf<Ref<HTMLFormElement> | undefined>()
    expectTypeOf<Parameters<typeof JobProgress>[0]['ref']>().toEqualTypeOf<Ref<HTMLDivElement> | undefined>()
    expectTypeOf<Parameters<typeof RecentRuns>[0]['ref']>().toEqualTypeOf<Ref<HTMLElement> | undefined>()
  })
})
