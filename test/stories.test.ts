// The catalogue's tool stories come from the tool catalogue: exactly one per tool, none left over.
import { describe, expect, it } from 'vitest'
import { TOOLS } from '../src/tools/index.js'
import * as toolStories from '../stories/tools.stories.js'

const { default: meta, ...stories } = toolStories

/** `valuation/rent` → `ValuationRent`: the export name a tool's story has. */
const exportName = (id: string) =>
  id
    .split(/[/-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')

describe('tool stories', () => {
  it('run every tool in a ToolRunner', () => {
    expect(meta.title).toBe('Tools')
  })

  it('have exactly one story per catalogue tool, under its name', () => {
    const storyTools = Object.values(stories).map((story) => story.args?.tool)
    expect([...storyTools].sort()).toEqual(TOOLS.map((tool) => tool.id).sort())
    for (const tool of TOOLS) {
      expect(stories, `no story export for ${tool.id}`).toHaveProperty(exportName(tool.id))
      expect(stories[exportName(tool.id) as keyof typeof stories].args?.tool).toBe(tool.id)
    }
  })

  it('give every story a play function that runs the tool', () => {
    for (const [name, story] of Object.entries(stories)) expect(story.play, name).toBeTypeOf('function')
  })
})
