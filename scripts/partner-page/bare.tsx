// The same page without the kit: what React and TanStack Query cost alone.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createRoot } from 'react-dom/client'

createRoot(document.getElementById('root')!).render(
  <QueryClientProvider client={new QueryClient()}>
    <p>No tools</p>
  </QueryClientProvider>,
)
