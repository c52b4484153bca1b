import { useJob } from '../../src/components/index.js'

/** `useJob`: any job by id (here one started before the story), polled until it ends. */
export function JobStatus({ jobId }: { jobId: string }) {
  const job = useJob('valuation/report', jobId)
  if (job.error) return <p role="alert">Could not read the job: {job.error.kind}</p>
  if (!job.data) return <p role="status">Reading job {jobId}…</p>
  return (
    <dl>
      <dt>Job</dt>
      <dd>{job.data.jobId}</dd>
      <dt>Status from the service</dt>
      <dd>{job.data.status}</dd>
      <dt>Phase</dt>
      <dd>{job.data.phase}</dd>
      <dt>Result files</dt>
      <dd>{job.data.artifacts.length}</dd>
    </dl>
  )
}
