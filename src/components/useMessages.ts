import { en, useToolsContext, type Messages, type PartialMessages } from '../react/index.js'
import { mergeMessages } from '../react/internal.js'

// One merge per overrides object, shared by every component under the same provider.
const merged = new WeakMap<PartialMessages, Messages>()

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
