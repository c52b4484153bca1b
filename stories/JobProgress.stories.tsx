import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, waitFor, within } from 'storybook/test'
import { JobProgress, type JobProgressProps } from '../src/components/index.js'
import type { MockJobOutcome } from '../src/mock/index.js'
import { CHUNK_TIMEOUT, TEST_RUN } from './support/environment.js'
import { sleep, startJob } from './support/prepare.js'
import { storyMessages } from './support/tools.js'

/**
 * `<JobProgress tool jobId />`: a deferred job followed by id, from queued to its end, with its
 * files once it has succeeded. Each story starts a real job on its simulated service.
 */
const meta = {
  title: 'Components/JobProgress',
  component: JobProgress,
  tags: ['autodocs'],
  args: { tool: 'valuation/report', jobId: 'started by the story' },
  argTypes: { tool: { control: false }, jobId: { control: false } },
  parameters: { tools: { simulatedOnly: true } },
  // The job the story's beforeEach started.
  render: (args, { loaded }) => <JobProgress {...args} jobId={loaded.jobId as string} />,
} satisfies Meta<PolledJobProps>

/** `<JobProgress>` following a job by id (the other form, `job`, shows a job read elsewhere). */
type PolledJobProps = Extract<JobProgressProps, { jobId: string }>

export default meta
type Story = StoryObj<typeof meta>

/** Queued: the service has the job but has not started it (its clock is stopped here). */
export const Pending: Story = {
  beforeEach: async (context) => {
    context.loaded.tools.service.freezeJobs()
    await startJob(context, 'valuation/report')
  },
  play: async ({ canvas, globals }) => {
    const m = storyMessages({ globals })
    await waitFor(() => expect(canvas.getByText(m.phase.pending)).toBeVisible(), { timeout: 3000 })
    await expect(canvas.getByRole('progressbar', { name: m.job.progressLabel })).toBeVisible()
  },
}

// Long enough to stop the clock safely between a third of the way (pending ends) and the end.
const RUNNING_DURATION = 1500

/**
 * Running, under a status the spec does not name (here `rendering`): any status that is not
 * pending or terminal means running, and the service's own word is shown beside it.
 */
export const IntermediateStatus: Story = {
  parameters: {
    tools: { simulatedOnly: true, service: { jobDurationMs: RUNNING_DURATION, intermediateStatus: 'rendering', latencyMs: 0 } },
  },
  beforeEach: async (context) => {
    await startJob(context, 'valuation/report')
    await sleep(RUNNING_DURATION / 2)
    context.loaded.tools.service.freezeJobs()
  },
  play: async ({ canvas, globals }) => {
    const m = storyMessages({ globals })
    await waitFor(() => expect(canvas.getByText(m.phase.running)).toBeVisible(), { timeout: 3000 })
    await expect(canvas.getByText('(rendering)')).toBeVisible()
    await expect(canvas.getByText(/complete/)).toBeVisible()
  },
}

/** A job that ends in `outcome`: any of the three success words reads as done, with its file. */
function endsIn(outcome: Exclude<MockJobOutcome, 'failed'>): Story {
  return {
    name: `Ends “${outcome}”`,
    parameters: { tools: { simulatedOnly: true, service: { outcome, jobDurationMs: TEST_RUN ? 200 : 1500 } } },
    beforeEach: async (context) => void (await startJob(context, 'valuation/report')),
    play: async ({ canvas, globals }) => {
      const m = storyMessages({ globals })
      await expect(await canvas.findByText(m.phase.succeeded, {}, { timeout: 10_000 })).toBeVisible()
      const files = await canvas.findByRole('list', { name: m.runner.artifacts })
      await expect(await within(files).findByRole('link', { name: m.artifact.download }, { timeout: 10_000 })).toBeVisible()
    },
  }
}

export const Completed = endsIn('completed')
export const Done = endsIn('done')
export const Success = endsIn('success')

/** The job failed on the service: said so, with the service's own reason. */
export const Failed: Story = {
  parameters: { tools: { simulatedOnly: true, service: { outcome: 'failed', jobDurationMs: TEST_RUN ? 200 : 1500 } } },
  beforeEach: async (context) => void (await startJob(context, 'valuation/report')),
  play: async ({ canvas, globals }) => {
    const m = storyMessages({ globals })
    const alert = await canvas.findByRole('alert', {}, { timeout: 10_000 })
    await expect(within(alert).getByText(m.errors['job-failed'].title)).toBeVisible()
    await expect(within(alert).getByText(/failed \(simulated\)/)).toBeVisible()
    await expect(canvas.getByText(m.phase.failed)).toBeVisible()
  },
}

/** An id the key cannot see (never created, or another key's job): explained, not spun forever. */
export const NotFound: Story = {
  beforeEach: (context) => {
    context.loaded.jobId = 'job_not_this_keys'
  },
  play: async ({ canvas, globals }) => {
    const m = storyMessages({ globals })
    await expect(await canvas.findByText(m.job.notFound, {}, { timeout: CHUNK_TIMEOUT })).toBeVisible()
  },
}
