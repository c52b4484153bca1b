'use client'
import { ToolRunner, ToolsProvider } from '@cabinet/tools-react'

export default function Page() {
  return (
    <ToolsProvider baseUrl="/api/tools">
      <ToolRunner tool="valuation/rent" />
    </ToolsProvider>
  )
}
