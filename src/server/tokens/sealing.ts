import { fromBase64Url, nodeCrypto, toBase64Url, type Signer } from './signing.js'
import { joinBytes } from '../bytes.js'

/**
 * Texts sealed for the browser: encrypted and authenticated (AES-256-GCM) with a key derived from
 * the secret, bound to a context (a purpose, a user, a tool) that is not sent. The browser sees
 * nothing of what they hold. The same text in the same context seals alike (its nonce is a keyed
 * hash of both), so a job keeps one handle; two texts never share a nonce.
 */
export interface Sealer {
  seal(context: readonly string[], text: string): Promise<string>
  /** The text, when `token` was sealed in this context with this secret. */
  open(context: readonly string[], token: string): Promise<string | undefined>
}

const NONCE = 12
const TAG = 16
const encoder = new TextEncoder()
const decoder = new TextDecoder('utf-8', { fatal: true })

export function createSealer(signer: Signer, node = nodeCrypto ?? null): Sealer {
  const keyBytes = signer.sign(['seal-key']).then((key) => fromBase64Url(key)!)
  const nonceOf = async (context: readonly string[], text: string) => fromBase64Url(await signer.sign(['seal-nonce', ...context, text]))!.slice(0, NONCE)
  const aad = (context: readonly string[]) => encoder.encode(JSON.stringify(context))
  const split = (token: string) => {
    const bytes = fromBase64Url(token)
    return bytes && bytes.length > NONCE + TAG ? { nonce: bytes.slice(0, NONCE), sealed: bytes.slice(NONCE) } : undefined
  }
  const joined = (...parts: Uint8Array[]) => toBase64Url(joinBytes(parts))
  if (node) {
    // Node's own AES answers at once, as its HMAC does (see signing).
    return {
      async seal(context, text) {
        const nonce = await nonceOf(context, text)
        const cipher = node.createCipheriv('aes-256-gcm', await keyBytes, nonce).setAAD(aad(context))
        return joined(nonce, cipher.update(text, 'utf8'), cipher.final(), cipher.getAuthTag())
      },
      async open(context, token) {
        const parts = split(token)
        if (!parts) return undefined
        try {
          const decipher = node.createDecipheriv('aes-256-gcm', await keyBytes, parts.nonce).setAAD(aad(context))
          decipher.setAuthTag(parts.sealed.slice(-TAG))
          return decoder.decode(joinBytes([decipher.update(parts.sealed.slice(0, -TAG)), decipher.final()]))
        } catch {
          return undefined
        }
      },
    }
  }
  const key = keyBytes.then((bytes) => crypto.subtle.importKey('raw', bytes, 'AES-GCM', false, ['encrypt', 'decrypt']))
  return {
    async seal(context, text) {
      const nonce = await nonceOf(context, text)
      const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv: nonce, additionalData: aad(context) }, await key, encoder.encode(text))
      return joined(nonce, new Uint8Array(sealed))
    },
    async open(context, token) {
      const parts = split(token)
      if (!parts) return undefined
      try {
        return decoder.decode(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: parts.nonce, additionalData: aad(context) }, await key, parts.sealed))
      } catch {
        return undefined
      }
    },
  }
}
