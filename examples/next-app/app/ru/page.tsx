import { ToolRunner } from '@cabinet/tools-react'

export default function Page() {
  return (
    <main lang="ru" style={{ maxWidth: 640, margin: '2rem auto', padding: '0 1rem' }}>
      <h1>Оценка аренды</h1>
      <ToolRunner tool="valuation/rent" heading={false} />
    </main>
  )
}
