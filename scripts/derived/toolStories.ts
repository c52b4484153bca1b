// stories/tools.stories.tsx, made from the catalogue: one story per row, under its hook's name.
import type { Tool } from '../../src/tools/index.js'
import { toolHookName } from '../../src/react/toolHookName.js'

/** `valuation/rent` → `ValuationRent`: the export name a tool's story has. */
export const storyName = (tool: Tool['id']) => toolHookName(tool).slice('use'.length)

export function toolStoriesModule(tools: readonly Tool[]): string {
  return `// Made from the catalogue (src/tools/catalogue.ts) by scripts/derive.mjs, which build, test and
// start run: edit the catalogue, not this file.
import type { Meta } from '@storybook/react-vite'
import { ToolRunner, type ToolRunnerProps } from '../src/components/index.js'
import type { ToolId } from '../src/react/index.js'
import { toolStory } from './support/toolStory.js'

/**
 * Every tool of the catalogue in a \`<ToolRunner>\`, from its fields (or file) to its result, on
 * the simulated service. Each story's play function fills nothing in by hand: the input is the
 * service's example, the file is dropped in, the run goes to its end.
 */
const meta = {
  title: 'Tools',
  component: ToolRunner,
  argTypes: { tool: { control: false } },
} satisfies Meta<ToolRunnerProps<ToolId>>

export default meta

// One export per catalogue row (test/stories.test.ts checks that none is missing or doubled).
${tools.map((tool) => `export const ${storyName(tool.id)} = toolStory('${tool.id}')`).join('\n')}
`
}
