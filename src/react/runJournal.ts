import type { Journal, Run } from './journal.js'

/** The run a hook shows, as last journaled: what writes made outside render start from. */
export interface Journaled {
  current: Run | undefined
}

/** Journals a change to a run; if it is the hook's own run, the hook keeps the new version. */
export function saveRun(journal: Journal, journaled: Journaled, run: Omit<Run, 'updatedAt'>, change: Partial<Run>) {
  const next = { ...run, ...change, updatedAt: Date.now() }
  if (journaled.current?.id === run.id) journaled.current = next
  return journal.put(next).then(() => next)
}

/** The JSON part of an input and its file, described (the bytes are never journaled). */
export function splitInput(input: unknown): Pick<Run, 'input' | 'file'> {
  const { file, ...rest } = (input ?? {}) as Record<string, unknown>
  const json = JSON.parse(JSON.stringify(file instanceof Blob ? rest : (input ?? {}))) as Record<string, unknown>
  if (!(file instanceof Blob)) return { input: json }
  return { input: json, file: { name: (file as File).name ?? '', type: file.type, size: file.size } }
}
