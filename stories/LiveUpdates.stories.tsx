import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, within } from 'storybook/test'
import { ToolRunner } from '../src/components/index.js'
import { exampleInput } from '../src/mock/index.js'
import { JOB_DURATION, RUN_TIMEOUT } from './support/environment.js'
import { behindProxy, deploymentOf, proxyDeployment, ProxyProvider, proxyPage, type ProxyDeployment } from './support/proxy.js'
import { storyMessages } from './support/tools.js'

/** The signing secret the simulated service and the proxy share. */
const WEBHOOK_SECRET = `whsec_${btoa('a storybook webhook signing key!')}`

interface LiveDeployment extends ProxyDeployment {
  /** What the page asked the proxy: its job reads and its event streams. */
  asked: { reads: number; streams: number }
}

/** The whole live chain in the page: the simulated service sends its webhooks to the proxy, which the page talks to. */
function liveDeployment(): LiveDeployment {
  const asked = { reads: 0, streams: 0 }
  const deployment = proxyDeployment({
    service: { jobDurationMs: JOB_DURATION * 4 },
    webhookSecret: WEBHOOK_SECRET,
    onRequest: (path) => {
      if (path.endsWith('/events')) asked.streams++
      else if (path.includes('/jobs/')) asked.reads++
    },
  })
  return { ...deployment, asked }
}

/**
 * Behind the proxy, with the service's webhooks: the page follows the job on the proxy's event
 * stream. Its progress and its end arrive as the service tells them, and nobody polls the service.
 */
const meta = {
  title: 'Components/Live updates',
  component: ToolRunner,
  args: { tool: 'valuation/report', input: exampleInput('valuation/report') },
  argTypes: { tool: { control: false } },
  ...behindProxy(liveDeployment),
  render: (args, context) => (
    <ProxyProvider {...proxyPage(context)}>
      <ToolRunner {...args} />
    </ProxyProvider>
  ),
} satisfies Meta<typeof ToolRunner>

export default meta
type Story = StoryObj<typeof meta>

export const BehindTheProxy: Story = {
  name: 'Pushed through the proxy',
  play: async (context) => {
    const m = storyMessages(context)
    const canvas = within(context.canvasElement)
    await context.userEvent.click(canvas.getByRole('button', { name: m.runner.submit }))
    await expect(await canvas.findByRole('button', { name: m.runner.runAgain }, { timeout: RUN_TIMEOUT })).toBeVisible()
    // The page never read the job: its first state came on its stream (what the proxy keeps of
    // its creation), the rest from the service's webhooks; nor did the proxy read it.
    const { service, asked } = deploymentOf<LiveDeployment>(context)
    await expect(asked.reads).toBe(0)
    await expect(asked.streams).toBeGreaterThan(0)
    await expect(service.log.filter((entry) => entry.kind === 'poll')).toHaveLength(0)
  },
}
