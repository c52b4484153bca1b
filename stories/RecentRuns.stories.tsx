import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, within } from 'storybook/test'
import { RecentRuns, useValuationReport } from '../src/components/index.js'
import { exampleInput } from '../src/mock/index.js'
import { RUN_TIMEOUT } from './support/environment.js'
import { storyMessages } from './support/tools.js'

/**
 * `<RecentRuns />`: the runs the journal keeps for the key in effect, newest first. A run is
 * journaled before its POST leaves, so a reload never loses a paid job: it is listed here (and
 * resumed by its `useTool` on the next mount). In an app the journal is the browser's
 * localStorage; here each story keeps its own in memory, as its simulated service is its own.
 * It has no heading of its own: the page titles it and names it with `aria-labelledby`.
 */
const meta = {
  title: 'Components/RecentRuns',
  component: RecentRuns,
  tags: ['autodocs', 'react-18'],
  args: { tag: 'story' },
  render: (args) => (
    <>
      <StartReport />
      <h2 id="story-runs-title">Your reports</h2>
      <RecentRuns aria-labelledby="story-runs-title" {...args} />
    </>
  ),
} satisfies Meta<typeof RecentRuns>

export default meta
type Story = StoryObj<typeof meta>

/** A button that starts a valuation report, journaled under the story's tag. */
function StartReport() {
  const report = useValuationReport({ tag: 'story' })
  return (
    <p>
      <button type="button" className="ct-button" onClick={() => report.run(exampleInput('valuation/report'))}>
        Start a valuation report
      </button>{' '}
      <span role="status">Phase: {report.phase}</span>
    </p>
  )
}

/** A run started, shown with its job followed live, then dismissed. */
export const StartShowDismiss: Story = {
  play: async ({ canvas, userEvent, globals }) => {
    const m = storyMessages({ globals })
    await expect(canvas.getByRole('region', { name: 'Your reports' })).toHaveTextContent(m.runs.empty)
    await userEvent.click(canvas.getByRole('button', { name: 'Start a valuation report' }))
    const list = await canvas.findByRole('list', {}, { timeout: RUN_TIMEOUT })
    await userEvent.click(await within(list).findByRole('button', { name: m.runs.show }, { timeout: RUN_TIMEOUT }))
    await expect(await within(list).findByText(m.phase.succeeded, {}, { timeout: RUN_TIMEOUT })).toBeVisible()
    await userEvent.click(within(list).getByRole('button', { name: m.runs.dismiss }))
    await expect(await canvas.findByText(m.runs.empty)).toBeVisible()
  },
}
