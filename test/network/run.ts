// What a person does on the network suite's page, and what every case checks at its end.
import { expect } from 'vitest'
import type { Tab } from './browser.js'

export type NetTool = 'valuation/rent' | 'pdf/create' | 'photo/enhance'

/** A 1×1 PNG, padded to `bytes` (the service reads its signature), for photo/enhance. */
export function png(bytes = 2048): Buffer {
  const image = Buffer.from(
    '89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
    'hex',
  )
  return Buffer.concat([image, Buffer.alloc(Math.max(0, bytes - image.length))])
}

/** Opens the page for `tool` (`user`: the provider's, so runs are kept across reloads). */
export async function open(tab: Tab, site: string, tool: NetTool, user?: string) {
  await tab.page.goto(`${site}/?tool=${encodeURIComponent(tool)}${user ? `&user=${user}` : ''}`)
}

/** Fills the form as a person would, then presses Run once it can be pressed. */
export async function fillAndRun(tab: Tab, tool: NetTool, fileBytes?: number) {
  const { page } = tab
  if (tool === 'valuation/rent') {
    for (const [name, text] of [['propertyCategory', 'flat'], ['totalArea', '50'], ['city', 'Kazan']] as const) {
      await page.fill(`input[name=${name}]`, text)
    }
  } else if (tool === 'photo/enhance') {
    await page.setInputFiles('input[type=file]', { name: 'room.png', mimeType: 'image/png', buffer: png(fileBytes) }, { timeout: 60_000 })
  }
  await page.click('form button[type=submit]', { timeout: 60_000 })
}

/** The run's end as the person sees it: its result (a made file ready to download). */
export async function resultShown(tab: Tab, tool: NetTool) {
  const { page } = tab
  await page.waitForSelector('.ct-tool-runner[data-state=succeeded]', { timeout: 60_000 })
  if (tool !== 'valuation/rent') await page.getByRole('link', { name: /download/i }).first().waitFor({ timeout: 60_000 })
}

/** Never "unexpected" for a network's doing, never a reload advised (a run in memory would be lost), never a blank runner. */
export function toldWhatHappens(tab: Tab) {
  const seen = [...tab.seen]
  expect(seen.length).toBeGreaterThan(0)
  for (const text of seen) {
    expect(text).not.toMatch(/unexpected error/i)
    expect(text).not.toMatch(/reload/i)
    expect(text.replace(/^\[\w+\]/, '').trim()).not.toBe('')
  }
}
