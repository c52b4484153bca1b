import type { Accept } from 'react-dropzone'
import { getTool, type FileToolId } from '../react/index.js'

/**
 * Default size limit for images and documents: 20 MB (decimal, as sizes are shown). The
 * service's own limits are not published (spec part 8), so this is the kit's assumption.
 */
export const DEFAULT_MAX_FILE_SIZE = 20_000_000

/** Default size limit when video is accepted (or any type at all): 200 MB. */
export const DEFAULT_MAX_VIDEO_SIZE = 200_000_000

/** The types a file tool takes by default: the `accept` of its catalogue row. */
export function toolAccept(tool: FileToolId | undefined): Accept | undefined {
  return tool && getTool(tool).accept
}

/** 200 MB where video may come (or anything at all), 20 MB for images and documents. */
export function defaultMaxSize(accept: Accept | undefined): number {
  return !accept || Object.keys(accept).some((type) => type.startsWith('video/') || type === '*/*')
    ? DEFAULT_MAX_VIDEO_SIZE
    : DEFAULT_MAX_FILE_SIZE
}

/** Whether the browser can show the file as a picture (HEIC and the like fall back to an icon). */
export function isPreviewable(file: Blob): boolean {
  return file.type.startsWith('image/')
}
