import { decodeText, encodeText, type Signer } from './signing.js'

/** Job handles this instance signed or checked lately, at most: a page's reads of its jobs need not check them again. */
const HANDLES_KEPT = 10_000

/**
 * What the browser holds instead of the service's own ids: job handles and artifact tokens
 * signed for one user, and Idempotency-Keys derived per user. Stateless: any instance sharing
 * the secret reads them.
 */
export function createHandles(signer: Signer) {
  /** The job id behind each handle known good, by user, tool and handle. */
  const known = new Map<string, string>()
  const knownKey = (user: string, tool: string, handle: string) => JSON.stringify([user, tool, handle])
  const remember = (key: string, jobId: string) => {
    if (known.size >= HANDLES_KEPT) known.clear()
    known.set(key, jobId)
  }
  return {
    /** A job handle: the job id, signed for this user and tool. */
    async job(user: string, tool: string, jobId: string): Promise<string> {
      const handle = `${encodeText(jobId)}.${await signer.sign(['job', user, tool, jobId])}`
      remember(knownKey(user, tool, handle), jobId)
      return handle
    },

    /** The service's job id behind a handle, when it was made for this user and tool. */
    async openJob(user: string, tool: string, handle: string): Promise<string | undefined> {
      const key = knownKey(user, tool, handle)
      const seen = known.get(key)
      if (seen !== undefined) return seen
      const [id, signature, extra] = handle.split('.')
      const jobId = id === undefined ? undefined : decodeText(id)
      if (!jobId || !signature || extra !== undefined) return undefined
      if (!(await signer.verify(['job', user, tool, jobId], signature))) return undefined
      remember(key, jobId)
      return jobId
    },

    /** An artifact token: the file's path under the service's base, from this tool's answer, for this user, until `expiresAt` (ms). */
    async artifact(user: string, tool: string, path: string, expiresAt: number): Promise<string> {
      const payload = JSON.stringify([path, expiresAt, tool])
      return `${encodeText(payload)}.${await signer.sign(['artifact', user, tool, path, String(expiresAt)])}`
    },

    /** The file's path and tool behind a token, when it was made for this user and has not expired. */
    async openArtifact(user: string, token: string, now: number): Promise<{ path: string; tool: string } | undefined> {
      const [encoded, signature, extra] = token.split('.')
      const payload = encoded === undefined ? undefined : decodeText(encoded)
      if (!payload || !signature || extra !== undefined) return undefined
      let path: unknown, expiresAt: unknown, tool: unknown
      try {
        ;[path, expiresAt, tool] = JSON.parse(payload) as unknown[]
      } catch {
        return undefined
      }
      if (typeof path !== 'string' || typeof tool !== 'string' || typeof expiresAt !== 'number' || expiresAt <= now) return undefined
      return (await signer.verify(['artifact', user, tool, path, String(expiresAt)], signature)) ? { path, tool } : undefined
    },

    /**
     * The Idempotency-Key sent on: the same user's same key on the same tool gives the same one; two
     * users', or two tools', never (however the service scopes its keys, one key is one call).
     */
    idempotencyKey(user: string, tool: string, key: string): Promise<string> {
      return signer.sign(['idempotency', user, tool, key])
    },
  }
}

export type Handles = ReturnType<typeof createHandles>
