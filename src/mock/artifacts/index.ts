import { encodeHtmlPage } from './html.js'
import { tourVideoMp4 } from './mp4.js'
import { encodePdf, type DocumentText } from './pdf.js'
import { floorplanPng, photoPng } from './png.js'

export type { DocumentText } from './pdf.js'
export { TOUR_VIDEO } from './mp4.js'
export { PICTURE_SIZE } from './png.js'

/** What a tool asks the artifact store to make; `filename` is the name the download carries. */
export type ArtifactSpec =
  | ({ type: 'pdf'; filename: string } & DocumentText)
  | ({ type: 'html'; filename: string } & DocumentText)
  | { type: 'png'; filename: string; picture: 'photo' | 'floorplan' }
  | { type: 'mp4'; filename: string }

/** A stored result file, downloadable only with the key that created it. */
export interface StoredArtifact {
  id: string
  key: string
  filename: string
  /** What it was made from: a kept service makes it again from this. */
  spec: ArtifactSpec
  contentType: string
  bytes: Uint8Array<ArrayBuffer>
}

/** Renders a file's bytes and media type. */
export function renderArtifact(spec: ArtifactSpec): Pick<StoredArtifact, 'bytes' | 'contentType'> {
  switch (spec.type) {
    case 'pdf':
      return { contentType: 'application/pdf', bytes: encodePdf(spec) }
    case 'html':
      return { contentType: 'text/html; charset=utf-8', bytes: encodeHtmlPage(spec) }
    case 'png':
      return { contentType: 'image/png', bytes: spec.picture === 'photo' ? photoPng() : floorplanPng() }
    case 'mp4':
      return { contentType: 'video/mp4', bytes: tourVideoMp4() }
  }
}
