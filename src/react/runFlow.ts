import type { QueryClient } from '@tanstack/react-query'
import {
  isTerminal,
  jobFailedError,
  ToolsError,
  type DeferredToolId,
  type Result,
  type ToolId,
  type ToolsClient,
  type UploadProgress,
  type Waiting,
} from '../tools/index.js'
import { abortError, newIdempotencyKey } from '../tools/internal.js'
import type { Journal, Run } from './journal.js'
import { asToolsError, jobQueryOptions } from './jobQuery.js'
import { saveRun, splitInput, type Journaled } from './runJournal.js'
import { queryPresence } from './useWaiting.js'

/** One call as asked for, with the client and fingerprint of the key at that moment. */
export interface Intent {
  input: unknown
  idempotencyKey?: string
  signal: AbortSignal
  client: ToolsClient
  fingerprint: string
}

/**
 * Sends one intent: a sync tool's call as it is; a deferred tool's POST once its run is
 * journaled in `journal` and shown, so that it survives the page while the POST is out.
 */
export async function submit(
  { input, idempotencyKey, signal, client, fingerprint }: Intent,
  progress: (progress: UploadProgress) => void,
  onWait: (waiting: Waiting | null) => void,
  tool: ToolId,
  journal: Journal | false,
  journaled: Journaled,
  scope: string | undefined,
  show: (run: Run) => void,
): Promise<Run | Result> {
  // The last upload progress tells whether a file's body went out whole.
  let sent = { loaded: 0, total: 0 }
  const sending = {
    signal,
    idempotencyKey,
    onUploadProgress: (p: UploadProgress) => progress((sent = p)),
    onWait,
    presence: queryPresence,
  }
  if (!journal) return client.run(tool, input as never, sending)
  // An unfinished run of the same input and file is the same intent, sent again with its key.
  const parts = splitInput(input)
  const described = JSON.stringify([parts.input, parts.file])
  const earlier = (await journal.list(fingerprint)).find(
    (run) =>
      run.tool === tool &&
      run.scope === scope &&
      !isTerminal(run.phase) &&
      (idempotencyKey ?? run.idempotencyKey) === run.idempotencyKey &&
      JSON.stringify([run.input, run.file]) === described,
  )
  let run = await saveRun(
    journal,
    journaled,
    earlier ?? {
      id: newIdempotencyKey(),
      tool,
      fingerprint,
      scope,
      idempotencyKey: idempotencyKey ?? newIdempotencyKey(),
      ...parts,
      phase: 'submitting',
      createdAt: Date.now(),
    },
    { seen: false },
  )
  // The new intent is the hook's own run, whatever it showed before.
  show((journaled.current = run))
  try {
    const handle = await client.start(tool as DeferredToolId, input as never, { ...sending, idempotencyKey: run.idempotencyKey })
    // An answer already known (a replay of an unfinished job) keeps its journaled phase.
    run = await saveRun(journal, journaled, run, { jobId: handle.jobId, phase: run.jobId ? run.phase : 'pending' })
    show(run)
    return run
  } catch (cause) {
    const error = asToolsError(cause, tool)
    const { kind } = error
    // The service may have taken the call after an abort (of a whole upload) or a network or
    // server error: the run stays, set aside if aborted. A refusal or a cut upload billed nothing.
    if (kind === 'aborted' && sent.loaded >= sent.total) await saveRun(journal, journaled, run, { seen: true })
    else if (kind !== 'network' && kind !== 'server') await journal.drop(run)
    throw error
  }
}

/**
 * A run's answer, then a deferred tool's job followed to its end while `watched`. Reset or
 * aborted while the answer was on its way, the job may exist, but this run is over.
 */
export async function follow<R>(
  answer: Promise<Run | Result>,
  intent: Intent,
  tool: ToolId,
  watched: false | { current: boolean },
  queryClient: QueryClient,
  pollInterval: number,
): Promise<R> {
  try {
    const done = await answer
    if (intent.signal.aborted) throw abortError(tool, intent.signal.reason)
    if (!watched) return done as R
    const { jobId } = done as Run
    // Nobody watches any more: the journal keeps the job for the next mount, unpolled.
    if (!watched.current) throw new ToolsError('aborted', 'Unmounted; the run is journaled.', { tool, jobId })
    const final = await queryClient.fetchQuery(
      jobQueryOptions(intent, queryClient, tool as DeferredToolId, jobId!, pollInterval),
    )
    if (final.phase === 'failed') throw jobFailedError(final, intent.client.interpret)
    return final as R
  } catch (error) {
    throw asToolsError(error, tool)
  }
}
