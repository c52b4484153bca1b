import { jobWriter } from './jobWrite.js'
import type { JobKey, JobSnapshot, JobStatusOptions } from './jobSnapshot.js'
import { keys } from '../keys.js'
import { together, type ProxyStore, type StoreOperation } from '../stores/store.js'

/** How long a webhook about a job the store does not know is kept, for the job's first snapshot to take. */
const EARLY_WEBHOOK_TTL_MS = 2 * 60 * 1000

/**
 * How a job's snapshots are kept: a read's, a creation's or a webhook's, each written once in the
 * store under its rules (an ended job's stays; a webhook that came before the job is taken by its
 * first snapshot). `kept` reads the snapshot the store holds.
 */
export function jobKeeper(store: ProxyStore, options: Pick<JobStatusOptions, 'keepMs' | 'webhookQuietMs'>, kept: (key: JobKey) => Promise<JobSnapshot | undefined>) {
  const { write, writeNew } = jobWriter(store, options.keepMs)

  /**
   * Keeps and publishes a job's new snapshot; an ended job's stays (a late, earlier status cannot
   * replace it). `previous` 'new': a creation's, written unless the store holds one, with no read
   * first. `also` goes to the store in the same trip as the write: what it answered too.
   */
  async function put(key: JobKey, snapshot: JobSnapshot, previous?: JobSnapshot | 'new', also: readonly StoreOperation[] = []) {
    // The store's first snapshot of the job (its creation, or the store lost what it held): a
    // webhook names only the job, so its tool is remembered, and one that came first is taken.
    const remember: StoreOperation[] =
      options.webhookQuietMs === undefined
        ? []
        : [{ op: 'set', key: keys.job(key.jobId), value: key.toolPath, ttlMs: options.keepMs }, { op: 'get', key: keys.early(key.jobId) }]
    let written: { next: JobSnapshot; answers: unknown[]; early?: unknown }
    if (previous === 'new' && !snapshot.terminal) {
      const { next, first, also: answers } = await writeNew(key, snapshot, remember, also)
      written = { next, answers, early: first[1] }
    } else {
      const before = previous === 'new' ? await kept(key) : (previous ?? (await kept(key)))
      const first = before ? [] : remember
      const { next, answers } = await write(key, snapshot, before, [...first, ...also])
      written = { next, answers: answers.slice(first.length), early: first.length > 0 ? answers[1] : undefined }
    }
    const { next, answers, early } = written
    const told = typeof early === 'string' ? (JSON.parse(early) as JobSnapshot) : undefined
    if (told && (told.terminal || told.readAt > next.readAt)) return { next: (await write(key, told, next)).next, answers }
    return { next, answers }
  }

  /**
   * A webhook's snapshot of a job it names by id only: kept under the job's tool, or, for a job
   * the store does not know (its creation's answer is still on its way, the store lost it, or it
   * is another app's), kept aside for the job's next first snapshot to take.
   */
  async function putWebhook(jobId: string, snapshot: JobSnapshot): Promise<void> {
    let toolPath = await store.get(keys.job(jobId))
    if (!toolPath) {
      await store.set(keys.early(jobId), JSON.stringify(snapshot), EARLY_WEBHOOK_TTL_MS)
      // The job's first snapshot may have been written meanwhile, before this was kept aside.
      toolPath = await store.get(keys.job(jobId))
    }
    if (toolPath) await put({ toolPath, jobId }, snapshot)
  }

  /**
   * A job watched here whose snapshot the store lost (it came back empty): its tool remembered again,
   * so a webhook after the store's return is applied and told at once, not kept aside until the
   * job's next read; one kept aside meanwhile is taken now (its write is published).
   */
  async function recall(key: JobKey): Promise<void> {
    if (options.webhookQuietMs === undefined) return
    const remembered: StoreOperation = { op: 'set', key: keys.job(key.jobId), value: key.toolPath, ttlMs: options.keepMs }
    const [, early] = await together(store, [remembered, { op: 'get', key: keys.early(key.jobId) }])
    if (typeof early === 'string') await put(key, JSON.parse(early) as JobSnapshot)
  }

  return { put, putWebhook, recall }
}

export type JobKeeper = ReturnType<typeof jobKeeper>
