// A partner's page as the network suite builds it (Vite production build on the built dist/):
// React 19, TanStack Query, one <ToolRunner> behind the proxy at /api/tools. `?tool=` picks the
// tool, `?user=` gives the provider a user (runs kept across reloads).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createRoot } from 'react-dom/client'
import { ToolRunner, ToolsProvider } from '@cabinet/tools-react'

const params = new URLSearchParams(location.search)
const tool = (params.get('tool') ?? 'valuation/rent') as 'pdf/create'
const input = tool === 'pdf/create' ? { objectId: 'obj_demo' } : undefined

createRoot(document.getElementById('root')!).render(
  <QueryClientProvider client={new QueryClient()}>
    <ToolsProvider baseUrl="/api/tools" user={params.get('user') ?? undefined}>
      <ToolRunner tool={tool} input={input} />
    </ToolsProvider>
  </QueryClientProvider>,
)
