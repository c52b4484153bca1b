// What a partner's Worker has, typed by @cloudflare/workers-types, fits what the Cloudflare entry
// declares for itself: `env.TOOLS_STATE` goes to durableObjectStore, and the runtime's
// DurableObjectState to ToolsProxyState, with no cast.
import type { DurableObjectNamespace, DurableObjectState } from '@cloudflare/workers-types/latest/index.ts'
import { describe, expectTypeOf, it } from 'vitest'
import { durableObjectStore, ToolsProxyState, type ToolsStateContext } from '../src/entries/server/cloudflare.js'
import type { ProxyStore } from '../src/server/index.js'

describe('the Cloudflare entry’s types', () => {
  it('takes a real DurableObjectNamespace and DurableObjectState', () => {
    const env = {} as { TOOLS_STATE: DurableObjectNamespace }
    expectTypeOf(durableObjectStore(env.TOOLS_STATE)).toEqualTypeOf<ProxyStore>()
    expectTypeOf<DurableObjectState>().toExtend<ToolsStateContext>()
    expectTypeOf(ToolsProxyState).toBeConstructibleWith({} as DurableObjectState)
  })
})
