// What the components need of the layers beneath that is not for partners: the strings' merge,
// a blob URL's life, a media type's normal form.
export { mergeMessages } from './messages.js'
export { useObjectUrl } from './useArtifact.js'
export { loadChecks, mediaType, whenIdle } from '../tools/internal.js'
