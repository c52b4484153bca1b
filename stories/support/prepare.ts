// Story set-up that needs the story's service running (call from a story's beforeEach, which
// runs after the service is registered): a job to follow, a result file to show.
import type { StoryContext } from '@storybook/react-vite'
import { exampleInput } from '../../src/mock/index.js'
import { createToolsClient, type DeferredToolId, type ToolId } from '../../src/react/index.js'
import { storyTools } from './tools.js'

/** A client on the story's service with the story's key, as the provider has it. */
export function storyClient(context: Pick<StoryContext, 'loaded'>) {
  const { baseUrl, apiKey } = storyTools(context)
  return createToolsClient({ baseUrl, apiKey, pollIntervalMs: 20 })
}

/** Starts a job of `tool` with its example input; its id is `context.loaded.jobId` for the story to render. */
export async function startJob(context: Pick<StoryContext, 'loaded'>, tool: DeferredToolId): Promise<string> {
  const { jobId } = await storyClient(context).start(tool, exampleInput(tool))
  context.loaded.jobId = jobId
  return jobId
}

/** Runs `tool` to its end and keeps its first result file's link in `context.loaded.url`. */
export async function makeArtifact(context: Pick<StoryContext, 'loaded'>, tool: ToolId): Promise<string> {
  const result = await storyClient(context).run(tool, exampleInput(tool))
  const [url] = result.artifacts
  if (!url) throw new Error(`${tool} gave no result file.`)
  context.loaded.url = url
  return url
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
