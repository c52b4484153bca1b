// The React layer, with the catalogue and client beneath it (components import only from here).
export * from '../tools/index.js'
export { useToolsContext } from './context.js'
export type { ToolsContextValue } from './context.js'
export { en } from './messages.js'
export type { Messages, PartialMessages } from './messages.js'
export { ToolsProvider } from './ToolsProvider.js'
export type { ToolsProviderProps } from './ToolsProvider.js'
export { useTool } from './useTool.js'
export type { RunOptions, ToolPhase, UseToolOptions, UseToolResult } from './useTool.js'
export { useRuns } from './useRuns.js'
export type { UseRunsOptions, UseRunsResult } from './useRuns.js'
export { useForgetRuns } from './useForgetRuns.js'
export type { JournalStore, Run, RunPhase } from './journal.js'
export {
  useAvatarVideo,
  useContentGenerate,
  useDraftExtract,
  useFloorplanCreate,
  usePdfCreate,
  usePhotoEnhance,
  useSiteCreate,
  useTextGenerate,
  useValuationExpress,
  useValuationRent,
  useValuationReport,
  useValuationReview,
  useVideoCreate,
} from './toolHooks.js'
export { useJob } from './useJob.js'
export type { UseJobOptions, UseJobResult } from './useJob.js'
export { useUsage } from './useUsage.js'
export type { UseUsageResult } from './useUsage.js'
export { useArtifact } from './useArtifact.js'
export type { ArtifactKind, UseArtifactResult } from './useArtifact.js'
export { QUERY_NAMESPACE } from './keys.js'
