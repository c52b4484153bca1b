import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, within } from 'storybook/test'
import { ToolRunner, type ToolRunnerProps } from '../src/components/index.js'
import { exampleInput, MOCK_LISTINGS } from '../src/mock/index.js'
import type { ToolId } from '../src/react/index.js'
import { BILLING_URL } from './support/environment.js'
import { storyMessages } from './support/tools.js'

/**
 * Runs that the service refuses, end to end: the request goes out, the simulated service
 * answers 402, 403 or 429 as a real one would, and the tool's form shows what to do next.
 */
const meta = {
  title: 'Errors/Refused runs',
  component: ToolRunner,
  args: { tool: 'valuation/rent', input: exampleInput('valuation/rent') },
  argTypes: { tool: { control: false } },
  parameters: { tools: { simulatedOnly: true } },
} satisfies Meta<ToolRunnerProps<ToolId>>

export default meta
type Story = StoryObj<typeof meta>

/** Submits the form and returns the notice the person is shown (it takes focus). */
async function submitAndGetNotice({ canvas, canvasElement, userEvent, globals }: Parameters<NonNullable<Story['play']>>[0]) {
  const m = storyMessages({ globals })
  await userEvent.click(canvas.getByRole('button', { name: m.runner.submit }))
  const notice = await within(canvasElement).findByRole('alert', {}, { timeout: 10_000 })
  await expect(notice).toHaveFocus()
  return within(notice)
}

/** 402: the wallet of the key's account is empty. The notice links to billing. */
export const PaymentRequired402: Story = {
  name: '402 Payment required',
  parameters: { tools: { simulatedOnly: true, key: 'broke' } },
  play: async (context) => {
    const m = storyMessages(context)
    const notice = await submitAndGetNotice(context)
    await expect(notice.getByText(m.errors.billing.title)).toBeVisible()
    await expect(notice.getByRole('link', { name: m.errors.billing.link })).toHaveAttribute('href', BILLING_URL)
    await expect(notice.getByRole('button', { name: m.errors.retry })).toBeEnabled()
  },
}

/** 403: the key lacks the tool's scope. The notice names the scope. */
export const MissingScope403: Story = {
  name: '403 Missing scope',
  args: { tool: 'valuation/report', input: exampleInput('valuation/report') },
  parameters: { tools: { simulatedOnly: true, key: 'limited' } },
  play: async (context) => {
    const m = storyMessages(context)
    const notice = await submitAndGetNotice(context)
    await expect(notice.getByText(m.errors.scope.title)).toBeVisible()
    await expect(notice.getByText(m.errors.scope.body('tools:valuation'))).toBeVisible()
    await expect(notice.queryByRole('button', { name: m.errors.retry })).toBeNull()
  },
}

/** 403 on a listing tool: the listing belongs to another account. */
export const ListingOfAnotherAccount403: Story = {
  name: '403 Listing of another account',
  args: { tool: 'pdf/create', input: { objectId: MOCK_LISTINGS.otherObject } },
  play: async (context) => {
    const m = storyMessages(context)
    const notice = await submitAndGetNotice(context)
    await expect(notice.getByText(m.errors['listing-access'].title)).toBeVisible()
  },
}

/**
 * 429: too many requests, with a Retry-After longer than the client waits on its own
 * (60 s): the notice counts down, and "Try again" waits for the end of it.
 */
export const RateLimited429: Story = {
  name: '429 Rate limited',
  beforeEach: (context) => {
    context.loaded.tools.service.inject({ match: { tool: 'valuation/rent' }, fault: 'rate-limit', retryAfterMs: 90_000, times: Infinity })
  },
  play: async (context) => {
    const m = storyMessages(context)
    const notice = await submitAndGetNotice(context)
    await expect(notice.getByText(m.errors['rate-limit'].title)).toBeVisible()
    // `1 min` or `1:30`, never bare digits: the request id is hex and may hold them.
    await expect(notice.getByText(/1 min|1:30/)).toBeVisible()
    await expect(notice.getByRole('button', { name: m.errors.retry })).toBeDisabled()
  },
}
