import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, fn, within } from 'storybook/test'
import { ErrorNotice, type ErrorNoticeProps } from '../src/components/index.js'
import { ToolsError, type ToolsErrorKind } from '../src/react/index.js'

type ToolsErrorInit = NonNullable<ConstructorParameters<typeof ToolsError>[2]>
import { BILLING_URL } from './support/environment.js'
import { storyMessages } from './support/tools.js'

/**
 * `<ErrorNotice error />`: one notice per kind of `ToolsError`, each saying what happened and
 * what the person can do, with "Try again" where repeating the call can help.
 */
const meta = {
  title: 'Components/ErrorNotice',
  component: ErrorNotice,
  tags: ['autodocs'],
  args: { onRetry: fn(), error: null },
  argTypes: { error: { control: false }, fieldId: { control: false } },
  parameters: { tools: { simulatedOnly: true } },
} satisfies Meta<ErrorNoticeProps>

export default meta
type Story = StoryObj<typeof meta>

const requestId = 'req_8f14e45f'

/** The notice of one kind: its title shown, "Try again" offered exactly where it helps. */
function kind(name: ToolsErrorKind, init: ToolsErrorInit = {}, retryable = false): Story {
  return {
    args: { error: new ToolsError(name, `A ${name} error`, { requestId, ...init }) },
    play: async ({ canvas, globals, args }) => {
      const m = storyMessages({ globals })
      const alert = canvas.getByRole('alert')
      const text = m.errors[name]
      await expect(within(alert).getByText(text.title)).toBeVisible()
      await expect(within(alert).getByText(m.errors.requestId(requestId))).toBeVisible()
      const retry = within(alert).queryByRole('button', { name: m.errors.retry })
      if (!retryable) return expect(retry).toBeNull()
      await expect(retry).toBeVisible()
      if (name === 'rate-limit') return
      await canvas.getByRole('button', { name: m.errors.retry }).click()
      await expect(args.onRetry).toHaveBeenCalled()
    },
  }
}

export const Validation: Story = {
  tags: ['react-18'],
  args: {
    error: new ToolsError('validation', 'Invalid input', {
      issues: [
        { field: 'totalArea', code: 'not-positive', message: 'Enter a number greater than zero.' },
        { field: 'city', code: 'required', message: 'This field is required.' },
      ],
    }),
  },
  play: async ({ canvas, globals }) => {
    const m = storyMessages({ globals })
    await expect(canvas.getByText(m.errors.validation.title)).toBeVisible()
    await expect(canvas.getByText(new RegExp(String(m.fields.totalArea)))).toBeVisible()
    await expect(canvas.getByText(new RegExp(String(m.fields.city)))).toBeVisible()
  },
}
export const BadRequest = kind('bad-request', { status: 400, body: { message: 'propertyCategory must be one of apartment, house' } })
export const Unauthorized = kind('unauthorized', { status: 401 })
export const Billing: Story = {
  ...kind('billing', { status: 402 }, true),
  play: async ({ canvas, globals }) => {
    const m = storyMessages({ globals })
    await expect(canvas.getByText(m.errors.billing.title)).toBeVisible()
    await expect(canvas.getByRole('link', { name: m.errors.billing.link })).toHaveAttribute('href', BILLING_URL)
  },
}
export const Scope: Story = {
  ...kind('scope', { status: 403, scope: 'tools:pdf' }),
  play: async ({ canvas, globals }) => {
    const m = storyMessages({ globals })
    await expect(canvas.getByText(m.errors.scope.title)).toBeVisible()
    await expect(canvas.getByText(m.errors.scope.body('tools:pdf'))).toBeVisible()
  },
}
export const ListingAccess = kind('listing-access', { status: 403 })
export const NotFound = kind('not-found', { status: 404 })
export const RateLimit: Story = {
  ...kind('rate-limit', { status: 429, retryAfter: 90_000 }, true),
  tags: ['react-18'],
  play: async ({ canvas, globals }) => {
    const m = storyMessages({ globals })
    await expect(canvas.getByText(m.errors['rate-limit'].title)).toBeVisible()
    // The wait counts down, and "Try again" stays off until it is over.
    await expect(canvas.getByText(/1 min|1:30/)).toBeVisible()
    await expect(canvas.getByRole('button', { name: m.errors.retry })).toBeDisabled()
  },
}
export const Server = kind('server', { status: 500 }, true)
export const Network = kind('network', {}, true)
export const JobFailed = kind('job-failed', { body: { status: 'failed', error: { message: 'The video could not be rendered.' } } }, true)
export const Aborted = kind('aborted', {}, true)
/** Anything thrown that is not a ToolsError. */
export const Unknown: Story = {
  args: { error: new Error('Something odd') },
  play: async ({ canvas, globals }) => {
    const m = storyMessages({ globals })
    await expect(canvas.getByText(m.errors.unexpected.title)).toBeVisible()
    await expect(canvas.getByRole('button', { name: m.errors.retry })).toBeEnabled()
  },
}
