import { ErrorNotice, JobProgress, usePdfCreate } from '../../src/components/index.js'
import { MOCK_LISTINGS } from '../../src/mock/index.js'

/** `usePdfCreate` for a listing, with `<JobProgress>` following the job the hook started. */
export function Brochure({ objectId = MOCK_LISTINGS.demoObject }: { objectId?: string }) {
  const pdf = usePdfCreate()
  const busy = pdf.phase === 'submitting' || pdf.phase === 'pending' || pdf.phase === 'running'
  return (
    <div>
      <p>
        <button className="ct-button" type="button" disabled={busy} onClick={() => pdf.run({ objectId, language: 'en' })}>
          Make a PDF brochure of {objectId}
        </button>
      </p>
      {pdf.job && <JobProgress job={pdf.job} onRetry={pdf.retry} />}
      {pdf.error && !pdf.job && <ErrorNotice error={pdf.error} onRetry={pdf.retry} />}
    </div>
  )
}
