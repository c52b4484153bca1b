import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect } from 'storybook/test'
import { ResultView } from '../src/components/index.js'

/**
 * `<ResultView>` in columns of different widths: a nested answer (a valuation's range inside its
 * estimate) reads as label and value side by side while a value has a line's room, and with the
 * value under its label when it has not. The width is the card's own, not the window's: the
 * 640 px column of a page on a wide screen lays out as a 640 px window does.
 */
const meta = {
  title: 'Components/ResultView',
  tags: ['react-18'],
  component: ResultView,
  args: {
    result: {
      tool: 'valuation/report',
      jobId: 'job_story',
      phase: 'succeeded',
      status: 'succeeded',
      artifacts: [],
      data: {
        valuation: {
          price: 219000,
          currency: 'EUR',
          range: { low: 205000, high: 233000, basis: { comparables: 12, radiusMetres: 800 } },
          pricePerSquareMetre: 4056,
        },
        verdict: 'Priced in line with comparable flats sold nearby in the last twelve months.',
      },
    },
  },
} satisfies Meta<typeof ResultView>

export default meta
type Story = StoryObj<typeof meta>

/** Each value of the card on one line (numbers never broken), and nothing wider than the card. */
async function readsWell(canvasElement: HTMLElement) {
  const card = canvasElement.querySelector<HTMLElement>('.ct-result')!
  for (const value of card.querySelectorAll<HTMLElement>('dd')) {
    if (value.querySelector('dl')) continue
    const text = value.textContent ?? ''
    if (!/^[\d,.\s€A-Z]+$/.test(text)) continue
    const lineHeight = parseFloat(getComputedStyle(value).lineHeight)
    await expect(value.getBoundingClientRect().height, `"${text}" on one line`).toBeLessThan(lineHeight * 1.5)
  }
  await expect(card.scrollWidth).toBeLessThanOrEqual(card.clientWidth)
  // Each word of each label on one line: labels break between words, never inside one.
  const broken = [...card.querySelectorAll('dt')].flatMap((label) => {
    const text = label.firstChild
    if (!(text instanceof Text)) return []
    return [...text.data.matchAll(/\S+/g)].filter((word) => {
      const range = document.createRange()
      range.setStart(text, word.index)
      range.setEnd(text, word.index + word[0].length)
      return new Set([...range.getClientRects()].map((box) => Math.round(box.top))).size > 1
    })
  })
  await expect(broken.map((word) => word[0])).toEqual([])
}

function column(width: number): Story {
  return {
    decorators: [(Story) => <div style={{ maxWidth: width, padding: 8 }}>{Story()}</div>],
    play: async ({ canvasElement }) => readsWell(canvasElement),
  }
}

/** A phone's width. */
export const At320: Story = column(320)
/** A 640 px window, or a page's 640 px column on a wider screen (as in docs/nextjs.md). */
export const At640: Story = column(640)
/** A wide column: labels and values side by side at every level. */
export const At900: Story = column(900)
