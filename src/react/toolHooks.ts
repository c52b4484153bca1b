// Made from the catalogue (src/tools/catalogue.ts) by scripts/derive.mjs, which build, test and
// start run: edit the catalogue, not this file. One hook per row, named after its id (`toolHookName`).
import { useTool, type UseToolOptions } from './useTool.js'

/**
 * The `valuation/express` tool (`POST /valuation/express`), sent as JSON; any key may call it.
 * Answers at once: `result` is the `Result`.
 * The spec names no fields: any JSON object passes through, unless `Register` declares this tool’s inputs.
 *
 * @example
 * const express = useValuationExpress()
 * express.run({ totalArea: 72, city: 'Berlin' })
 */
export function useValuationExpress(options?: UseToolOptions) {
  return useTool('valuation/express', options)
}

/**
 * The `valuation/report` tool (`POST /valuation/report`), sent as JSON; needs the key's scope `tools:valuation`.
 * Creates a job and follows it to its end: `job` while it runs, `result` the finished `Job`; journaled and resumed after a reload.
 * The spec names no fields: any JSON object passes through, unless `Register` declares this tool’s inputs.
 *
 * @example
 * const report = useValuationReport()
 * report.run({ totalArea: 72, city: 'Berlin' })
 */
export function useValuationReport(options?: UseToolOptions) {
  return useTool('valuation/report', options)
}

/**
 * The `valuation/rent` tool (`POST /valuation/rent`), sent as JSON; needs the key's scope `tools:rent`.
 * Answers at once: `result` is the `Result`.
 * Checked fields: `propertyCategory`, `totalArea`, `city`; any other field passes through, unless `Register` declares this tool’s inputs.
 *
 * @example
 * const rent = useValuationRent()
 * rent.run({ propertyCategory: 'apartment', totalArea: 72, city: 'Berlin' })
 */
export function useValuationRent(options?: UseToolOptions) {
  return useTool('valuation/rent', options)
}

/**
 * The `valuation/review` tool (`POST /valuation/review`), sent as multipart: the file in the part `file`, options as JSON in `data`; needs the key's scope `tools:review`.
 * Creates a job and follows it to its end: `job` while it runs, `result` the finished `Job`; journaled and resumed after a reload.
 * Checked fields: `file` (a `Blob`); any other field passes through, unless `Register` declares this tool’s inputs.
 *
 * @example
 * const review = useValuationReview()
 * review.run({ file })
 */
export function useValuationReview(options?: UseToolOptions) {
  return useTool('valuation/review', options)
}

/**
 * The `content/generate` tool (`POST /content/generate`), sent as JSON; needs the key's scope `tools:contentgen`.
 * Creates a job and follows it to its end: `job` while it runs, `result` the finished `Job`; journaled and resumed after a reload.
 * The spec names no fields: any JSON object passes through, unless `Register` declares this tool’s inputs.
 *
 * @example
 * const content = useContentGenerate()
 * content.run({ topic: 'a bright two-room apartment' })
 */
export function useContentGenerate(options?: UseToolOptions) {
  return useTool('content/generate', options)
}

/**
 * The `text/generate` tool (`POST /text/generate`), sent as JSON; needs the key's scope `tools:text`.
 * Creates a job and follows it to its end: `job` while it runs, `result` the finished `Job`; journaled and resumed after a reload.
 * The spec names no fields: any JSON object passes through, unless `Register` declares this tool’s inputs.
 *
 * @example
 * const text = useTextGenerate()
 * text.run({ prompt: 'Describe the neighbourhood' })
 */
export function useTextGenerate(options?: UseToolOptions) {
  return useTool('text/generate', options)
}

/**
 * The `avatar/video` tool (`POST /avatar/video`), sent as JSON; needs the key's scope `tools:avatar`.
 * Creates a job and follows it to its end: `job` while it runs, `result` the finished `Job`; journaled and resumed after a reload.
 * The spec names no fields: any JSON object passes through, unless `Register` declares this tool’s inputs.
 *
 * @example
 * const avatar = useAvatarVideo()
 * avatar.run({ script: 'Welcome to this bright two-room apartment.' })
 */
export function useAvatarVideo(options?: UseToolOptions) {
  return useTool('avatar/video', options)
}

/**
 * The `video/create` tool (`POST /video/create`), sent as multipart: the file in the part `file`, options as JSON in `data`; needs the key's scope `tools:video`.
 * Creates a job and follows it to its end: `job` while it runs, `result` the finished `Job`; journaled and resumed after a reload.
 * Checked fields: `file` (a `Blob`); any other field passes through, unless `Register` declares this tool’s inputs.
 *
 * @example
 * const video = useVideoCreate()
 * video.run({ file })
 */
export function useVideoCreate(options?: UseToolOptions) {
  return useTool('video/create', options)
}

/**
 * The `photo/enhance` tool (`POST /photo/enhance`), sent as multipart: the file in the part `image`, options as JSON in `data`; needs the key's scope `tools:photo`.
 * Creates a job and follows it to its end: `job` while it runs, `result` the finished `Job`; journaled and resumed after a reload.
 * Checked fields: `file` (a `Blob`), `mode` (optional); any other field passes through, unless `Register` declares this tool’s inputs.
 *
 * @example
 * const photo = usePhotoEnhance()
 * photo.run({ mode: 'hdr', file })
 */
export function usePhotoEnhance(options?: UseToolOptions) {
  return useTool('photo/enhance', options)
}

/**
 * The `floorplan/create` tool (`POST /floorplan/create`), sent as multipart: the file in the part `file`, options as JSON in `data`; needs the key's scope `tools:floorplan`.
 * Creates a job and follows it to its end: `job` while it runs, `result` the finished `Job`; journaled and resumed after a reload.
 * Checked fields: `file` (a `Blob`); any other field passes through, unless `Register` declares this tool’s inputs.
 *
 * @example
 * const floorplan = useFloorplanCreate()
 * floorplan.run({ file })
 */
export function useFloorplanCreate(options?: UseToolOptions) {
  return useTool('floorplan/create', options)
}

/**
 * The `draft/extract` tool (`POST /draft/extract`), sent as multipart: the file in the part `file`, options as JSON in `data`; needs the key's scope `tools:draft`.
 * Answers at once: `result` is the `Result`.
 * Checked fields: `file` (a `Blob`); any other field passes through, unless `Register` declares this tool’s inputs.
 *
 * @example
 * const draft = useDraftExtract()
 * draft.run({ file })
 */
export function useDraftExtract(options?: UseToolOptions) {
  return useTool('draft/extract', options)
}

/**
 * The `site/create` tool (`POST /site/create`), sent as JSON; needs the key's scope `tools:sitegen`.
 * Answers at once: `result` is the `Result`.
 * Checked fields: `objectId` or `collectionId` (a listing of the caller’s); any other field passes through, unless `Register` declares this tool’s inputs.
 *
 * @example
 * const site = useSiteCreate()
 * site.run({ objectId: 'obj_demo' })
 */
export function useSiteCreate(options?: UseToolOptions) {
  return useTool('site/create', options)
}

/**
 * The `pdf/create` tool (`POST /pdf/create`), sent as JSON; needs the key's scope `tools:pdf`.
 * Creates a job and follows it to its end: `job` while it runs, `result` the finished `Job`; journaled and resumed after a reload.
 * Checked fields: `objectId` or `collectionId` (a listing of the caller’s), `language` (optional); any other field passes through, unless `Register` declares this tool’s inputs.
 *
 * @example
 * const pdf = usePdfCreate()
 * pdf.run({ language: 'en', objectId: 'obj_demo' })
 */
export function usePdfCreate(options?: UseToolOptions) {
  return useTool('pdf/create', options)
}
