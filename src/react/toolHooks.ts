import type { ToolId } from '../tools/index.js'
import { useTool, type UseToolOptions, type UseToolResult } from './useTool.js'

type Pascal<Id extends string> = Id extends `${infer Head}/${infer Tail}`
  ? `${Capitalize<Head>}${Pascal<Tail>}`
  : Capitalize<Id>

/** `valuation/rent` → `useValuationRent`. */
export type ToolHookName<T extends ToolId> = `use${Pascal<T>}`

export function toolHookName<T extends ToolId>(tool: T): ToolHookName<T> {
  return `use${tool
    .split('/')
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('')}` as ToolHookName<T>
}

// One hook per catalogue row, named after its id. Declared one by one, so a bundle keeps only
// the hooks an app imports.
export function useValuationExpress(options?: UseToolOptions) {
  return useTool('valuation/express', options)
}

export function useValuationReport(options?: UseToolOptions) {
  return useTool('valuation/report', options)
}

export function useValuationRent(options?: UseToolOptions) {
  return useTool('valuation/rent', options)
}

export function useValuationReview(options?: UseToolOptions) {
  return useTool('valuation/review', options)
}

export function useContentGenerate(options?: UseToolOptions) {
  return useTool('content/generate', options)
}

export function useTextGenerate(options?: UseToolOptions) {
  return useTool('text/generate', options)
}

export function useAvatarVideo(options?: UseToolOptions) {
  return useTool('avatar/video', options)
}

export function useVideoCreate(options?: UseToolOptions) {
  return useTool('video/create', options)
}

export function usePhotoEnhance(options?: UseToolOptions) {
  return useTool('photo/enhance', options)
}

export function useFloorplanCreate(options?: UseToolOptions) {
  return useTool('floorplan/create', options)
}

export function useDraftExtract(options?: UseToolOptions) {
  return useTool('draft/extract', options)
}

export function useSiteCreate(options?: UseToolOptions) {
  return useTool('site/create', options)
}

export function usePdfCreate(options?: UseToolOptions) {
  return useTool('pdf/create', options)
}

/** The thirteen hooks by name; the type checks that every catalogue row has its hook. */
export const toolHooks = {
  useValuationExpress,
  useValuationReport,
  useValuationRent,
  useValuationReview,
  useContentGenerate,
  useTextGenerate,
  useAvatarVideo,
  useVideoCreate,
  usePhotoEnhance,
  useFloorplanCreate,
  useDraftExtract,
  useSiteCreate,
  usePdfCreate,
} satisfies { [T in ToolId as ToolHookName<T>]: (options?: UseToolOptions) => UseToolResult<T> }
