// A partner's page as the bench builds it: React 19, TanStack Query, one <ToolRunner>.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createRoot } from 'react-dom/client'
import { ToolRunner, ToolsProvider } from '@cabinet/tools-react'

const queryClient = new QueryClient()
const tool = (new URLSearchParams(location.search).get('tool') ?? 'valuation/rent') as 'valuation/rent'

createRoot(document.getElementById('root')!).render(
  <QueryClientProvider client={queryClient}>
    <ToolsProvider baseUrl={`${location.origin}/v1`}>
      <ToolRunner tool={tool} />
    </ToolsProvider>
  </QueryClientProvider>,
)
