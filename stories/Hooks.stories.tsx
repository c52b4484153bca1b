import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, within } from 'storybook/test'
import { ArtifactPreview } from './hooks/ArtifactPreview.js'
import { Brochure } from './hooks/Brochure.js'
import { JobStatus } from './hooks/JobStatus.js'
import { RentEstimate } from './hooks/RentEstimate.js'
import { TextWriter } from './hooks/TextWriter.js'
import { RUN_TIMEOUT } from './support/environment.js'
import { makeArtifact, startJob } from './support/prepare.js'
import { storyMessages } from './support/tools.js'

/**
 * The hooks, each in a small component of the kind a partner writes: no drop-in component
 * beyond what the example says. Their source is in `stories/hooks/`.
 */
const meta = {
  title: 'Hooks',
} satisfies Meta

export default meta
type Story = StoryObj<typeof meta>

/** `useValuationRent()`: a synchronous tool, answered at once. */
export const UseValuationRent: Story = {
  name: 'useValuationRent',
  render: () => <RentEstimate />,
  play: async ({ canvas, userEvent }) => {
    await userEvent.clear(canvas.getByLabelText('City'))
    await userEvent.type(canvas.getByLabelText('City'), 'Hamburg')
    await userEvent.click(canvas.getByRole('button', { name: 'Estimate the rent' }))
    await expect(await canvas.findByText(/a month\./, {}, { timeout: RUN_TIMEOUT })).toBeVisible()
  },
}

/** `usePdfCreate()` + `<JobProgress job>`: a deferred tool, its job followed to the file. */
export const UsePdfCreate: Story = {
  name: 'usePdfCreate',
  render: () => <Brochure />,
  play: async ({ canvas, userEvent, globals }) => {
    const m = storyMessages({ globals })
    await userEvent.click(canvas.getByRole('button', { name: /Make a PDF brochure/ }))
    await expect(await canvas.findByText(m.phase.succeeded, {}, { timeout: RUN_TIMEOUT })).toBeVisible()
    const files = await canvas.findByRole('list', { name: m.runner.artifacts })
    await expect(await within(files).findByRole('link', { name: m.artifact.download }, { timeout: RUN_TIMEOUT })).toBeVisible()
  },
}

/** `useTool('text/generate')`: the generic hook. */
export const UseTool: Story = {
  name: 'useTool',
  render: () => <TextWriter />,
  play: async ({ canvas, userEvent }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Write' }))
    await expect(await canvas.findByText('Phase: succeeded', {}, { timeout: RUN_TIMEOUT })).toBeVisible()
    await expect(canvas.getByText(/Quiet streets/)).toBeVisible()
  },
}

/** `useJob(tool, jobId)`: a job started elsewhere (here, before the story), polled to its end. */
export const UseJob: Story = {
  name: 'useJob',
  beforeEach: async (context) => void (await startJob(context, 'valuation/report')),
  render: (_, { loaded }) => <JobStatus jobId={loaded.jobId as string} />,
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('succeeded', {}, { timeout: RUN_TIMEOUT })).toBeVisible()
    await expect(canvas.getByText('completed')).toBeVisible()
  },
}

/** `useArtifact(url)`: a result file (photo/enhance's) as an object URL. */
export const UseArtifact: Story = {
  name: 'useArtifact',
  beforeEach: async (context) => void (await makeArtifact(context, 'photo/enhance')),
  render: (_, { loaded }) => <ArtifactPreview url={loaded.url as string} />,
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('img', { name: 'The enhanced photo' }, { timeout: RUN_TIMEOUT })).toBeVisible()
    await expect(canvas.getByText(/image\/png/)).toBeVisible()
  },
}
