import type { Meta, StoryObj } from '@storybook/react-vite'
import type { CSSProperties } from 'react'
import { ToolRunner, type ToolRunnerProps } from '../src/components/index.js'
import type { ToolId } from '../src/react/index.js'
import { rentEstimateRun } from './support/play.js'

/**
 * The same run (a rent estimate) in each look the kit supports: the default theme light and
 * dark, a partner's own colours through the `--ct-*` variables, no stylesheet at all, and
 * Russian.
 */
const meta = {
  title: 'Theming',
  ...rentEstimateRun,
} satisfies Meta<ToolRunnerProps<ToolId>>

export default meta
type Story = StoryObj<typeof meta>

/** The default theme, light. */
export const Light: Story = { globals: { theme: 'light' } }

/** The default theme, dark: `data-theme="dark"` on any ancestor (`"system"` follows the system's preference). */
export const Dark: Story = { globals: { theme: 'dark' } }

/** A partner's brand: a few `--ct-*` variables set on an ancestor restyle everything inside it. */
const brand = {
  '--ct-color-accent': '#0f766e',
  '--ct-color-accent-hover': '#115e59',
  '--ct-color-accent-muted': '#ccfbf1',
  '--ct-color-focus': '#14b8a6',
  '--ct-radius': '2px',
  '--ct-radius-small': '2px',
  '--ct-radius-large': '4px',
  '--ct-font-family': 'Georgia, "Times New Roman", serif',
} as CSSProperties

export const CustomVariables: Story = {
  render: (args) => (
    <div style={brand}>
      <ToolRunner {...args} />
    </div>
  ),
}

/**
 * Without the stylesheet: plain HTML that still reads in order and works by keyboard, for
 * partners who bring their own CSS. (Shown in its own frame in the docs, as it switches the
 * stylesheet off for the page it is on.)
 */
export const Unstyled: Story = {
  parameters: { tools: { unstyled: true }, docs: { story: { inline: false, height: '520px' } } },
}

/** In Russian: `<ToolsProvider messages={ru}>`, numbers and sizes formatted for `ru`. */
export const Russian: Story = { globals: { locale: 'ru' } }
