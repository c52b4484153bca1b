'use client'
import * as kit from '@cabinet/tools-react'

// Every export kept, as `export *` keeps them.
globalThis.cabinetTools = kit

export default function Page() {
  return <main>all</main>
}
