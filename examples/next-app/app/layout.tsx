// app/layout.tsx: a server component. The provider carries 'use client' and needs no key: the
// route above adds it. `user` keeps each person's runs theirs across reloads.
import { ToolsProvider } from '@cabinet/tools-react'
import '@cabinet/tools-react/styles.css'
import { headers } from 'next/headers'
import type { ReactNode } from 'react'
import { userIdOf } from '../lib/session'

export const metadata = { title: 'Tools, through the proxy' }

export default async function RootLayout({ children }: { children: ReactNode }) {
  const user = userIdOf((await headers()).get('cookie'))
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
