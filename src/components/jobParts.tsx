import type { Job, ToolId } from '../react/index.js'
import type { CoreMessages } from '../react/internal.js'

// What `<JobProgress>` shows before its code has come (the job's title, phase and bar) and after.

/** The tool's title and the job's phase, with the service's own status word while it runs. */
export function JobHeader({ tool, job, checking, messages }: { tool: string | undefined; job: Job | undefined; checking: boolean; messages: CoreMessages }) {
  const detail = job?.phase === 'running' && job.status.toLowerCase() !== 'running' ? job.status : undefined
  return (
    <div className="ct-job-progress__header">
      <span className="ct-job-progress__indicator" aria-hidden="true" />
      <p className="ct-job-progress__title">
        <strong>{messages.tools[tool as ToolId]?.title ?? tool}</strong>
      </p>{' '}
      {(job || checking) && (
        <p className="ct-job-progress__phase">
          {job ? messages.phase[job.phase] : messages.job.checking}
          {detail && (
            <>
              {' '}
              <span className="ct-job-progress__status">({detail})</span>
            </>
          )}
        </p>
      )}
    </div>
  )
}

/** The progress bar: a value only when the service reported one, else indeterminate (never "0%"). */
export function JobBar({ percent, text, label }: { percent: number | undefined; text: string | undefined; label: string }) {
  return (
    <progress
      className="ct-progress ct-job-progress__bar"
      data-state={percent === undefined ? 'indeterminate' : 'determinate'}
      aria-label={label}
      max={100}
      value={percent}
      aria-valuenow={percent}
      aria-valuetext={text}
    />
  )
}
