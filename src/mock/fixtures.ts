import { TOOLS, type Scope } from '../tools/index.js'
import type { MockAccount } from './types.js'

/** The default base URL of the simulated service. */
export const MOCK_BASE_URL = 'https://tools.cabinet.test/v1'

/** Every scope a key can hold, from the catalogue. */
export const ALL_SCOPES: readonly Scope[] = [...new Set(TOOLS.flatMap((tool) => (tool.scope ? [tool.scope] : [])))]

/**
 * The keys of the default fixture:
 * - `demo`: the demo account, every scope, plenty to spend;
 * - `limited`: the demo account, only `tools:rent` (other tools answer 403);
 * - `broke`: an account with every scope and nothing left to pay with (402), holding the demo
 *   listings too, so the example inputs meet its empty wallet rather than a listing refusal;
 * - `other`: another account, owner of {@link MOCK_LISTINGS} `otherObject` / `otherCollection`.
 */
export const MOCK_KEYS: Readonly<Record<'demo' | 'limited' | 'broke' | 'other', string>> = {
  demo: 'demo-key',
  limited: 'limited-key',
  broke: 'broke-key',
  other: 'other-key',
}

/** Listings and collections of the default fixture, by owner. */
export const MOCK_LISTINGS: Readonly<
  Record<'demoObject' | 'demoCollection' | 'otherObject' | 'otherCollection', string>
> = {
  demoObject: 'obj_demo',
  demoCollection: 'col_demo',
  otherObject: 'obj_other',
  otherCollection: 'col_other',
}

/** The default accounts: `demo` (keys `demo` and `limited`) and `broke` hold `obj_demo` / `col_demo`; `other` holds `obj_other` / `col_other`. */
export const MOCK_ACCOUNTS: readonly MockAccount[] = [
  {
    id: 'demo',
    keys: { [MOCK_KEYS.demo]: ALL_SCOPES, [MOCK_KEYS.limited]: ['tools:rent'] },
    wallet: { subscriptionCalls: 1000, bundleCalls: 100, balanceCents: 10_000, callPriceCents: 50, currency: 'EUR' },
    objects: [MOCK_LISTINGS.demoObject],
    collections: [MOCK_LISTINGS.demoCollection],
  },
  {
    id: 'broke',
    keys: { [MOCK_KEYS.broke]: ALL_SCOPES },
    wallet: { subscriptionCalls: 0, bundleCalls: 0, balanceCents: 0, callPriceCents: 50, currency: 'EUR' },
    objects: [MOCK_LISTINGS.demoObject],
    collections: [MOCK_LISTINGS.demoCollection],
  },
  {
    id: 'other',
    keys: { [MOCK_KEYS.other]: ALL_SCOPES },
    wallet: { subscriptionCalls: 1000, bundleCalls: 0, balanceCents: 0, callPriceCents: 50, currency: 'EUR' },
    objects: [MOCK_LISTINGS.otherObject],
    collections: [MOCK_LISTINGS.otherCollection],
  },
]
