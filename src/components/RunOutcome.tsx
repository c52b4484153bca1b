'use client'
import { useEffect, useRef } from 'react'
import type { ToolId, UseToolResult } from '../react/index.js'
import { JobProgress } from './JobProgress.js'
import { ResultView } from './ResultView.js'

interface RunOutcomeProps {
  state: Pick<UseToolResult<ToolId>, 'phase' | 'job' | 'result' | 'retry' | 'current'>
  /** The result's wrapper: a component's own part, such as `ct-tool-runner__result`. */
  className: string
}

/**
 * What a run produces, under the form that started it: the job's progress (a failed job is told
 * there, with "Try again"), then the result with its files, which takes focus when it arrives so
 * screen readers read it.
 */
export function RunOutcome({ state: { phase, job, result, retry, current }, className }: RunOutcomeProps) {
  const resultRef = useRef<HTMLDivElement>(null)
  const focused = useRef<unknown>(null)
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
