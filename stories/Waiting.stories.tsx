import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, waitFor, within } from 'storybook/test'
import { ToolRunner, type ToolRunnerProps } from '../src/components/index.js'
import { exampleInput } from '../src/mock/index.js'
import type { ToolId } from '../src/react/index.js'
import { storyMessages } from './support/tools.js'

/**
 * Runs that wait on their own and then go on: the simulated service answers 429 with a short
 * Retry-After, or fails a few reads; the form says so at once, with a countdown or the attempt,
 * and the result follows without a click.
 */
const meta = {
  title: 'Errors/Waiting runs',
  tags: ['react-18'],
  component: ToolRunner,
  args: { tool: 'valuation/express', input: exampleInput('valuation/express') },
  argTypes: { tool: { control: false } },
  parameters: { tools: { simulatedOnly: true } },
} satisfies Meta<ToolRunnerProps<ToolId>>

export default meta
type Story = StoryObj<typeof meta>

/** The wait notice, once it shows a wait for `reason`. */
function shownWait(root: HTMLElement, reason: string): HTMLElement {
  const notice = root.querySelector<HTMLElement>(`.ct-wait-notice[data-reason="${reason}"]`)
  if (!notice) throw new Error(`No ${reason} wait shown`)
  return notice
}

/** Every countdown `root`'s wait notice shows from now on, in order, each once. */
function countdownsShown(root: HTMLElement): string[] {
  const shown: string[] = []
  const notice = root.querySelector('.ct-wait-notice')!
  new MutationObserver(() => {
    const time = notice.querySelector('.ct-wait-notice__time')?.textContent?.match(/\d+:\d\d/)?.[0]
    if (time && time !== shown.at(-1)) shown.push(time)
  }).observe(notice, { childList: true, characterData: true, subtree: true })
  return shown
}

/**
 * 429 with Retry-After 5: a live countdown from 0:05 (never more, however long the page was
 * open before the press), then the result (5 s: a busy machine still sees it count).
 */
export const RateLimitWait: Story = {
  name: '429 with a short wait',
  beforeEach: (context) => {
    context.loaded.tools.service.inject({ match: { kind: 'call' }, fault: 'rate-limit', retryAfterMs: 5000 })
  },
  play: async (context) => {
    const m = storyMessages(context)
    const canvas = within(context.canvasElement)
    const shown = countdownsShown(context.canvasElement)
    await context.userEvent.click(canvas.getByRole('button', { name: m.runner.submit }))
    // How soon the notice shows is judged from the 429, by the countdown's first reading below: the
    // time from the click also holds the input checks' chunk, which a busy machine may serve late.
    const notice = await waitFor(() => shownWait(context.canvasElement, 'rate-limit'), { timeout: 4000 })
    await expect(notice).toHaveTextContent(m.waiting['rate-limit'])
    await expect(await canvas.findByRole('button', { name: m.runner.runAgain }, { timeout: 15_000 })).toBeVisible()
    await expect(notice).not.toHaveAttribute('data-reason')
    // From its Retry-After down, never above it (0:04 first only when the page drew half a second late).
    const seconds = shown.map((time) => Number(time.replace(':', '')))
    await expect(seconds[0]).toBeGreaterThanOrEqual(4)
    await expect(Math.max(...seconds)).toBeLessThanOrEqual(5)
    await expect(seconds).toEqual([...new Set(seconds)].sort((a, b) => b - a))
    await expect(seconds.length).toBeGreaterThan(1)
  },
}

/** Two reads of the job fail with 500: "trying again", with the attempt, then the result. */
export const RetryingWait: Story = {
  name: '500 on reads, retried',
  args: { tool: 'text/generate', input: exampleInput('text/generate') },
  beforeEach: (context) => {
    context.loaded.tools.service.inject({ match: { kind: 'poll' }, fault: 'server-error', times: 2 })
  },
  play: async (context) => {
    const m = storyMessages(context)
    const canvas = within(context.canvasElement)
    await context.userEvent.click(canvas.getByRole('button', { name: m.runner.submit }))
    const notice = await waitFor(() => shownWait(context.canvasElement, 'retrying'), { timeout: 1000 })
    await expect(notice).toHaveTextContent(m.waiting.retrying)
    await expect(await canvas.findByRole('button', { name: m.runner.runAgain }, { timeout: 20_000 })).toBeVisible()
  },
}
