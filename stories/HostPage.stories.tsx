import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, waitFor, within } from 'storybook/test'
import { ToolRunner, type ToolRunnerProps } from '../src/components/index.js'
import type { ToolId } from '../src/react/index.js'
import { RUN_TIMEOUT } from './support/environment.js'
import { rentEstimateRun } from './support/play.js'
import { storyMessages } from './support/tools.js'

/**
 * A rent estimate on a partner's page of its own colours, which asks the kit for no theme. The
 * kit stays light whatever the system prefers, and its root paints its own surface and text, so
 * it reads on a light page and on a dark one. It is dark only where the page asks:
 * `data-theme="dark"` on the kit or an ancestor (or `"system"`, to follow the system's
 * preference). Tagged `dark-scheme`: these stories also run with the system's dark mode on
 * (project `storybook-dark-scheme`), checked by axe's contrast rule as every story is.
 */
const meta = {
  title: 'Theming/On a partner page',
  ...rentEstimateRun,
  tags: ['dark-scheme'],
} satisfies Meta<ToolRunnerProps<ToolId>>

export default meta
type Story = StoryObj<typeof meta>

const themed = (theme: 'dark'): Story['render'] =>
  function Themed(args) {
    return (
      <div data-theme={theme}>
        <ToolRunner {...args} />
      </div>
    )
  }

/**
 * The default theme on a white page, run from the keyboard: focus goes to the result, which
 * shows no ring (it is no control), while the button Tab reaches next shows its own.
 */
export const LightOnALightPage: Story = {
  parameters: { tools: { page: 'light' } },
  play: async ({ canvasElement, globals, userEvent }) => {
    const canvas = within(canvasElement)
    const m = storyMessages({ globals })
    canvas.getByRole('button', { name: m.runner.submit }).focus()
    await userEvent.keyboard('{Enter}')
    await canvas.findByRole('heading', { name: m.runner.result }, { timeout: RUN_TIMEOUT })
    const result = canvasElement.querySelector<HTMLElement>('.ct-tool-runner__result')!
    await waitFor(() => expect(result).toHaveFocus())
    await expect(result).toHaveStyle({ outlineStyle: 'none' })
    await userEvent.tab({ shift: true })
    const runAgain = canvas.getByRole('button', { name: m.runner.runAgain })
    await expect(runAgain).toHaveFocus()
    await expect(runAgain).toHaveStyle({ outlineStyle: 'solid' })
  },
}

/** The default theme on a dark page that asks for no theme: a light card of its own. */
export const LightOnADarkPage: Story = { parameters: { tools: { page: 'dark' } } }

/** `data-theme="dark"` around the kit on a white page: a dark card of its own. */
export const DarkOnALightPage: Story = { parameters: { tools: { page: 'light' } }, render: themed('dark') }

/** `data-theme="dark"` on a dark page. */
export const DarkOnADarkPage: Story = { parameters: { tools: { page: 'dark' } }, render: themed('dark') }
