// What the components need of the layers beneath that is not for partners: the strings most of
// them show and their merge, a blob URL's life, a media type's normal form, the chunks they preload.
export { enCore, mergeMessages, type CoreMessages } from './coreMessages.js'
export { useObjectUrl } from './useArtifact.js'
export { loadChecks, loadSender, loadUploads, mediaType, whenIdle } from '../tools/internal.js'
