// The stories of project `storybook-react-18` (vite.config.ts) run on React 18.3: each fails if
// the page's React, or any React DOM renderer on it (Storybook's, the kit's, a pre-bundled
// library's copy), is another version.
import { version } from 'react'
import { afterEach, expect } from 'vitest'

/** Each React DOM renderer loaded on the page, as `react-dom@version`. */
const renderers: string[] = []

// Every react-dom announces itself to React DevTools' hook as it loads: this stand-in for the
// hook, set before any of them loads (this file runs before the stories and Storybook's preview),
// hears each one.
Object.assign(globalThis, {
  __REACT_DEVTOOLS_GLOBAL_HOOK__: {
    supportsFiber: true,
    inject(renderer: { version: string; rendererPackageName?: string }) {
      renderers.push(`${renderer.rendererPackageName ?? 'react-dom'}@${renderer.version}`)
      return renderers.length
    },
  },
})

afterEach(() => {
  expect(version, 'React').toMatch(/^18\.3\./)
  expect(renderers, 'React DOM renderers on the page').toEqual([expect.stringMatching(/^react-dom@18\.3\./)])
})
