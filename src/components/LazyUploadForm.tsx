'use client'
import { lazy } from 'react'
import type { UploadForm } from './UploadForm.js'

/**
 * `<UploadForm>` with its file drop (react-dropzone, file-selector) in a chunk of their own,
 * fetched when a file tool is first shown: a page with JSON tools only never loads them.
 */
export const LazyUploadForm = lazy(async () => ({ default: (await import('./UploadForm.js')).UploadForm })) as unknown as typeof UploadForm
