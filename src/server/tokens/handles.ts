import { createSealer } from './sealing.js'
import { decodeText, type Signer } from './signing.js'

/** Job handles this instance signed or checked lately, at most: a page's reads of its jobs need not check them again. */
const HANDLES_KEPT = 10_000

/**
 * What the browser holds instead of the service's own ids: job handles and artifact tokens
 * sealed for one user (encrypted: they show no id), and Idempotency-Keys derived per user and
 * tool. Stateless: any instance sharing the secret reads them.
 */
export function createHandles(signer: Signer) {
  const sealer = createSealer(signer)
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
      const handle = await sealer.seal(['job', user, tool], jobId)
      remember(knownKey(user, tool, handle), jobId)
      return handle
    },

    /** The service's job id behind a handle, when it was made for this user and tool. */
    async openJob(user: string, tool: string, handle: string): Promise<string | undefined> {
      const key = knownKey(user, tool, handle)
      const seen = known.get(key)
      if (seen !== undefined) return seen
      if (!handle.includes('.')) {
        const jobId = await sealer.open(['job', user, tool], handle)
        if (jobId) remember(key, jobId)
        return jobId || undefined
      }
      // A handle of the earlier form (the id in base64, then its signature), still in pages' journals: still honoured.
      const [id, signature, extra] = handle.split('.')
      const jobId = id === undefined ? undefined : decodeText(id)
      if (!jobId || !signature || extra !== undefined) return undefined
      if (!(await signer.verify(['job', user, tool, jobId], signature))) return undefined
      remember(key, jobId)
      return jobId
    },

    /** An artifact token: the file's path under the service's base, from this tool's answer, for this user, until `expiresAt` (ms). */
    async artifact(user: string, tool: string, path: string, expiresAt: number): Promise<string> {
      return sealer.seal(['artifact', user], JSON.stringify([path, expiresAt, tool]))
    },

    /** The file's path and tool behind a token, when it was made for this user and has not expired. */
    async openArtifact(user: string, token: string, now: number): Promise<{ path: string; tool: string } | undefined> {
      // A token of the earlier form (a signed but readable path) is refused: it lived `artifactTtlMs`, and a read of the job signs its file again.
      const payload = await sealer.open(['artifact', user], token)
      if (!payload) return undefined
      let path: unknown, expiresAt: unknown, tool: unknown
      try {
        ;[path, expiresAt, tool] = JSON.parse(payload) as unknown[]
      } catch {
        return undefined
      }
      if (typeof path !== 'string' || typeof tool !== 'string' || typeof expiresAt !== 'number' || expiresAt <= now) return undefined
      return { path, tool }
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
