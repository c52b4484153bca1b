'use client'
import { createToolsClient } from '@cabinet/tools-react/client'

// The import kept as a page keeps what it calls.
globalThis.createToolsClient = createToolsClient

export default function Page() {
  return <main>client</main>
}
