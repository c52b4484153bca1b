// A server component: the provider needs no key here, the proxy at /api/tools adds it.
import { ToolsProvider } from '@cabinet/tools-react'
import '@cabinet/tools-react/styles.css'
import type { ReactNode } from 'react'
import { signedInUserId } from '../lib/session'

export const metadata = { title: 'Tools, through the proxy' }

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Who is signed in: their runs are kept for them across reloads, apart from the next person's.
  const user = await signedInUserId()
  return (
    <html lang="en">
      <body>
        <ToolsProvider baseUrl="/api/tools" user={user}>
          {children}
        </ToolsProvider>
      </body>
    </html>
  )
}
