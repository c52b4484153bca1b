import { TOOLS, type ToolId } from '../tools/index.js'
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

function createToolHook<T extends ToolId>(tool: T) {
  return function useNamedTool(options?: UseToolOptions): UseToolResult<T> {
    return useTool(tool, options)
  }
}

/** One hook per catalogue row, named after its id. */
export const toolHooks = Object.fromEntries(TOOLS.map((tool) => [toolHookName(tool.id), createToolHook(tool.id)])) as {
  [T in ToolId as ToolHookName<T>]: (options?: UseToolOptions) => UseToolResult<T>
}

export const {
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
} = toolHooks
