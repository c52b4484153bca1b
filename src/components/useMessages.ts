import { en, useToolsContext, type Messages, type PartialMessages } from '../react/index.js'
import { enCore, mergeMessages, type CoreMessages } from '../react/internal.js'

// One merge per overrides object, shared by every component under the same provider.
const merged = new WeakMap<PartialMessages, Messages>()
const mergedCore = new WeakMap<PartialMessages, CoreMessages>()

/** `defaults` with the provider's `messages` laid over them, merged once per overrides object. */
function useMerged<M extends CoreMessages>(cache: WeakMap<PartialMessages, M>, defaults: M): M {
  const overrides = useToolsContext().messages
  let value = cache.get(overrides)
  if (!value) cache.set(overrides, (value = mergeMessages(defaults, overrides)))
  return value
}

/**
 * Every UI string: the English defaults with the provider's `messages` merged over them.
 * The defaults load with the components only, so hooks alone cost no strings.
 */
export function useMessages(): Messages {
  return useMerged(merged, en)
}

/**
 * The strings of every component but `<RecentRuns>` and `<UsageMeter>`, merged the same way: what
 * the components read, so a page with neither of those loads none of their strings.
 */
export function useCoreMessages(): CoreMessages {
  return useMerged(mergedCore, enCore)
}
