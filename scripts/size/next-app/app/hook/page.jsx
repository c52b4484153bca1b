'use client'
import { ToolsProvider, useValuationReport } from '@cabinet/tools-react'

function Report() {
  const report = useValuationReport()
  return <p>{report.status}</p>
}

export default function Page() {
  return (
    <ToolsProvider baseUrl="/api/tools">
      <Report />
    </ToolsProvider>
  )
}
