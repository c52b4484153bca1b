import type { Meta, StoryContext, StoryObj } from '@storybook/react-vite'
import { expect, waitFor, within } from 'storybook/test'
import { ToolRunner, UsageMeter } from '../src/components/index.js'
import { exampleInput } from '../src/mock/index.js'
import { RUN_TIMEOUT } from './support/environment.js'
import { behindProxy, deploymentOf, proxyDeployment, ProxyProvider, proxyPage } from './support/proxy.js'
import { storyMessages } from './support/tools.js'

/** Runs a person may make a day, behind the story's proxy. */
const DAILY_RUNS = 3

/**
 * `<UsageMeter />` beside a tool, behind a proxy with a per-person cap (`limits`): what the
 * person has left goes down as they run the tool, and the cap's notice says when they can run
 * again. The proxy runs in the page, in front of the simulated service.
 */
const meta = {
  title: 'Components/Usage',
  component: UsageMeter,
  ...behindProxy(() => proxyDeployment({ proxy: { limits: { calls: DAILY_RUNS, windowMs: 86_400_000 } } })),
  render: (args, context) => (
    <ProxyProvider {...proxyPage(context)}>
      <UsageMeter {...args} />
      <ToolRunner tool="valuation/rent" input={exampleInput('valuation/rent')} />
    </ProxyProvider>
  ),
} satisfies Meta<typeof UsageMeter>

export default meta
type Story = StoryObj<typeof meta>

/** The story's strings, its canvas, and the meter once it shows the whole day's runs. */
async function page(context: StoryContext) {
  const m = storyMessages(context)
  const canvas = within(context.canvasElement)
  const meter = await canvas.findByRole('meter', { name: m.usage.label })
  await expect(meter).toHaveAttribute('aria-valuenow', String(DAILY_RUNS))
  return { m, canvas, meter }
}

/** Each run counts against the person's cap: the meter goes down by one. */
export const GoesDown: Story = {
  name: 'Goes down as the person runs a tool',
  play: async (context) => {
    const { m, canvas, meter } = await page(context)
    await context.userEvent.click(canvas.getByRole('button', { name: m.runner.submit }))
    await expect(await canvas.findByRole('button', { name: m.runner.runAgain }, { timeout: RUN_TIMEOUT })).toBeVisible()
    await waitFor(() => expect(meter).toHaveAttribute('aria-valuenow', String(DAILY_RUNS - 1)), { timeout: RUN_TIMEOUT })
    await expect(canvas.getByText(m.usage.left(String(DAILY_RUNS - 1), String(DAILY_RUNS)))).toBeVisible()
  },
}

/** Past the cap, the proxy refuses the run (nothing reaches the service) and the notice says when runs come back. */
export const AtTheLimit: Story = {
  name: 'At the limit',
  play: async (context) => {
    const { m, canvas, meter } = await page(context)
    /** Runs the tool once from the form, and comes back to it. */
    const runOnce = async () => {
      await context.userEvent.click(canvas.getByRole('button', { name: m.runner.submit }))
      await context.userEvent.click(await canvas.findByRole('button', { name: m.runner.runAgain }, { timeout: RUN_TIMEOUT }))
    }
    for (let left = DAILY_RUNS; left > 0; left--) {
      await runOnce()
      await waitFor(() => expect(meter).toHaveAttribute('aria-valuenow', String(left - 1)), { timeout: RUN_TIMEOUT })
    }
    await context.userEvent.click(canvas.getByRole('button', { name: m.runner.submit }))
    const alert = await canvas.findByRole('alert', {}, { timeout: RUN_TIMEOUT })
    await expect(alert).toHaveTextContent(m.proxy.userLimit.title)
    // The time the runs come back, in place of the general "try again later".
    await expect(alert).not.toHaveTextContent(m.proxy.userLimit.action)
    await expect(meter).toHaveAttribute('aria-valuenow', '0')
    const { service } = deploymentOf(context)
    await expect(service.log.filter((entry) => entry.kind === 'call')).toHaveLength(DAILY_RUNS)
  },
}
