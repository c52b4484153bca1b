/**
 * HMAC-SHA-256: Node's `crypto` where the runtime has it, else Web Crypto (`crypto.subtle`), so the
 * proxy runs on every Fetch runtime; both sign alike.
 * Every signature binds a purpose and the end user, so a handle made for one purpose or one
 * user verifies for no other.
 */
export interface Signer {
  /** A base64url signature of `fields`. */
  sign(fields: readonly string[]): Promise<string>
  /** Whether `signature` is `sign(fields)`'s, compared in constant time. */
  verify(fields: readonly string[], signature: string): Promise<boolean>
}

const encoder = new TextEncoder()

/** Node's own crypto, where the runtime has it: its HMAC answers at once, where Web Crypto's goes through a thread pool (~80 µs a call). */
type NodeCrypto = typeof import('node:crypto')
export const nodeCrypto = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:crypto') as
  | NodeCrypto
  | undefined

/** `node` null: Web Crypto even where Node's is at hand. */
export function createSigner(secret: string, node: NodeCrypto | null = nodeCrypto ?? null): Signer {
  // JSON keeps the fields apart whatever they contain.
  const message = (fields: readonly string[]) => encoder.encode(JSON.stringify(fields))
  if (node) {
    const key = node.createSecretKey(encoder.encode(secret))
    // Base64url straight from the digest, and a signature compared as the canonical text it must be.
    const mac = (fields: readonly string[]) => node.createHmac('sha256', key).update(JSON.stringify(fields)).digest('base64url')
    return {
      sign: async (fields) => mac(fields),
      verify: async (fields, signature) => {
        const [given, expected] = [encoder.encode(signature), encoder.encode(mac(fields))]
        return given.length === expected.length && node.timingSafeEqual(given, expected)
      },
    }
  }
  const key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ])
  return {
    async sign(fields) {
      return toBase64Url(new Uint8Array(await crypto.subtle.sign('HMAC', await key, message(fields))))
    },
    async verify(fields, signature) {
      const bytes = fromBase64Url(signature)
      return bytes !== undefined && crypto.subtle.verify('HMAC', await key, bytes, message(fields))
    },
  }
}

export function toBase64Url(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** The bytes of canonical unpadded base64url only: another spelling of the same bytes (spare bits set in the last character) is refused. */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined
  let bytes: Uint8Array<ArrayBuffer>
  try {
    bytes = Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (char) => char.charCodeAt(0))
  } catch {
    return undefined
  }
  return toBase64Url(bytes) === text ? bytes : undefined
}

export const encodeText = (text: string) => toBase64Url(encoder.encode(text))

export function decodeText(text: string): string | undefined {
  const bytes = fromBase64Url(text)
  if (!bytes) return undefined
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return undefined
  }
}
