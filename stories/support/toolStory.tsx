// The tool stories come from the catalogue: one call per tool, each a <ToolRunner> prefilled
// with the simulated service's example input, run end to end by its play function.
import type { StoryObj } from '@storybook/react-vite'
import type { ToolRunnerProps } from '../../src/components/index.js'
import { exampleInput } from '../../src/mock/index.js'
import { en, getTool, type ToolId } from '../../src/react/index.js'
import { runToCompletion } from './play.js'

export type ToolStory = StoryObj<ToolRunnerProps<ToolId>>

/** The example input without its file: the file is chosen in the drop area, as a person would. */
function prefill(tool: ToolId): Record<string, unknown> {
  const fields: Record<string, unknown> = { ...exampleInput(tool) }
  delete fields.file
  return fields
}

/** How a tool is called, in a line: sync or job, JSON or file, its scope. */
function facts(tool: ToolId): string {
  const row = getTool(tool)
  return [
    `\`${row.path}\``,
    row.mode === 'sync' ? 'answers at once' : 'creates a job, polled until it ends',
    row.body === 'multipart' ? 'takes a file' : 'takes JSON',
    row.scope ? `needs the \`${row.scope}\` scope` : 'any key',
    'listing' in row && row.listing ? 'runs on a listing of your own' : undefined,
  ]
    .filter(Boolean)
    .join(' · ')
}

/** The story of one tool: its <ToolRunner>, submitted (with a file dropped in for file tools) until the result shows. */
export function toolStory<T extends ToolId>(tool: T): ToolStory {
  return {
    name: tool,
    args: { tool, input: prefill(tool) },
    parameters: {
      docs: { description: { story: `${en.tools[tool].description} ${facts(tool)}.` } },
    },
    play: async (context) => {
      const example = exampleInput(tool) as { file?: File }
      await runToCompletion(context, tool, example.file)
    },
  }
}
