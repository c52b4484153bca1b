import type { Meta, StoryContext, StoryObj } from '@storybook/react-vite'
import { useState, type ReactNode } from 'react'
import { expect, waitFor } from 'storybook/test'
import { ToolRunner, type ToolRunnerProps } from '../src/components/index.js'
import { createToolsClient, ToolsProvider, type ToolId, type ToolsClient } from '../src/react/index.js'
import { CHUNK_TIMEOUT, POLL_INTERVAL, RUN_TIMEOUT } from './support/environment.js'
import { storyMessages, storyTools } from './support/tools.js'

/**
 * A tool whose form is the JSON options field (`text/generate`): text that is not a JSON object
 * is flagged under the field, and the flag goes as the person fixes the text, while they type,
 * so the Run button below it never moves under their pointer.
 */
const meta = {
  title: 'Components/ToolRunner/JSON field',
  tags: ['react-18'],
  component: ToolRunner,
  args: { tool: 'text/generate' },
  argTypes: { tool: { control: false } },
  parameters: { tools: { simulatedOnly: true } },
} satisfies Meta<ToolRunnerProps<ToolId>>

export default meta
type Story = StoryObj<typeof meta>

/**
 * A press on Run as a pointer makes it, at the button's place on screen: the press takes focus
 * from the field (its check on leaving runs), `duringPress` runs while the pointer is down, and
 * the click lands on whatever is under the pointer when it is released, as in a browser.
 */
async function pressAt(button: HTMLElement, duringPress: () => Promise<void>) {
  const box = button.getBoundingClientRect()
  const at = { bubbles: true, cancelable: true, composed: true, clientX: box.left + box.width / 2, clientY: box.top + box.height / 2 }
  const pointer = { ...at, pointerId: 1, pointerType: 'mouse', isPrimary: true }
  const pressed = document.elementFromPoint(at.clientX, at.clientY) as HTMLElement
  pressed.dispatchEvent(new PointerEvent('pointerdown', pointer))
  pressed.dispatchEvent(new MouseEvent('mousedown', at))
  button.focus()
  await duringPress()
  // Drawn as the person sees it when they let go.
  await new Promise(requestAnimationFrame)
  const released = document.elementFromPoint(at.clientX, at.clientY) as HTMLElement
  released.dispatchEvent(new PointerEvent('pointerup', pointer))
  released.dispatchEvent(new MouseEvent('mouseup', at))
  if (released === pressed || pressed.contains(released)) pressed.click()
}

/**
 * The input checks as slow as on a busy machine (their chunk still coming): each is worked out
 * at once but answers only when `answer()` lets it, which resolves once every answer has landed.
 */
function slowChecks(client: ToolsClient) {
  const validate = client.validate.bind(client)
  const held: { answer: () => void; landed: Promise<unknown> }[] = []
  Object.assign(client, {
    validate: (tool: ToolId, input: never) => {
      const issues = validate(tool, input)
      let answer = () => {}
      const landed = new Promise<void>((resolve) => (answer = resolve)).then(() => issues)
      held.push({ answer, landed })
      return landed
    },
  })
  return {
    pending: () => held.length,
    answer: async () => {
      const now = held.splice(0)
      for (const check of now) check.answer()
      await Promise.all(now.map((check) => check.landed))
    },
  }
}

/** The checks of the story shown, for its play function. */
let checks: ReturnType<typeof slowChecks> | undefined

/** The runner on a client of its own whose input checks are slow (see slowChecks). */
function WithSlowChecks({ children, context }: { children: ReactNode; context: StoryContext }) {
  const [client] = useState(() => {
    const { baseUrl, apiKey } = storyTools(context)
    const made = createToolsClient({ baseUrl, apiKey, pollIntervalMs: POLL_INTERVAL })
    checks = slowChecks(made)
    return made
  })
  return <ToolsProvider client={client}>{children}</ToolsProvider>
}

/**
 * Broken JSON flagged, fixed, then Run pressed before the fix's check answers (its code still
 * coming on a busy machine): the answer lands during the press, the problem line goes only after
 * the click, so the button stays under the pointer, the click counts, and the run is sent.
 */
export const FixedThenRun: Story = {
  render: (args, context) => (
    <WithSlowChecks context={context}>
      <ToolRunner {...args} />
    </WithSlowChecks>
  ),
  play: async ({ canvas, userEvent, globals }) => {
    const m = storyMessages({ globals })
    const field = canvas.getByRole('textbox')
    await userEvent.type(field, '{{"prompt": "two rooms"')
    await userEvent.tab()
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'), { timeout: CHUNK_TIMEOUT })
    await expect(field.closest('.ct-field')!.querySelector('.ct-field-error')).toBeVisible()
    await userEvent.click(field)
    await userEvent.type(field, '}')
    await expect(field).toHaveValue('{"prompt": "two rooms"}')
    // The fix's check has not answered: the problem still shows when Run is pressed.
    await expect(checks!.pending()).toBeGreaterThan(0)
    await expect(field).toHaveAttribute('aria-invalid', 'true')
    await pressAt(canvas.getByRole('button', { name: m.runner.submit }), async () => {
      await checks!.answer()
      // The answers have landed (and React has drawn): the line they clear stays until the click.
      await new Promise(requestAnimationFrame)
      await expect(field).toHaveAttribute('aria-invalid', 'true')
    })
    await expect(await canvas.findByRole('heading', { name: m.runner.result }, { timeout: RUN_TIMEOUT })).toBeVisible()
    await expect(field).toHaveAttribute('aria-invalid', 'false')
  },
}

/**
 * Text that does not parse is told so, and where: the line and column of the first thing JSON
 * does not allow there (here a bare word on the second line), read with the field.
 */
export const SaysWhereItDoesNotParse: Story = {
  play: async ({ canvas, userEvent, globals }) => {
    const m = storyMessages({ globals })
    const field = canvas.getByRole('textbox')
    await userEvent.type(field, '{{"prompt": "two rooms",{enter}  "tone": warm}')
    await userEvent.tab()
    const problem = m.validation.notJson('2', '11')
    await expect(await canvas.findByText(problem, {}, { timeout: CHUNK_TIMEOUT })).toBeVisible()
    await expect(field).toHaveAccessibleDescription(expect.stringContaining(problem))
    await expect(field).toHaveAttribute('aria-invalid', 'true')
  },
}
