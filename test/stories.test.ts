// The catalogue's tool stories come from the tool catalogue: exactly one per tool, none left over,
// and each one, rendered as Storybook renders it, is run by its own play function to a result.
import userEvent from '@testing-library/user-event'
import { createElement } from 'react'
import { configure, render } from '@testing-library/react'
import { beforeAll, describe, expect, it } from 'vitest'
import { ToolRunner, ToolsProvider } from '../src/components/index.js'
import { MOCK_BASE_URL, MOCK_KEYS } from '../src/mock/index.js'
import { TOOLS, type ToolId } from '../src/tools/index.js'
import * as toolStories from '../stories/tools.stories.js'
import { stubObjectUrls } from './support/objectUrls.js'
import { fakeClock } from './support/clock.js'
import { setupMockService } from './support/service.js'
import { loadUploadForm } from '../src/components/UploadForm.js'

// The upload form's code and the drop's are chunks fetched when a form is first shown: fetch them first, as Storybook's loader does.
beforeAll(() => loadUploadForm())

const { default: meta, ...stories } = toolStories
// The plays' user events run inside this file's own act() steps (the clock below drives them):
// Testing Library's wrapper, which leaves act's environment while it waits, would pull it out
// from under those steps.
configure({ asyncWrapper: (action) => action() })
const { service, server } = setupMockService()
const { drive } = fakeClock(server)
stubObjectUrls()

/** `valuation/rent` → `ValuationRent`: the export name a tool's story has. */
const exportName = (id: string) =>
  id
    .split(/[/-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')

describe('tool stories', () => {
  it('have exactly one story per catalogue tool, under its name', () => {
    expect(meta.component).toBe(ToolRunner)
    const storyTools = Object.values(stories).map((story) => story.args?.tool)
    expect([...storyTools].sort()).toEqual(TOOLS.map((tool) => tool.id).sort())
    for (const tool of TOOLS) {
      expect(stories, `no story export for ${tool.id}`).toHaveProperty(exportName(tool.id))
      expect(stories[exportName(tool.id) as keyof typeof stories].args?.tool).toBe(tool.id)
    }
  })

  it.each(TOOLS.map((tool) => [tool.id, stories[exportName(tool.id) as keyof typeof stories]] as const))(
    '%s: the story shows its tool, and its play runs it to a result, paid once',
    async (tool, story) => {
      // As Storybook renders it: the meta's component with the story's args, inside the provider.
      const { container } = render(
        createElement(
          ToolsProvider,
          { baseUrl: MOCK_BASE_URL, apiKey: MOCK_KEYS.demo, pollInterval: 10 },
          createElement(ToolRunner, { ...story.args, tool: tool as ToolId }),
        ),
      )
      expect(container.querySelector('.ct-tool-runner')).toHaveProperty('dataset.state', 'idle')
      const context = { canvasElement: container, globals: { locale: 'en' }, userEvent: userEvent.setup() }
      await drive(story.play!(context as never) as Promise<void>)
      expect(container.querySelector('.ct-tool-runner')).toHaveProperty('dataset.state', 'succeeded')
      expect(service.log.filter((entry) => entry.kind === 'call' && entry.tool === tool)).toHaveLength(1)
      expect(service.bills()).toBe(1)
    },
    20_000,
  )
})
