import type { CallOptions, Job, JobHandle, Result } from '../definition.js'
import type { Interpretation } from '../interpret.js'
import type { Journal, Run } from './journal.js'

/** What the run core needs of a client: its calls, untyped (the catalogue's types sit above). */
export interface RunClient {
  readonly interpret: Interpretation
  run(tool: string, input: unknown, opts?: CallOptions): Promise<Result | Job>
  start(tool: string, input: unknown, opts?: CallOptions): Promise<JobHandle>
  wait(tool: string, jobId: string, opts?: CallOptions): Promise<Job>
}

/** The run an observer shows, as last journaled: what writes made outside a render start from. */
export interface Journaled {
  current: Run | undefined
}

/** Journals a change to a run; if it is the holder's own run, the holder keeps the new version. */
export function saveRun(journal: Journal, holder: Journaled, run: Omit<Run, 'updatedAt'>, change: Partial<Run>) {
  const next = { ...run, ...change, updatedAt: Date.now() }
  if (holder.current?.id === run.id) holder.current = next
  return journal.put(next).then(() => next)
}

/** The JSON part of an input and its file, described (the bytes are never journaled). */
export function splitInput(input: unknown): Pick<Run, 'input' | 'file'> {
  const { file, ...rest } = (input ?? {}) as Record<string, unknown>
  const json = JSON.parse(JSON.stringify(file instanceof Blob ? rest : (input ?? {}))) as Record<string, unknown>
  if (!(file instanceof Blob)) return { input: json }
  return { input: json, file: { name: (file as File).name ?? '', type: file.type, size: file.size } }
}

/** A run's widget tag, as journaled now (`tag`) or by 0.1 (`scope`). */
export const tagOf = (run: Pick<Run, 'tag' | 'scope'>) => run.tag ?? run.scope

/** The newest run of `tool` and `tag` nobody has seen the end of: what a mount resumes. */
export const resumable = (runs: Run[], tool: string, tag: string | undefined) =>
  runs.find((run) => run.tool === tool && tagOf(run) === tag && !run.seen)
