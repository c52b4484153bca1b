import { sameBytes, webhookKey, webhookSecretBytes } from '../../tools/internal.js'

/** Node's own crypto, where the runtime has it: its HMAC answers at once, where Web Crypto's goes through a thread pool. */
type NodeCrypto = typeof import('node:crypto')
const nodeCrypto = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:crypto') as
  | NodeCrypto
  | undefined

/** Whether any of `signatures` (base64) is the HMAC of `id.timestamp.body` under any of the secrets. */
export type WebhookVerifier = (signatures: readonly string[], id: string, timestamp: string, body: Uint8Array) => Promise<boolean>

const encoder = new TextEncoder()

/**
 * Standard Webhooks' check over the body's bytes as they came (never decoded and encoded again):
 * one HMAC per secret, compared with each signature. Throws a TypeError at startup for a secret
 * that is not `whsec_` and base64. `node` null: Web Crypto even where Node's is at hand.
 */
export function webhookVerifier(secrets: readonly string[], node: NodeCrypto | null = nodeCrypto ?? null): WebhookVerifier {
  const bytes = secrets.map((secret) => {
    const key = webhookSecretBytes(secret)
    if (!key) throw new TypeError('createToolsProxy: a `webhooks.secret` is not a `whsec_…` secret (base64 after the prefix).')
    return key
  })
  if (node) {
    const keys = bytes.map((key) => node.createSecretKey(key))
    // The digest's base64 beside each signature's, compared as text in constant time: nothing decoded.
    return async (signatures, id, timestamp, body) => {
      const given = signatures.map((signature) => encoder.encode(signature))
      return keys.some((key) => {
        const mac = encoder.encode(node.createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64'))
        return given.some((signature) => signature.byteLength === mac.byteLength && node.timingSafeEqual(mac, signature))
      })
    }
  }
  const keys = secrets.map((secret) => webhookKey(secret))
  return async (signatures, id, timestamp, body) => {
    const head = encoder.encode(`${id}.${timestamp}.`)
    const message = new Uint8Array(head.byteLength + body.byteLength)
    message.set(head)
    message.set(body, head.byteLength)
    const given = signatures.map((signature) => Uint8Array.from(atob(signature), (char) => char.charCodeAt(0)))
    for (const key of keys) {
      const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await key, message))
      if (given.some((signature) => sameBytes(mac, signature))) return true
    }
    return false
  }
}
