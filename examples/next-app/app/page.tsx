// app/page.tsx: a quick tool, answered at once.
import { ToolRunner } from '@cabinet/tools-react'

export default function Page() {
  return (
    <main style={{ maxWidth: 640, margin: '2rem auto', padding: '0 1rem' }}>
      <h1>Rent estimate</h1>
      {/* The page titles the tool: the runner shows no title of its own. */}
      <ToolRunner tool="valuation/rent" heading={false} />
    </main>
  )
}
