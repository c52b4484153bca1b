import { useEffect, type RefObject } from 'react'
import { isTerminal, type ToolId } from '../tools/index.js'
import { belongsTo } from './fingerprint.js'
import type { Journal, Run } from './journal.js'
import type { RunOptions } from './toolTypes.js'

/**
 * While mounted, resumes the newest run of this tool (and scope) in `journal` (false for a sync
 * tool) that nobody has seen the end of. Never in place of a run already shown: this key's, or
 * another key's still unfinished, of the same person. Any other has left the view: it is let go.
 */
export function useResume(
  inflightRef: RefObject<unknown>,
  mountedRef: RefObject<boolean>,
  fingerprint: string,
  user: string | undefined,
  run: (input: never, opts: RunOptions) => void,
  tool: ToolId,
  journal: Journal | false,
  journaledRef: RefObject<Run | undefined>,
  scope: string | undefined,
  show: (run: Run | undefined) => void,
) {
  useEffect(() => {
    if (!journal) return
    mountedRef.current = true
    let live = true
    void journal.list(fingerprint).then((runs) => {
      const found = runs.find((run) => run.tool === tool && run.scope === scope && !run.seen)
      const shown = journaledRef.current
      const kept =
        shown && belongsTo(shown.fingerprint, user) && (shown.fingerprint === fingerprint || !isTerminal(shown.phase))
      // A list read for an earlier key or mount is stale; a run in flight is what is shown.
      if (!live || inflightRef.current || kept) return
      show((journaledRef.current = found))
      // A JSON run whose answer was never seen is sent again with its own key (the journal finds
      // it by that key): a replay, not a new bill.
      if (found && !found.jobId && !found.file) run(found.input as never, { idempotencyKey: found.idempotencyKey })
    })
    return () => {
      live = false
      mountedRef.current = false
    }
  }, [inflightRef, mountedRef, fingerprint, user, run, tool, journal, journaledRef, scope, show])
}
