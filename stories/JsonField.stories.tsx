import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, waitFor } from 'storybook/test'
import { ToolRunner, type ToolRunnerProps } from '../src/components/index.js'
import type { ToolId } from '../src/react/index.js'
import { RUN_TIMEOUT } from './support/environment.js'
import { storyMessages } from './support/tools.js'

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
 * from the field (its check on leaving runs), and the click lands on whatever is under the
 * pointer when it is released, as in a browser.
 */
async function pressAt(button: HTMLElement, settled: () => void) {
  const box = button.getBoundingClientRect()
  const x = box.left + box.width / 2
  const y = box.top + box.height / 2
  const pressed = document.elementFromPoint(x, y)!
  pressed.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, clientX: x, clientY: y }))
  button.focus()
  await waitFor(settled)
  await new Promise(requestAnimationFrame)
  const released = document.elementFromPoint(x, y)!
  released.dispatchEvent(new MouseEvent('mouseup', { bubbles: true, clientX: x, clientY: y }))
  if (released === pressed || pressed.contains(released)) (pressed as HTMLElement).click()
}

/** Broken JSON flagged, fixed, then one click on Run: the run is sent and its result shown. */
export const FixedThenRun: Story = {
  play: async ({ canvas, canvasElement, userEvent, globals }) => {
    const m = storyMessages({ globals })
    const field = canvas.getByRole('textbox')
    await userEvent.type(field, '{{"prompt": "two rooms"')
    await userEvent.tab()
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'))
    await expect(canvasElement.querySelector('.ct-field-error')).toBeVisible()
    await userEvent.click(field)
    await userEvent.type(field, '}')
    await expect(field).toHaveValue('{"prompt": "two rooms"}')
    // The problem goes as the fix is typed, before any press (however long the check takes to load).
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'false'), { timeout: RUN_TIMEOUT })
    await pressAt(canvas.getByRole('button', { name: m.runner.submit }), () =>
      expect(field).toHaveAttribute('aria-invalid', 'false'),
    )
    await expect(await canvas.findByRole('heading', { name: m.runner.result }, { timeout: RUN_TIMEOUT })).toBeVisible()
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
    await expect(await canvas.findByText(problem)).toBeVisible()
    await expect(field).toHaveAccessibleDescription(expect.stringContaining(problem))
    await expect(field).toHaveAttribute('aria-invalid', 'true')
  },
}
