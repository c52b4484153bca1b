import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, within } from 'storybook/test'
import { ResultView, type ResultViewProps } from '../src/components/index.js'
import type { Messages } from '../src/react/index.js'
import { makeArtifact } from './support/prepare.js'
import { storyMessages } from './support/tools.js'

/**
 * A result on a phone, 320 to 430 px: a list a person scans. A label takes the room it needs
 * ("Price per square metre" on one line) and wraps only when it must; a nested record (Rent →
 * Monthly, Currency) is set in from its parent; a file's actions ("Download", "Open in a new
 * tab") line up on one edge.
 */
const meta = {
  title: 'Components/ResultView/On a phone',
  tags: ['react-18', 'dark-scheme'],
  component: ResultView,
  args: {
    result: {
      tool: 'photo/enhance',
      jobId: 'job_story',
      phase: 'succeeded',
      status: 'succeeded',
      artifacts: [],
      data: {
        rent: { monthly: 52000, currency: 'RUB' },
        range: { low: 47000, high: 58000 },
        pricePerSquareMetre: 962.5,
        mode: 'auto',
        verdict: 'In line with comparable flats let nearby.',
      },
    },
  } as ResultViewProps,
  parameters: { tools: { simulatedOnly: true, service: { jobDurationMs: 20, latencyMs: 0 } } },
  // A PDF made on the simulated service: a file with both actions.
  beforeEach: async (context) => void (await makeArtifact(context, 'pdf/create')),
  render: (args, { loaded }) => <ResultView {...args} result={{ ...args.result, artifacts: [loaded.url as string] }} />,
} satisfies Meta<ResultViewProps>

export default meta
type Story = StoryObj<typeof meta>

/** The width `element`'s content would take on one line. */
function oneLineWidth(element: HTMLElement): number {
  const probe = element.cloneNode(true) as HTMLElement
  Object.assign(probe.style, { position: 'absolute', visibility: 'hidden', whiteSpace: 'nowrap', width: 'max-content' })
  element.parentElement!.append(probe)
  const width = probe.getBoundingClientRect().width
  probe.remove()
  return width
}

/** How many lines `element`'s text takes. */
function linesOf(element: HTMLElement): number {
  const range = document.createRange()
  range.selectNodeContents(element)
  return new Set([...range.getClientRects()].filter((box) => box.width > 0).map((box) => Math.round(box.top))).size
}

/** A label wraps only when label and value cannot share a line of their row (or, over a record, when it alone cannot fit). */
async function labelsWrapOnlyWhenTheyMust(card: HTMLElement) {
  for (const row of card.querySelectorAll<HTMLElement>('.ct-result__field')) {
    const label = row.querySelector<HTMLElement>(':scope > dt')!
    const value = row.querySelector<HTMLElement>(':scope > dd')!
    const rowWidth = row.getBoundingClientRect().width
    const record = value.querySelector('dl') !== null
    const needed = oneLineWidth(label) + (record ? 0 : oneLineWidth(value) + 16)
    if (needed > rowWidth) continue
    await expect(linesOf(label), `"${label.textContent}" on one line (it needs ${needed} of ${rowWidth} px)`).toBe(1)
  }
}

/** Each nested record's labels start right of its parent's label. */
async function childrenSetIn(card: HTMLElement) {
  const nested = [...card.querySelectorAll<HTMLElement>('.ct-result__field .ct-result__field > dt')]
  await expect(nested.length).toBeGreaterThan(0)
  for (const label of nested) {
    const parent = label.parentElement!.parentElement!.closest('.ct-result__field')!.querySelector<HTMLElement>(':scope > dt')!
    const by = label.getBoundingClientRect().left - parent.getBoundingClientRect().left
    await expect(by, `"${label.textContent}" set in from "${parent.textContent}"`).toBeGreaterThanOrEqual(12)
  }
}

/** Download and "Open in a new tab" start at one edge. */
async function actionsAligned(card: HTMLElement, m: Messages) {
  const canvas = within(card)
  const download = canvas.getByRole('link', { name: m.artifact.download })
  const open = canvas.getByRole('link', { name: m.artifact.openInNewTab })
  await expect(Math.round(open.getBoundingClientRect().left)).toBe(Math.round(download.getBoundingClientRect().left))
  await expect(card.scrollWidth).toBeLessThanOrEqual(card.clientWidth)
}

function phone(width: number): Story {
  return {
    decorators: [(Story) => <div style={{ width, padding: 8, boxSizing: 'border-box' }}>{Story()}</div>],
    play: async ({ canvasElement, globals }) => {
      const m = storyMessages({ globals })
      // The card's code and the file come first: the card shown until then is a stand-in.
      await within(canvasElement).findByRole('link', { name: m.artifact.download }, { timeout: 20_000 })
      const card = canvasElement.querySelector<HTMLElement>('.ct-result')!
      await actionsAligned(card, m)
      await labelsWrapOnlyWhenTheyMust(card)
      await childrenSetIn(card)
    },
  }
}

/** A small phone. */
export const At320: Story = phone(320)
/** A common phone. */
export const At390: Story = phone(390)
/** A large phone. */
export const At430: Story = phone(430)
