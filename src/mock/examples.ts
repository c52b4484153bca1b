import { getTool, inputFields, type ToolId, type ToolInput } from '../tools/index.js'
import { encodePdf } from './artifacts/pdf.js'
import { tourVideoMp4 } from './artifacts/mp4.js'
import { photoPng } from './artifacts/png.js'
import { MOCK_LISTINGS } from './fixtures.js'

/** Sample values for the fields a tool's form would ask for. Values only: which fields a tool takes is the catalogue's. */
const SAMPLE_FIELDS: Partial<Record<ToolId, Record<string, unknown>>> = {
  'valuation/express': { totalArea: 72, city: 'Berlin' },
  'valuation/report': { totalArea: 72, city: 'Berlin' },
  'valuation/rent': { propertyCategory: 'apartment', totalArea: 72, city: 'Berlin' },
  'content/generate': { topic: 'a bright two-room apartment' },
  'text/generate': { prompt: 'Describe the neighbourhood' },
  'avatar/video': { script: 'Welcome to this bright two-room apartment.' },
  'photo/enhance': { mode: 'hdr' },
  'pdf/create': { language: 'en' },
}

/** A value for each field name some tool's sample has: what a new tool's field of that name gets. */
const SAMPLE_BY_NAME: Record<string, unknown> = Object.assign({}, ...Object.values(SAMPLE_FIELDS))

/** The tool's required checked fields, each with a sample: a new row's input is valid with no sample of its own. */
function requiredSamples(tool: ToolId): Record<string, unknown> {
  const required = inputFields(tool).filter((field) => field.required && field.type !== 'file')
  return Object.fromEntries(required.map((field) => [field.name, SAMPLE_BY_NAME[field.name] ?? (field.type === 'number' ? 1 : 'example')]))
}

/** A real file of a type the tool accepts (an image where it takes one, else a video, else a PDF). */
function sampleFile(accept: Record<string, readonly string[]> | undefined): File {
  const types = Object.keys(accept ?? {})
  if (types.some((type) => type.startsWith('image/'))) return new File([photoPng()], 'room.png', { type: 'image/png' })
  if (types.some((type) => type.startsWith('video/'))) return new File([tourVideoMp4()], 'tour.mp4', { type: 'video/mp4' })
  const pdf = encodePdf({ title: 'Sale contract', lines: ['Apartment, 72 m2, Berlin.'] })
  return new File([pdf], 'contract.pdf', { type: 'application/pdf' })
}

/**
 * A valid input for `tool` that the default fixture accepts: sample fields, the demo listing
 * for listing tools, and a fresh real file for file tools. For stories, tests and quick starts.
 */
export function exampleInput<T extends ToolId>(tool: T): ToolInput<T> {
  const row = getTool(tool)
  return {
    ...requiredSamples(tool),
    ...SAMPLE_FIELDS[tool],
    ...('listing' in row && row.listing ? { objectId: MOCK_LISTINGS.demoObject } : {}),
    ...(row.body === 'multipart' ? { file: sampleFile('accept' in row ? row.accept : undefined) } : {}),
  } as ToolInput<T>
}
