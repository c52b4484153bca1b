// A new tool is one row: the catalogue's row (with its title and description) and its simulated
// result, added here as a contributor would add them, give it everything else: its hook and
// types, its form and story, its names in every locale, its docs entry, and a run on the service.
import userEvent from '@testing-library/user-event'
import { configure, render } from '@testing-library/react'
import { createElement } from 'react'
import { join } from 'node:path'
import ts from 'typescript'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { derivedFiles } from '../scripts/derived/index.js'
import { ToolRunner, ToolsProvider } from '../src/components/index.js'
import { loadUploadForm } from '../src/components/UploadForm.js'
import { MOCK_BASE_URL, MOCK_KEYS } from '../src/mock/index.js'
import { en, type ToolId } from '../src/react/index.js'
import { ru } from '../src/react/locales/ru.js'
import { getTool, inputFields, TOOLS } from '../src/tools/index.js'
import { toolStory } from '../stories/support/toolStory.js'
import { fakeClock } from './support/clock.js'
import { partnerProgram, problemsIn, root } from './support/program.js'
import { setupMockService } from './support/service.js'

/** The row a contributor adds, as it reads in src/tools/catalogue.ts. */
const ROW = "{ id: 'land/check', mode: 'deferred', body: 'json', scope: 'tools:land', fields: { city: 'text' } },"
const TEXT = "'land/check': { title: 'Land check', description: 'What may be built on a plot.' },"
/** Its simulated result, as it reads in src/mock/results.ts. */
const RESULT = "'land/check': ({ input }) => ({ zoning: 'residential', city: input.city }),"

vi.mock('../src/tools/catalogue.js', async (importOriginal) => {
  const catalogue = await importOriginal<typeof import('../src/tools/catalogue.js')>()
  const { lazyInput } = await import('../src/tools/lazyInput.js')
  const row = { id: 'land/check', mode: 'deferred', body: 'json', scope: 'tools:land', fields: { city: 'text' } } as const
  return {
    ...catalogue,
    TOOLS: [...catalogue.TOOLS, { ...row, path: '/land/check', input: lazyInput(row) }],
    TOOL_TEXTS: { ...catalogue.TOOL_TEXTS, 'land/check': { title: 'Land check', description: 'What may be built on a plot.' } },
  }
})
vi.mock('../src/mock/results.js', async (importOriginal) => {
  const results = await importOriginal<typeof import('../src/mock/results.js')>()
  return { ...results, TOOL_RESULTS: { ...results.TOOL_RESULTS, 'land/check': ({ input }: { input: Record<string, unknown> }) => ({ zoning: 'residential', city: input.city }) } }
})

const tool = 'land/check' as ToolId
beforeAll(() => loadUploadForm())
configure({ asyncWrapper: (action) => action() })
const { service, server } = setupMockService()
const { drive } = fakeClock(server)
/** Made before the clock is faked: the simulated service ends each job at once. */
let files: Record<string, string>
beforeAll(async () => {
  files = await derivedFiles()
})

/** `source` with `line` put in before the first `before` after `after`. */
function insert(source: string, after: string, before: string, line: string): string {
  const at = source.indexOf(before, source.indexOf(after))
  expect(at, `no ${JSON.stringify(before)} after ${JSON.stringify(after)}`).toBeGreaterThan(0)
  return `${source.slice(0, at)}${line}\n${source.slice(at)}`
}

describe('a tool added as one row', () => {
  it('is in the catalogue, with its form fields', () => {
    expect(TOOLS.map((row) => row.id)).toContain('land/check')
    expect(inputFields(tool)).toEqual([{ name: 'city', type: 'text', required: true }])
    expect(getTool('land/check')?.scope).toBe('tools:land')
  })

  it('has its default title and description in every locale: its own, or the catalogue’s', () => {
    expect(en.tools[tool]).toEqual({ title: 'Land check', description: 'What may be built on a plot.' })
    expect(ru.tools[tool]).toEqual(en.tools[tool])
    expect(ru.tools['valuation/rent'].title).toBe('Оценка аренды')
  })

  it('has its hook, its story and its entry in the docs, with what the service answers', () => {
    expect(files['src/react/toolHooks.ts']).toContain("export function useLandCheck(options?: UseToolOptions) {\n  return useTool('land/check', options)\n}")
    expect(files['stories/tools.stories.tsx']).toContain("export const LandCheck = toolStory('land/check')")
    expect(files['docs/tools.md']).toContain('| [`land/check`](#landcheck) | `useLandCheck` | Land check | a job: `Job` | JSON | `tools:land` | `city` |')
    expect(files['docs/tools.md']).toMatch(/### land\/check[\s\S]*"result": \{\n {4}"zoning": "residential",\n {4}"city": "Berlin"/)
  })

  it('type-checks: its hook is exported with its own types, the locales still compile', () => {
    const read = (path: string) => ts.sys.readFile(join(root, path))!
    const probe = join(root, 'test/.new-tool-probe.ts')
    const virtual = new Map([
      [join(root, 'src/tools/catalogue.ts'), insert(insert(read('src/tools/catalogue.ts'), 'const ROWS = [', '] as const satisfies', `  ${ROW}`), 'export const TOOL_TEXTS', '\n}', `  ${TEXT}`)],
      [join(root, 'src/mock/results.ts'), insert(read('src/mock/results.ts'), 'export const TOOL_RESULTS', '\n}\n', `  ${RESULT}`)],
      [join(root, 'src/react/toolHooks.ts'), files['src/react/toolHooks.ts']!],
      [join(root, 'stories/tools.stories.tsx'), files['stories/tools.stories.tsx']!],
      [
        probe,
        `import { useLandCheck, type ToolId, type ToolInput, type UseToolResult } from '@cabinet/tools-react'
export const check: UseToolResult<'land/check'> = useLandCheck()
export const input: ToolInput<'land/check'> = { city: 'Kazan' }
// @ts-expect-error its checked field is text
export const wrong: ToolInput<'land/check'> = { city: 5 }
export const id: ToolId = 'land/check'
`,
      ],
    ])
    const stories = join(root, 'stories/tools.stories.tsx')
    const program = partnerProgram([probe, stories, join(root, 'stories/support/vite-env.d.ts')], virtual)
    // The files a new row touches or makes, and what reads it by id (the locales, the examples).
    const checked = [probe, stories, ...virtual.keys(), ...['src/react/coreMessages.ts', 'src/react/locales/ru.ts', 'src/mock/examples.ts'].map((path) => join(root, path))]
    expect([...new Set(checked)].map((file) => problemsIn(program, file)).filter(Boolean)).toEqual([])
  }, 120_000)

  it('renders its runner from its story and runs to a result on the simulated service, paid once', async () => {
    const story = toolStory(tool)
    const { container } = render(
      createElement(
        ToolsProvider,
        { baseUrl: MOCK_BASE_URL, apiKey: MOCK_KEYS.demo, pollInterval: 10 },
        createElement(ToolRunner, { ...story.args, tool }),
      ),
    )
    expect(container.querySelector('h2, h3')?.textContent).toContain('Land check')
    const context = { canvasElement: container, globals: { locale: 'en' }, userEvent: userEvent.setup() }
    await drive(story.play!(context as never) as Promise<void>)
    expect(container.querySelector('.ct-tool-runner')).toHaveProperty('dataset.state', 'succeeded')
    expect(container.textContent).toContain('residential')
    expect(service.log.filter((entry) => entry.kind === 'call' && entry.tool === tool)).toHaveLength(1)
    expect(service.bills()).toBe(1)
  }, 20_000)
})
