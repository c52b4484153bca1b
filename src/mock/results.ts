import type { ToolId } from '../tools/index.js'
import { PICTURE_SIZE, TOUR_VIDEO, type ArtifactSpec } from './artifacts/index.js'

/** What a tool's result is made from. */
export interface ResultContext {
  /** The JSON body, or a file tool's options plus `file: { name, type, size }`. */
  input: Record<string, unknown>
  /** Stores a file bound to the calling key and returns its link under `{base}/artifacts/`. */
  artifact(spec: ArtifactSpec): string
}

type ResultBuilder = (context: ResultContext) => Record<string, unknown>

const CURRENCY = 'EUR'

const textOr = (value: unknown, fallback: string) =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback

const areaOf = (input: Record<string, unknown>) =>
  typeof input.totalArea === 'number' && input.totalArea > 0 ? input.totalArea : 60

const fileNameOf = (input: Record<string, unknown>) =>
  textOr((input.file as { name?: unknown } | undefined)?.name, 'upload')

/** A stable fraction in [0, 1) from a text: results vary with the input yet repeat for the same input. */
function spread(seed: string): number {
  let hash = 7
  for (const char of seed) hash = (hash * 31 + char.charCodeAt(0)) >>> 0
  return (hash % 1000) / 1000
}

/** `value` to the nearest `step`; a fractional step divides by its inverse, so 0.1 gives 15.1, never 15.100000000000001. */
const roundTo = (value: number, step: number) =>
  step < 1 ? Math.round(value / step) / Math.round(1 / step) : Math.round(value / step) * step

function saleEstimate(input: Record<string, unknown>) {
  const totalArea = areaOf(input)
  const city = textOr(input.city, 'Berlin')
  const pricePerSquareMetre = Math.round(3000 + 2500 * spread(city))
  const price = roundTo(totalArea * pricePerSquareMetre, 1000)
  return {
    price,
    currency: CURRENCY,
    pricePerSquareMetre,
    range: { low: roundTo(price * 0.92, 1000), high: roundTo(price * 1.08, 1000) },
    totalArea,
    city,
  }
}

/** The listing a listing tool was called for, as given. */
function listingOf(input: Record<string, unknown>) {
  const objectId = textOr(input.objectId, '')
  return objectId ? { objectId } : { collectionId: textOr(input.collectionId, '') }
}

const listingName = (input: Record<string, unknown>) => {
  const listing = listingOf(input)
  return 'objectId' in listing ? `Listing ${listing.objectId}` : `Collection ${listing.collectionId}`
}

/**
 * What each tool produces: a synchronous tool's response body (the service adds `requestId`),
 * or a deferred tool's `result` on its finished job. Links to files sit under `url`, or under
 * `files[].url` where there are several. Keyed by tool id, so every tool has an entry and a
 * misspelt id fails to compile.
 */
export const TOOL_RESULTS: Record<ToolId, ResultBuilder> = {
  'valuation/express': ({ input }) => ({ valuation: saleEstimate(input) }),

  'valuation/report': ({ input, artifact }) => {
    const valuation = saleEstimate(input)
    const url = artifact({
      type: 'pdf',
      filename: 'valuation-report.pdf',
      title: 'Valuation report',
      lines: [
        `${valuation.totalArea} m2 in ${valuation.city}`,
        `Estimated price: ${valuation.price} ${valuation.currency}`,
        `Range: ${valuation.range.low} - ${valuation.range.high} ${valuation.currency}`,
        'Made by the simulated Tools API.',
      ],
    })
    return { url, pages: 1, valuation }
  },

  'valuation/rent': ({ input }) => {
    const totalArea = areaOf(input)
    const city = textOr(input.city, 'Berlin')
    const propertyCategory = textOr(input.propertyCategory, 'apartment')
    const pricePerSquareMetre = roundTo(10 + 10 * spread(`${city}/${propertyCategory}`), 0.1)
    const monthly = Math.round(totalArea * pricePerSquareMetre)
    return {
      rent: { monthly, currency: CURRENCY },
      range: { low: roundTo(monthly * 0.9, 10), high: roundTo(monthly * 1.1, 10) },
      pricePerSquareMetre,
      propertyCategory,
      totalArea,
      city,
    }
  },

  'valuation/review': ({ input, artifact }) => {
    const document = fileNameOf(input)
    const findings = ['The comparables are recent and nearby.', 'The condition of the property is not documented.']
    const url = artifact({
      type: 'pdf',
      filename: 'valuation-review.pdf',
      title: 'Valuation review',
      lines: [`Document reviewed: ${document}`, 'Verdict: plausible', ...findings],
    })
    return { url, document, verdict: 'plausible', findings }
  },

  'content/generate': ({ input }) => {
    const topic = textOr(input.topic ?? input.prompt, 'a bright two-room apartment')
    return {
      title: `Listing text: ${topic}`,
      text: `Discover ${topic}: generous light, a calm street and everything within walking distance.`,
    }
  },

  'text/generate': ({ input }) => {
    const prompt = textOr(input.prompt ?? input.topic, 'Describe the neighbourhood')
    return { text: `${prompt}. Quiet streets, a weekly market and a park two minutes away make it easy to settle in.` }
  },

  'avatar/video': ({ artifact }) => ({ url: artifact({ type: 'mp4', filename: 'avatar.mp4' }), ...TOUR_VIDEO }),

  'video/create': ({ input, artifact }) => ({
    url: artifact({ type: 'mp4', filename: 'listing-video.mp4' }),
    ...TOUR_VIDEO,
    source: fileNameOf(input),
  }),

  'photo/enhance': ({ input, artifact }) => ({
    url: artifact({ type: 'png', filename: 'enhanced.png', picture: 'photo' }),
    mode: textOr(input.mode, 'auto'),
    width: PICTURE_SIZE,
    height: PICTURE_SIZE,
  }),

  'floorplan/create': ({ input, artifact }) => ({
    files: [
      { name: 'floorplan.png', url: artifact({ type: 'png', filename: 'floorplan.png', picture: 'floorplan' }) },
      {
        name: 'floorplan.pdf',
        url: artifact({
          type: 'pdf',
          filename: 'floorplan.pdf',
          title: 'Floor plan',
          lines: [`Drawn from ${fileNameOf(input)}`, 'Two rooms, 58 m2.'],
        }),
      },
    ],
    rooms: 2,
  }),

  'draft/extract': ({ input }) => {
    const source = fileNameOf(input)
    const totalArea = roundTo(40 + 80 * spread(source), 0.5)
    return {
      fields: { propertyCategory: 'apartment', totalArea, rooms: Math.max(1, Math.round(totalArea / 25)), city: 'Berlin' },
      source,
    }
  },

  'site/create': ({ input, artifact }) => {
    const title = listingName(input)
    const url = artifact({
      type: 'html',
      filename: 'index.html',
      title,
      lines: ['A page made by the simulated Tools API.', 'Bright rooms, a quiet street, close to the park.'],
    })
    return { site: { url, title }, listing: listingOf(input) }
  },

  'pdf/create': ({ input, artifact }) => {
    const language = textOr(input.language, 'en')
    const title = listingName(input)
    const url = artifact({
      type: 'pdf',
      filename: 'listing.pdf',
      title,
      lines: [`Language: ${language}`, 'Bright rooms, a quiet street, close to the park.', 'Made by the simulated Tools API.'],
    })
    return { url, language, listing: listingOf(input) }
  },
}
