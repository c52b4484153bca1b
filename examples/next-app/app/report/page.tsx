import { ToolRunner } from '@cabinet/tools-react'

// A job: the page hears its progress and its end on the proxy's event stream, not by polling.
export default function Page() {
  return (
    <main style={{ maxWidth: 640, margin: '2rem auto', padding: '0 1rem' }}>
      <h1>Valuation report</h1>
      <ToolRunner tool="valuation/report" heading={false} />
    </main>
  )
}
