'use client'
import { useEffect, useRef } from 'react'
import type { ToolId, UseToolResult } from '../react/index.js'
import { whenIdle } from '../react/internal.js'
import { loadArtifactViewer } from './ArtifactViewer.js'
import { JobProgress, loadJobProgress } from './JobProgress.js'
import { loadResultView, ResultView } from './ResultView.js'

/** The viewers' code (each a chunk of its own): the progress, the result, its files. */
export function loadViewers(): Promise<void> {
  return Promise.all([loadJobProgress(), loadResultView(), loadArtifactViewer()]).then(() => undefined)
}

interface RunOutcomeProps {
  state: Pick<UseToolResult<ToolId>, 'phase' | 'job' | 'result' | 'retry' | 'current'>
  /** The result's wrapper: a component's own part, such as `ct-tool-runner__result`. */
  className: string
}

/**
 * What a run produces, under the form that started it: the job's progress (a failed job is told
 * there, with "Try again"), then the result with its files, which takes focus when it arrives so
 * screen readers read it. The viewers' code is fetched on idle, or when a run starts.
 */
export function RunOutcome({ state: { phase, job, result, retry, current }, className }: RunOutcomeProps) {
  const resultRef = useRef<HTMLDivElement>(null)
  const focused = useRef<unknown>(null)
  // The viewers come on idle, and at once when a run starts if idle time has not brought them:
  // a run's progress and result never wait for their code.
  useEffect(() => whenIdle(loadViewers), [])
  useEffect(() => {
    if (phase !== 'idle') void loadViewers().catch(() => undefined)
  }, [phase])
  useEffect(() => {
    if (phase !== 'succeeded' || !result || focused.current === result) return
    focused.current = result
    resultRef.current?.focus()
  }, [phase, result])
  return (
    <>
      {/* Time runs from the run's start as the journal keeps it, so a reload does not restart it. */}
      {job && <JobProgress job={job} showArtifacts={false} onRetry={retry} startedAt={current?.createdAt} />}
      {result && (
        <div ref={resultRef} tabIndex={-1} className={className}>
          <ResultView result={result} />
        </div>
      )}
    </>
  )
}
