import type { Job, Presence, Result, UploadProgress, Waiting } from '../definition.js'
import { toToolsError } from '../errors.js'
import { newIdempotencyKey } from '../ids.js'
import { isTerminal } from '../phase.js'
import type { Journal, Run } from './journal.js'
import { saveRun, splitInput, tagOf, type Journaled, type RunClient } from './runRecord.js'

/** One call as asked for, with the client and fingerprint of the key at that moment. */
export interface Intent {
  input: unknown
  idempotencyKey?: string
  signal: AbortSignal
  client: RunClient
  fingerprint: string
}

/** Where an intent is sent from: its tool, its journal (false: none, as for a sync tool), who is told what. */
export interface SubmitContext {
  tool: string
  journal: Journal | false
  /** Tells two observers of one tool apart (a widget's tag). */
  tag?: string
  /** The observer's own run, kept current by every journal write. */
  holder: Journaled
  show(run: Run): void
  onUploadProgress?(progress: UploadProgress): void
  onWait?(waiting: Waiting | null): void
  presence?: Presence
}

/**
 * Sends one intent: without a journal, the call as it is; with one, the POST leaves once its run
 * is journaled and shown, so it survives a reload, an unmount or a crash while the POST is out.
 */
export async function submit(intent: Intent, context: SubmitContext): Promise<Run | Result | Job> {
  const { input, idempotencyKey, signal, client } = intent
  const { tool, journal, holder, show } = context
  // The last upload progress tells whether a file's body went out whole.
  let sent = { loaded: 0, total: 0 }
  const onUploadProgress = (p: UploadProgress) => context.onUploadProgress?.((sent = p))
  const sending = { signal, idempotencyKey, onUploadProgress, onWait: context.onWait, presence: context.presence }
  if (!journal) return client.run(tool, input, sending)
  let run = await saveRun(journal, holder, (await earlier(intent, context)) ?? newRun(intent, context), { seen: false })
  // The new intent is the observer's own run, whatever it showed before.
  show((holder.current = run))
  // The same intent made a job already (its answer seen, its end not): followed, never posted for again.
  if (run.jobId) return run
  try {
    const handle = await client.start(tool, input, { ...sending, idempotencyKey: run.idempotencyKey })
    run = await saveRun(journal, holder, run, { jobId: handle.jobId, phase: 'pending', ...(handle.replayed && { replayed: true }) })
    show(run)
    return run
  } catch (cause) {
    const error = toToolsError(cause, tool)
    // The service may have taken the call after an abort (of a whole upload) or a network or
    // server error: the run stays, set aside if aborted. A refusal or a cut upload billed nothing.
    if (error.kind === 'aborted' && sent.loaded >= sent.total) await saveRun(journal, holder, run, { seen: true })
    else if (error.kind !== 'network' && error.kind !== 'server') await journal.drop(run)
    throw error
  }
}

/** An unfinished run of the same input and file: the same intent, sent again with its key. */
async function earlier({ input, idempotencyKey, fingerprint }: Intent, { tool, tag, journal }: SubmitContext) {
  const parts = splitInput(input)
  const described = JSON.stringify([parts.input, parts.file])
  // Room for the run about to be journaled, should none be found.
  return (await (journal as Journal).list(fingerprint, 1)).find(
    (run) =>
      run.tool === tool &&
      tagOf(run) === tag &&
      !isTerminal(run.phase) &&
      (idempotencyKey ?? run.idempotencyKey) === run.idempotencyKey &&
      JSON.stringify([run.input, run.file]) === described,
  )
}

function newRun({ input, idempotencyKey, fingerprint }: Intent, { tool, tag }: SubmitContext): Omit<Run, 'updatedAt'> {
  return {
    id: newIdempotencyKey(),
    tool,
    fingerprint,
    tag,
    idempotencyKey: idempotencyKey ?? newIdempotencyKey(),
    ...splitInput(input),
    phase: 'submitting',
    createdAt: Date.now(),
  }
}
