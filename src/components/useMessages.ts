import { en, useToolsContext, type Messages, type PartialMessages } from '../react/index.js'
import { enCore, mergeMessages, type CoreMessages } from '../react/internal.js'

// One merge per overrides object, shared by every component under the same provider.
const merged = new WeakMap<PartialMessages, Messages>()
const mergedCore = new WeakMap<PartialMessages, CoreMessages>()

/**
 * Every UI string: the English defaults with the provider's `messages` merged over them.
 * The defaults load with the components only, so hooks alone cost no strings.
 */
export function useMessages(): Messages {
  const { messages: overrides } = useToolsContext()
  let value = merged.get(overrides)
  if (!value) {
    value = mergeMessages(en, overrides)
    merged.set(overrides, value)
  }
  return value
}

/**
 * The strings of every component but `<RecentRuns>` and `<UsageMeter>`, merged the same way: what
 * the components read, so a page with neither of those loads none of their strings.
 */
export function useCoreMessages(): CoreMessages {
  const { messages: overrides } = useToolsContext()
  let value = mergedCore.get(overrides)
  if (!value) {
    value = mergeMessages(enCore, overrides)
    mergedCore.set(overrides, value)
  }
  return value
}
