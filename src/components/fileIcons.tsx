// Icons of result files, drawn as the others (icons.tsx), kept apart: only the file viewer and the
// file drop, each a chunk of its own, show them, so a page's first load carries none of them.
import { Icon, type IconProps } from './icons.js'

/** An arrow into a tray: downloads. */
export function DownloadIcon({ className }: IconProps) {
  return <Icon className={className} size={16} d="M8 2.5V10M4.75 7 8 10.25 11.25 7M3 13.25h10" />
}

/** An arrow out of a box: opens elsewhere. */
export function ExternalLinkIcon({ className }: IconProps) {
  return <Icon className={className} size={16} d="M9.5 2.75h3.75V6.5M13 3 7.5 8.5M11.5 9.5v3a.75.75 0 0 1-.75.75h-7a.75.75 0 0 1-.75-.75v-7a.75.75 0 0 1 .75-.75h3" />
}

/** A page with a folded corner: a file with no preview. */
export function FileIcon({ className }: IconProps) {
  return <Icon className={className} size={24} d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8l-5-5v5h5" />
}
