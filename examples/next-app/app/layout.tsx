// A server component: the provider needs no key here, the proxy at /api/tools adds it.
import { ToolsProvider } from '@cabinet/tools-react'
import '@cabinet/tools-react/styles.css'
import type { ReactNode } from 'react'

export const metadata = { title: 'Tools, through the proxy' }

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <ToolsProvider baseUrl="/api/tools">
          {children}
        </ToolsProvider>
      </body>
    </html>
  )
}
