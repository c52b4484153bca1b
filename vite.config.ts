// Dev and test config: Vitest reads it, and Storybook merges it into its own Vite config.
// The published library is built by vite.lib.config.ts, not by this file.
import { storybookTest } from '@storybook/addon-vitest/vitest-plugin'
import { playwright } from '@vitest/browser-playwright'
import react from '@vitejs/plugin-react'
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config'

/** The component tests, run on React 19 (project `unit`) and again on React 18.3 (project `react-18`). */
const COMPONENT_TESTS = [
  'test/artifact-viewer.test.tsx',
  'test/components-shape.test.tsx',
  'test/disabled-reasons.test.tsx',
  'test/error-notice.test.tsx',
  'test/job-progress.test.tsx',
  'test/server-notices.test.tsx',
  'test/tool-runner.test.tsx',
  'test/upload-form.test.tsx',
  'test/waiting.test.tsx',
]

/** React 18.3 and its react-dom, nested in test/react-18 so that react-dom 18 loads its own react. */
const REACT_18 = fileURLToPath(new URL('./test/react-18/node_modules/', import.meta.url))
const TESTING_LIBRARY_REACT_ESM = fileURLToPath(
  new URL('./node_modules/@testing-library/react/dist/@testing-library/react.esm.js', import.meta.url),
)

/**
 * The browser provider for browser-mode projects: the system's Chromium (Debian's package, path in
 * CHROMIUM_PATH, which `npm test` sets) instead of a browser downloaded by Playwright, which CI
 * machines cannot fetch. The flags keep it headless and quiet in containers (often run as root,
 * hence --no-sandbox) and stop it from phoning home.
 */
export function chromiumProvider(colorScheme?: 'light' | 'dark') {
  return playwright({
    // The system's colour scheme the page sees (prefers-color-scheme); Chromium's own by default.
    contextOptions: colorScheme ? { colorScheme } : undefined,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || undefined,
      args: [
        '--no-sandbox',
        '--headless',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  })
}

/** React and react-dom (with their subpaths: react-dom/client, react/jsx-runtime…) from React 18.3. */
const REACT_18_ALIAS = { find: /^(react|react-dom)(\/.*)?$/, replacement: `${REACT_18}$1$2` }

/**
 * A story project's whole browser bundle on React 18.3: the stories, the kit, Storybook's React
 * renderer and the libraries that import React (TanStack Query, react-dropzone). The alias
 * reaches the libraries Vite pre-bundles too, and the pre-bundles go to a cache of their own so
 * they never mix with the React 19 projects'. The page asks for one React 18.3 renderer
 * (.storybook/react-18.setup.ts).
 */
function onReact18(name: string): Partial<TestProjectInlineConfiguration> {
  return {
    resolve: { alias: [REACT_18_ALIAS] },
    plugins: [
      {
        name: 'react-18-cache',
        // After Storybook's plugin, which gives every story project one cache.
        enforce: 'post',
        config: () => ({ cacheDir: fileURLToPath(new URL(`./node_modules/.vite/${name}`, import.meta.url)) }),
      },
    ],
  }
}

/**
 * The story files that name none of `tags`: a tagged project leaves them out rather than load
 * each in the browser to find nothing to run. A story file names the tags of its stories itself.
 */
function storiesWithout(tags: string[]): string[] {
  const dir = new URL('./stories/', import.meta.url)
  return readdirSync(dir)
    .filter((file) => file.endsWith('.stories.tsx'))
    .filter((file) => !tags.some((tag) => readFileSync(new URL(file, dir), 'utf8').includes(`'${tag}'`)))
    .map((file) => `stories/${file}`)
}

/** Stories as tests in headless Chromium: those with `tags` (default: every one), the system in `colorScheme`, on `react` 18.3 or 19. */
function storybookProject(
  name: string,
  { tags, colorScheme, react = 19 }: { tags?: string[]; colorScheme?: 'light' | 'dark'; react?: 18 | 19 } = {},
): TestProjectInlineConfiguration {
  const react18 = react === 18 ? onReact18(name) : undefined
  return {
    extends: true,
    ...react18,
    plugins: [storybookTest({ configDir: '.storybook', tags: tags && { include: tags } }), ...(react18?.plugins ?? [])],
    test: {
      name,
      exclude: tags && storiesWithout(tags),
      setupFiles: react18 ? ['.storybook/react-18.setup.ts'] : undefined,
      // A story's play function waits for simulated jobs and downloads: give it room.
      testTimeout: 30_000,
      // After the unit tests, not beside them: on a small CI machine a browser running
      // alongside skews the timing the unit tests of polling and retries rely on.
      sequence: { groupOrder: 1 },
      browser: {
        enabled: true,
        // The provider passes Vitest's own headless flag to Playwright: without it, it asks for a display.
        headless: true,
        provider: chromiumProvider(colorScheme),
        instances: [{ browser: 'chromium' }],
      },
    },
  }
}

const { version } = JSON.parse(readFileSync(new URL('package.json', import.meta.url), 'utf8')) as { version: string }

export default defineConfig({
  plugins: [react()],
  // As the published build writes it (vite.lib.config.ts): the proxy's instrumentation scope's version.
  define: { __TOOLS_REACT_VERSION__: JSON.stringify(version) },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: [...configDefaults.exclude, 'test/network/**'],
          setupFiles: ['test/setup.ts'],
          // Type contracts (`*.test-d.ts`, expectTypeOf and @ts-expect-error) are checked by tsc in the same run.
          typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: 'tsconfig.json' },
        },
      },
      // The same component tests on React 18.3, a supported peer. The libraries that import React
      // are inlined, so the alias reaches them too and one React runs the whole test.
      {
        extends: true,
        test: {
          name: 'react-18',
          environment: 'jsdom',
          include: COMPONENT_TESTS,
          setupFiles: ['test/setup.ts'],
          alias: [
            REACT_18_ALIAS,
            // Its ESM build: the CommonJS one would load react-dom with Node's require, past the alias.
            { find: /^@testing-library\/react$/, replacement: TESTING_LIBRARY_REACT_ESM },
          ],
          server: { deps: { inline: ['@tanstack/react-query', '@testing-library/react', 'react-dropzone'] } },
        },
      },
      // Every story as a test in headless Chromium: rendered, its play function run, then checked
      // with axe (`a11y.test: 'error'` in .storybook/preview fails a story on any violation).
      storybookProject('storybook'),
      // The stories tagged `dark-scheme` again, with the system's dark mode on: a page that asks
      // for no theme must still read well (axe's contrast rule, as in every story).
      storybookProject('storybook-dark-scheme', { tags: ['dark-scheme'], colorScheme: 'dark' }),
      // The stories tagged `react-18` (those of a partner's first day) again on React 18.3, a
      // supported peer: the renderer, the kit and its libraries all on it.
      storybookProject('storybook-react-18', { tags: ['react-18'], react: 18 }),
      // A partner's page (a Vite production build on dist/) in Chromium on emulated slow and
      // failing networks, behind the proxy and the simulated service: every run ends once, billed once.
      {
        extends: true,
        test: {
          name: 'network',
          environment: 'node',
          include: ['test/network/**/*.test.ts'],
          // dist/ built first where it is missing (a fresh clone's `npm test`), and the page on it.
          globalSetup: ['test/network/setup.ts'],
          testTimeout: 90_000,
          hookTimeout: 180_000,
          // A file's cases side by side (each its own site and tab): they mostly wait on the emulated network.
          maxConcurrency: 3,
          // Last, alone: a page timed on an emulated network must not share the machine with the stories.
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
})
