// The same tools in Russian: a locale passed from a server layout.
import { ToolsProvider } from '@cabinet/tools-react'
import { ru } from '@cabinet/tools-react/locales/ru'
import { headers } from 'next/headers'
import type { ReactNode } from 'react'
import { userIdOf } from '../../lib/session'

export default async function RussianLayout({ children }: { children: ReactNode }) {
  return (
    <ToolsProvider baseUrl="/api/tools" messages={ru} user={userIdOf((await headers()).get('cookie'))}>
      {children}
    </ToolsProvider>
  )
}
