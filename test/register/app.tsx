// A partner's app that declares its result and input types once, in `Register`. Checked on its
// own by test/register.test.ts (the declaration would change the kit's types for every other file).
import {
  createToolsClient,
  ResultView,
  ToolRunner,
  useJob,
  usePhotoEnhance,
  useTextGenerate,
  useValuationRent,
  type Job,
  type ResultViewProps,
  type ToolInput,
  type ToolResult,
} from '@cabinet/tools-react'
import { expectTypeOf } from 'vitest'

interface Rent {
  monthlyRent: number
  currency: string
}

declare module '@cabinet/tools-react' {
  interface Register {
    results: { 'valuation/rent': Rent; 'pdf/create': { pages: number } }
    inputs: {
      'valuation/rent': { propertyCategory: string; totalArea: number; city: string; rooms?: number }
      'photo/enhance': { mode?: 'hdr' | 'natural' }
    }
  }
}

const client = createToolsClient({ baseUrl: 'https://tools.example/v1', apiKey: 'key' })

export function RentEstimate() {
  const rent = useValuationRent()
  rent.run({ propertyCategory: 'flat', totalArea: 54, city: 'Kazan', rooms: 2 })
  // @ts-expect-error: `totalarea` is not a declared input of valuation/rent
  rent.run({ propertyCategory: 'flat', totalArea: 54, city: 'Kazan', totalarea: 54 })
  // @ts-expect-error: a declared input keeps the fields the catalogue checks
  rent.run({ propertyCategory: 'flat', totalArea: 54 })
  if (rent.phase === 'succeeded') expectTypeOf(rent.result.data).toEqualTypeOf<Rent>()
  return <ToolRunner tool="valuation/rent" onResult={(result) => expectTypeOf(result.data).toEqualTypeOf<Rent>()} />
}

export function PhotoButton({ file }: { file: File }) {
  const photo = usePhotoEnhance()
  photo.run({ file, mode: 'hdr' })
  // @ts-expect-error: the declared options are closed…
  photo.run({ file, mode: 'sepia' })
  // @ts-expect-error: …and the file stays required (the catalogue's field)
  photo.run({ mode: 'hdr' })
  return null
}

export function PdfStatus({ jobId }: { jobId: string }) {
  const { data: job } = useJob('pdf/create', jobId)
  // The declared body is the succeeded job's; before then the body is unknown.
  if (job?.phase === 'succeeded') expectTypeOf(job.data).toEqualTypeOf<{ pages: number }>()
  if (job?.phase === 'running') expectTypeOf(job.data).toEqualTypeOf<unknown>()
  expectTypeOf(job).toEqualTypeOf<Job<'pdf/create', { pages: number }> | undefined>()
  return null
}

export function Answer({ result }: { result: ToolResult<'valuation/rent'> }) {
  expectTypeOf<ResultViewProps<'valuation/rent'>['result']['data']>().toEqualTypeOf<Rent>()
  // @ts-expect-error: a rent result has the declared shape
  void (<ResultView<'valuation/rent'> result={{ tool: 'valuation/rent', data: { rent: 1 }, artifacts: [] }} />)
  return <ResultView result={result} />
}

export async function withoutReact() {
  const rent = await client.run('valuation/rent', { propertyCategory: 'flat', totalArea: 54, city: 'Kazan' })
  expectTypeOf(rent.data).toEqualTypeOf<Rent>()
  const pdf = await client.run('pdf/create', { objectId: 'obj_demo' })
  expectTypeOf(pdf.data).toEqualTypeOf<{ pages: number }>()
  // Undeclared tools stay as they were: any field passes, the body is unknown.
  const text = await client.run('text/generate', { prompt: 'Describe the street', tone: 'warm' })
  expectTypeOf(text.data).toEqualTypeOf<unknown>()
  expectTypeOf<ToolInput<'text/generate'>>().toExtend<Record<string, unknown>>()
  void useTextGenerate
}
