'use client'
import { useEffect, useRef } from 'react'
import type { ToolId, UseToolResult } from '../react/index.js'
import { JobProgress } from './JobProgress.js'
import { ResultView } from './ResultView.js'

interface RunOutcomeProps {
  state: Pick<UseToolResult<ToolId>, 'phase' | 'job' | 'result' | 'retry'>
  /** The result's wrapper: a component's own part, such as `ct-tool-runner__result`. */
  className: string
}

/**
 * What a run produces, under the form that started it: the job's progress (a failed job is told
 * there, with "Try again"), then the result with its files, which takes focus when it arrives so
 * screen readers read it.
 */
export function RunOutcome({ state: { phase, job, result, retry }, className }: RunOutcomeProps) {
  const resultRef = useRef<HTMLDivElement>(null)
  const focused = useRef<unknown>(null)
  useEffect(() => {
    if (phase !== 'succeeded' || !result || focused.current === result) return
    focused.current = result
    resultRef.current?.focus()
  }, [phase, result])
  return (
    <>
      {job && <JobProgress job={job} showArtifacts={false} onRetry={retry} />}
      {result && (
        <div ref={resultRef} tabIndex={-1} className={className}>
          <ResultView result={result} />
        </div>
      )}
    </>
  )
}
