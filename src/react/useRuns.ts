import { useCallback, useEffect, useState } from 'react'
import type { ToolId } from '../tools/index.js'
import { tagOf } from '../tools/internal.js'
import { useToolsContext } from './context.js'
import type { Run } from './journal.js'

export interface UseRunsOptions {
  /** Only this tool's runs. */
  tool?: ToolId
  /** Only the runs of `useTool(tool, { tag })` with this tag. */
  tag?: string
  /** @deprecated Use `tag`; kept working through 0.x. */
  scope?: string
}

export interface UseRunsResult {
  /** The journaled runs of the key in effect, newest first. */
  runs: Run[]
  /** Forgets a run: it is no longer listed or resumed (a job it made still exists on the service). */
  dismiss(run: Run): void
}

/** The journal's runs for the provider's key, kept current as runs start, answer and end. */
export function useRuns({ tool, tag: given, scope }: UseRunsOptions = {}): UseRunsResult {
  const tag = given ?? scope
  const { journal, fingerprint } = useToolsContext()
  const [runs, setRuns] = useState<Run[]>([])
  useEffect(() => {
    let live = true
    const load = () =>
      void journal.list(fingerprint).then((all) => {
        if (live) setRuns(all.filter((run) => (!tool || run.tool === tool) && (tag === undefined || tagOf(run) === tag)))
      })
    load()
    const stop = journal.subscribe(load)
    return () => {
      live = false
      stop()
    }
  }, [journal, fingerprint, tool, tag])
  const dismiss = useCallback((run: Run) => void journal.drop(run), [journal])
  // Until the new key's runs are read, the old key's are not shown under it.
  return { runs: runs.filter((run) => run.fingerprint === fingerprint), dismiss }
}
