import type { Meta, StoryContext, StoryObj } from '@storybook/react-vite'
import { useState } from 'react'
import { expect, waitFor, within } from 'storybook/test'
import { RecentRuns, ToolRunner, UploadForm, UsageMeter } from '../src/components/index.js'
import { exampleInput } from '../src/mock/index.js'
import { pageClock } from './support/clock.js'
import { RUN_TIMEOUT } from './support/environment.js'
import { chooseFile, runToCompletion } from './support/play.js'
import { behindProxy, deploymentOf, proxyDeployment, ProxyProvider, proxyPage } from './support/proxy.js'
import { storyMessages, storyTools } from './support/tools.js'

/**
 * What a partner met on a first day with the kit, each as it is now: the runner free again when
 * the person's cap resets, two runners and an upload on one page told apart, the elapsed time of
 * a job across a reload, what the runs list says and how a row reads, and the runner's title at
 * the page's own level.
 */
const meta = {
  title: 'Components/On a partner’s page',
  tags: ['dark-scheme', 'react-18'],
  parameters: { tools: { simulatedOnly: true } },
} satisfies Meta

export default meta
type Story = StoryObj<typeof meta>

const HOUR = 3_600_000

/** The clock of the story shown, moved on by its play function; put back after it. */
let clock: ReturnType<typeof pageClock> | undefined
const withPageClock = () => {
  clock = pageClock()
  return () => clock?.restore()
}

/**
 * One run an hour, behind the site's proxy: the second run is refused with the time runs come
 * back and no button. When that time comes (the page's clock moved on an hour, not waited for),
 * the notice goes, "Run" is back with no reload, and it runs.
 */
export const RunsAgainWhenTheCapResets: Story = {
  ...behindProxy(() => proxyDeployment({ proxy: { limits: { calls: 1, windowMs: HOUR } } })),
  beforeEach: [(context) => deploymentOf(context).register(), withPageClock],
  render: (_args, context) => (
    <ProxyProvider {...proxyPage(context)}>
      <UsageMeter />
      <ToolRunner tool="valuation/rent" input={exampleInput('valuation/rent')} />
    </ProxyProvider>
  ),
  play: async (context) => {
    const { canvas, userEvent } = context
    const m = storyMessages(context)
    await userEvent.click(await canvas.findByRole('button', { name: m.runner.submit }))
    await userEvent.click(await canvas.findByRole('button', { name: m.runner.runAgain }, { timeout: RUN_TIMEOUT }))
    await userEvent.click(await canvas.findByRole('button', { name: m.runner.submit }))
    const notice = await canvas.findByRole('alert', {}, { timeout: RUN_TIMEOUT })
    await expect(notice).toHaveTextContent(m.proxy.userLimit.title)
    // Nothing to press while the cap holds: the notice says when.
    await expect(canvas.queryByRole('button', { name: m.runner.submit })).toBeNull()

    clock!.advance(HOUR)
    const run = await canvas.findByRole('button', { name: m.runner.submit }, { timeout: 3000 })
    await expect(canvas.queryByRole('alert')).toBeNull()
    await userEvent.click(run)
    await expect(await canvas.findByRole('button', { name: m.runner.runAgain }, { timeout: RUN_TIMEOUT })).toBeVisible()
    const calls = deploymentOf(context).service.log.filter((entry) => entry.kind === 'call').length
    await expect(calls).toBe(2)
  },
}

/**
 * Two runners and an upload form on one page, each run to its result: three result regions, each
 * named by its tool (axe's landmark-unique holds).
 */
export const TwoRunnersAndAnUpload: Story = {
  render: () => (
    <div style={{ display: 'grid', gap: 24 }}>
      <ToolRunner tool="valuation/rent" input={exampleInput('valuation/rent')} />
      <ToolRunner tool="valuation/express" input={exampleInput('valuation/express')} />
      <UploadForm tool="draft/extract" />
    </div>
  ),
  play: async (context) => {
    const m = storyMessages(context)
    const canvas = within(context.canvasElement)
    const [rent, express] = context.canvasElement.querySelectorAll<HTMLElement>('.ct-tool-runner')
    await runToCompletion({ ...context, canvasElement: rent! }, 'valuation/rent')
    await runToCompletion({ ...context, canvasElement: express! }, 'valuation/express')
    const upload = context.canvasElement.querySelector<HTMLElement>('.ct-upload-form')!
    await chooseFile({ ...context, canvasElement: upload }, (exampleInput('draft/extract') as { file: File }).file)
    await context.userEvent.click(within(upload).getByRole('button', { name: m.runner.submit }))
    const names = ['valuation/rent', 'valuation/express', 'draft/extract'] as const
    for (const tool of names) {
      const name = m.runner.resultOf(m.tools[tool].title)
      await expect(await canvas.findByRole('region', { name }, { timeout: RUN_TIMEOUT })).toBeVisible()
    }
  },
}

/** A runner the page can mount again, as a reload would: the run comes back from the journal. */
function ReloadableRunner() {
  const [mount, setMount] = useState(0)
  return (
    <>
      <button type="button" className="ct-button ct-button--secondary" onClick={() => setMount(mount + 1)}>
        Reload the runner
      </button>
      <ToolRunner key={mount} tool="valuation/report" input={exampleInput('valuation/report')} />
    </>
  )
}

/**
 * Waits for the job's elapsed time to read at least `least` seconds, and at most that plus what
 * has really passed since `since` (`performance.now()`, the run's click), rounded up, plus one:
 * the page's clock moves on with real time too, however slowly a busy machine draws the page.
 */
async function elapsedShows(context: StoryContext, least: number, since: number) {
  const m = storyMessages(context)
  await waitFor(
    () => {
      const text = context.canvasElement.querySelector('.ct-job-progress__elapsed')?.textContent ?? ''
      const [time = '', minutes, seconds] = /(\d+):(\d\d)/.exec(text) ?? []
      expect(text).toBe(m.job.elapsed(time))
      const shown = Number(minutes) * 60 + Number(seconds)
      expect(shown).toBeGreaterThanOrEqual(least)
      expect(shown).toBeLessThanOrEqual(least + Math.ceil((performance.now() - since) / 1000) + 1)
    },
    { timeout: 3000 },
  )
}

/**
 * A job five seconds in (its clock held, the page's moved on), then the page reloads: the time
 * goes on from the run's start, 0:05, not from the reload.
 */
export const ElapsedAcrossAReload: Story = {
  beforeEach: [withPageClock],
  render: () => <ReloadableRunner />,
  play: async (context) => {
    const { canvas, userEvent } = context
    const m = storyMessages(context)
    storyTools(context).service.freezeJobs()
    const since = performance.now()
    await userEvent.click(canvas.getByRole('button', { name: m.runner.submit }))
    await waitFor(() => expect(canvas.getByRole('progressbar', { name: m.job.progressLabel })).toBeVisible(), { timeout: 3000 })
    clock!.advance(5000)
    await elapsedShows(context, 5, since)
    await userEvent.click(canvas.getByRole('button', { name: 'Reload the runner' }))
    await waitFor(() => expect(canvas.getByRole('progressbar', { name: m.job.progressLabel })).toBeVisible(), { timeout: 3000 })
    // From the run's start, as the journal knows it: never back to 0:00 or 0:01 from the reload.
    await elapsedShows(context, 5, since)
  },
}

/**
 * The runs list before any run says what it lists; after a report, its row reads title, status
 * and time, set apart.
 */
export const RecentRunsListAndRow: Story = {
  render: () => (
    <>
      <ToolRunner tool="valuation/report" input={exampleInput('valuation/report')} heading={3} />
      <h3 id="first-day-runs">Your reports</h3>
      <RecentRuns aria-labelledby="first-day-runs" />
    </>
  ),
  play: async (context) => {
    const m = storyMessages(context)
    const canvas = within(context.canvasElement)
    const runs = canvas.getByRole('region', { name: 'Your reports' })
    await expect(runs).toHaveTextContent(m.runs.empty)
    const runner = context.canvasElement.querySelector<HTMLElement>('.ct-tool-runner')!
    await runToCompletion({ ...context, canvasElement: runner }, 'valuation/report')
    const title = await within(runs).findByText(m.tools['valuation/report'].title)
    // The dots are for the eye, the commas for a screen reader: the text holds both.
    const row = `${m.tools['valuation/report'].title} · , ${m.phase.succeeded} · , ${m.job.elapsed('0:00')}`
    await waitFor(() => expect(title.closest('p')!.textContent?.replace(/\d:\d\d/, '0:00')).toBe(row))
    await expect(canvas.queryByText(m.runs.empty)).toBeNull()
  },
}

/**
 * The page titles the tool itself (`heading={false}`: no second title, the section named by the
 * tool), and another runner's title sits at the page's level under it (`heading={3}`).
 */
export const HeadingAtThePagesLevel: Story = {
  render: (_args, context) => (
    <>
      <h2>{storyMessages(context).tools['valuation/rent'].title}</h2>
      <ToolRunner tool="valuation/rent" input={exampleInput('valuation/rent')} heading={false} />
      <h2>More estimates</h2>
      <ToolRunner tool="valuation/express" input={exampleInput('valuation/express')} heading={3} />
    </>
  ),
  play: async (context) => {
    const m = storyMessages(context)
    const canvas = within(context.canvasElement)
    const rent = m.tools['valuation/rent'].title
    await expect(canvas.getAllByRole('heading', { name: rent })).toHaveLength(1)
    await expect(canvas.getByRole('region', { name: rent })).toBeVisible()
    await expect(canvas.queryByText(m.tools['valuation/rent'].description)).toBeNull()
    await expect(canvas.getByRole('heading', { level: 3, name: m.tools['valuation/express'].title })).toBeVisible()
  },
}

/**
 * A rate limit longer than the client waits on its own (90 s): the notice counts down with "Try
 * again" disabled; at the end (the page's clock moved on, not waited for) it says so, "Try
 * again" is enabled, and it runs.
 */
export const RateLimitCountdownEnds: Story = {
  beforeEach: [
    (context) => {
      storyTools(context).service.inject({ match: { tool: 'valuation/rent' }, fault: 'rate-limit', retryAfterMs: 90_000, times: 1 })
    },
    withPageClock,
  ],
  render: () => <ToolRunner tool="valuation/rent" input={exampleInput('valuation/rent')} />,
  play: async (context) => {
    const { canvas, userEvent } = context
    const m = storyMessages(context)
    await userEvent.click(canvas.getByRole('button', { name: m.runner.submit }))
    const notice = within(await canvas.findByRole('alert', {}, { timeout: RUN_TIMEOUT }))
    await expect(notice.getByRole('button', { name: m.errors.retry })).toBeDisabled()
    clock!.advance(90_000)
    await expect(await notice.findByText(m.errors['rate-limit'].ready, {}, { timeout: 3000 })).toBeVisible()
    await userEvent.click(notice.getByRole('button', { name: m.errors.retry }))
    await expect(await canvas.findByRole('button', { name: m.runner.runAgain }, { timeout: RUN_TIMEOUT })).toBeVisible()
    await expect(canvas.queryByRole('alert')).toBeNull()
  },
}
