import type { BillingSource, MockWallet } from './types.js'

/**
 * Takes one call's price from `wallet` in the spec's order (subscription, bundle, pay as
 * you go) and names the source that paid; null when nothing can pay (402).
 */
export function charge(wallet: MockWallet): BillingSource | null {
  if (wallet.subscriptionCalls > 0) {
    wallet.subscriptionCalls--
    return 'subscription'
  }
  if (wallet.bundleCalls > 0) {
    wallet.bundleCalls--
    return 'bundle'
  }
  if (wallet.balanceCents >= wallet.callPriceCents) {
    wallet.balanceCents -= wallet.callPriceCents
    return 'payg'
  }
  return null
}
