// What play functions share: uploading a file the way a person would, and waiting for a run to
// end the way a person would see it end.
import type { Meta, StoryContext } from '@storybook/react-vite'
import { ToolRunner, type ToolRunnerProps } from '../../src/components/index.js'
import { exampleInput } from '../../src/mock/index.js'
import { expect, waitFor, within } from 'storybook/test'
import { getTool, type ToolId } from '../../src/react/index.js'
import { RUN_TIMEOUT } from './environment.js'
import { storyMessages } from './tools.js'

type PlayContext = Pick<StoryContext, 'canvasElement' | 'globals' | 'userEvent'>

/** The hidden file input a drop area hosts: what the system's file picker fills. */
export function fileInput(canvasElement: HTMLElement): HTMLInputElement {
  const input = canvasElement.querySelector<HTMLInputElement>('input[type="file"]')
  if (!input) throw new Error('No file input in the story.')
  return input
}

/** Chooses `file` in the story's drop area, and checks the person sees it chosen. */
export async function chooseFile({ canvasElement, userEvent }: PlayContext, file: File) {
  await userEvent.upload(fileInput(canvasElement), file)
  await expect(await within(canvasElement).findByText(file.name)).toBeVisible()
}

/**
 * Submits a <ToolRunner> (choosing `file` first for a file tool) and waits until its result is
 * on screen: the Result heading, every file downloaded into its viewer, and Run again.
 */
export async function runToCompletion(context: PlayContext, tool: ToolId, file?: File) {
  const canvas = within(context.canvasElement)
  const m = storyMessages(context)
  if (file) await chooseFile(context, file)
  await context.userEvent.click(canvas.getByRole('button', { name: m.runner.submit }))

  if (getTool(tool).mode === 'deferred') {
    // A job: its progress is on screen until it is done.
    await expect(await canvas.findByRole('progressbar', { name: m.job.progressLabel })).toBeVisible()
  }
  const heading = await canvas.findByRole('heading', { name: m.runner.result }, { timeout: RUN_TIMEOUT })
  await expect(heading).toBeVisible()
  if (getTool(tool).mode === 'deferred') await expect(canvas.getByText(m.phase.succeeded)).toBeVisible()

  // Each result file ends up shown, with its download link (none still loading, none failed).
  const result = within(heading.closest('section') ?? context.canvasElement)
  await waitFor(() => expect(result.queryByText(m.artifact.loading)).toBeNull(), { timeout: RUN_TIMEOUT })
  const viewers = context.canvasElement.querySelectorAll('.ct-artifact-viewer')
  await expect(result.queryAllByRole('link', { name: m.artifact.download })).toHaveLength(viewers.length)
  await expect(canvas.getByRole('button', { name: m.runner.runAgain })).toBeVisible()
}

/** A rent estimate run to its result: the meta shared by the stories that show one run in several looks. */
export const rentEstimateRun = {
  component: ToolRunner,
  args: { tool: 'valuation/rent', input: exampleInput('valuation/rent') },
  argTypes: { tool: { control: false } },
  play: (context: PlayContext) => runToCompletion(context, 'valuation/rent'),
} satisfies Partial<Meta<ToolRunnerProps<ToolId>>>
