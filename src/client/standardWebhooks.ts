/**
 * Standard Webhooks signatures (standardwebhooks.com): `v1,` and the base64 HMAC-SHA256 of
 * `id.timestamp.body`, keyed with the bytes of the base64 after `whsec_`. Web Crypto, so it runs
 * on every Fetch runtime with no dependency; the proxy verifies with it and the simulated service
 * signs with it.
 */

const encoder = new TextEncoder()

/** The key bytes of a `whsec_…` secret (the prefix is optional), or undefined when it is not base64. */
export function webhookSecretBytes(secret: string): Uint8Array<ArrayBuffer> | undefined {
  const text = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return undefined
  try {
    const bytes = Uint8Array.from(atob(text), (char) => char.charCodeAt(0))
    return bytes.length > 0 ? bytes : undefined
  } catch {
    return undefined
  }
}

/** An HMAC key for signing and verifying webhooks with `secret`; throws a TypeError naming the problem when it is not one. */
export function webhookKey(secret: string): Promise<CryptoKey> {
  const bytes = webhookSecretBytes(secret)
  if (!bytes) throw new TypeError('A webhook secret is `whsec_` and base64 key bytes.')
  return crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify'])
}

const signed = (id: string, timestamp: number | string, body: string) => encoder.encode(`${id}.${timestamp}.${body}`)

/** The `webhook-signature` value for one secret: `v1,<base64>`. */
export async function webhookSignature(key: CryptoKey, id: string, timestamp: number, body: string): Promise<string> {
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, signed(id, timestamp, body)))
  let binary = ''
  for (const byte of mac) binary += String.fromCharCode(byte)
  return `v1,${btoa(binary)}`
}

/** The `v1` signatures of a `webhook-signature` header (space-separated, one per secret during a rotation), at most eight. */
export function webhookSignatures(header: string): Uint8Array[] {
  return header
    .split(' ')
    .filter((part) => part.startsWith('v1,'))
    .slice(0, 8) // a header of thousands of signatures costs no more than eight
    .map((part) => {
      try {
        return Uint8Array.from(atob(part.slice(3)), (char) => char.charCodeAt(0))
      } catch {
        return undefined
      }
    })
    .filter((bytes): bytes is Uint8Array<ArrayBuffer> => bytes?.length === 32)
}

/**
 * Whether any `v1` signature in a `webhook-signature` header is the HMAC of `id.timestamp.body`
 * under any of `keys`. The HMAC depends on the key, not on the signature: it is computed once per
 * key, then compared with each signature in constant time.
 */
export async function webhookSigned(keys: readonly CryptoKey[], header: string, id: string, timestamp: string, body: string): Promise<boolean> {
  const signatures = webhookSignatures(header)
  if (signatures.length === 0) return false
  const message = signed(id, timestamp, body)
  for (const key of keys) {
    const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, message))
    if (signatures.some((signature) => sameBytes(mac, signature))) return true
  }
  return false
}

/** Equal bytes, in a time that depends only on the length. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!
  return difference === 0
}
