import { TOOLS, type Scope } from '../tools/index.js'
import type { MockAccount, MockWallet } from './types.js'

/** The default base URL of the simulated service. */
export const MOCK_BASE_URL = 'https://tools.cabinet.test/v1'

/** Every scope a key can hold, from the catalogue. */
export const ALL_SCOPES: readonly Scope[] = [...new Set(TOOLS.flatMap((tool) => (tool.scope ? [tool.scope] : [])))]

/** The names of the default fixture's keys (`MOCK_KEYS`), each meeting one answer of the service. */
export type MockKeyName = 'demo' | 'limited' | 'norent' | 'broke' | 'other' | 'throttled' | 'failing' | 'down' | 'unknown'

/**
 * The keys of the default fixture, one for each answer a caller can meet with the example inputs:
 * - `demo`: the demo account, every scope, plenty to spend;
 * - `limited`: the demo account, only `tools:rent` (other tools that need a scope answer 403);
 * - `norent`: the demo account, every scope but `tools:rent` (`valuation/rent` answers 403);
 * - `broke`: an account with every scope and nothing left to pay with (402), holding the demo
 *   listings too, so the example inputs meet its empty wallet rather than a listing refusal;
 * - `other`: another account, owner of {@link MOCK_LISTINGS} `otherObject` / `otherCollection`
 *   (the demo listings answer 403);
 * - `throttled`: every call answers 429 with `Retry-After: 1`;
 * - `failing`: calls succeed, and every job ends `failed`;
 * - `down`: every request answers 500;
 * - `unknown`: a key no account holds (401).
 */
export const MOCK_KEYS: Readonly<Record<MockKeyName, string>> = {
  demo: 'demo-key',
  limited: 'limited-key',
  norent: 'norent-key',
  broke: 'broke-key',
  other: 'other-key',
  throttled: 'throttled-key',
  failing: 'failing-key',
  down: 'down-key',
  unknown: 'unknown-key',
}

/** What each key of the default fixture meets, in a line (the command's banner). */
export const MOCK_KEY_NOTES: Readonly<Record<MockKeyName, string>> = {
  demo: 'every tool succeeds',
  limited: 'only tools:rent: other tools that need a scope answer 403 scope',
  norent: 'every scope but tools:rent: valuation/rent answers 403 scope',
  broke: 'an empty wallet: every tool answers 402 billing',
  other: 'another account: obj_demo and col_demo answer 403 listing-access',
  throttled: 'every call answers 429 rate-limit (Retry-After: 1)',
  failing: 'every job ends failed (job-failed)',
  down: 'every request answers 500 server',
  unknown: 'no account holds it: 401 unauthorized',
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

const plenty = (): MockWallet => ({ subscriptionCalls: 1000, bundleCalls: 100, balanceCents: 10_000, callPriceCents: 50, currency: 'EUR' })
const demoListings = { objects: [MOCK_LISTINGS.demoObject], collections: [MOCK_LISTINGS.demoCollection] }

/**
 * The default accounts: `demo` (keys `demo`, `limited` and `norent`), `broke`, `throttled`,
 * `failing` and `down` hold `obj_demo` / `col_demo`; `other` holds `obj_other` / `col_other`.
 */
export const MOCK_ACCOUNTS: readonly MockAccount[] = [
  {
    id: 'demo',
    keys: {
      [MOCK_KEYS.demo]: ALL_SCOPES,
      [MOCK_KEYS.limited]: ['tools:rent'],
      [MOCK_KEYS.norent]: ALL_SCOPES.filter((scope) => scope !== 'tools:rent'),
    },
    wallet: plenty(),
    ...demoListings,
  },
  {
    id: 'broke',
    keys: { [MOCK_KEYS.broke]: ALL_SCOPES },
    wallet: { subscriptionCalls: 0, bundleCalls: 0, balanceCents: 0, callPriceCents: 50, currency: 'EUR' },
    ...demoListings,
  },
  {
    id: 'other',
    keys: { [MOCK_KEYS.other]: ALL_SCOPES },
    wallet: { subscriptionCalls: 1000, bundleCalls: 0, balanceCents: 0, callPriceCents: 50, currency: 'EUR' },
    objects: [MOCK_LISTINGS.otherObject],
    collections: [MOCK_LISTINGS.otherCollection],
  },
  { id: 'throttled', keys: { [MOCK_KEYS.throttled]: ALL_SCOPES }, wallet: plenty(), ...demoListings, fault: 'rate-limit' },
  { id: 'failing', keys: { [MOCK_KEYS.failing]: ALL_SCOPES }, wallet: plenty(), ...demoListings, outcome: 'failed' },
  { id: 'down', keys: { [MOCK_KEYS.down]: ALL_SCOPES }, wallet: plenty(), ...demoListings, fault: 'server-error' },
]
