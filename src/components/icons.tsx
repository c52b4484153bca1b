// Decorative outline icons in currentColor. Each is drawn on a grid of its own size in pixels,
// so one stroke width suits them all; sized by attribute, so they stay small with no stylesheet.

export interface IconProps {
  className?: string
}

export function Icon({ className, size, d }: IconProps & { size: number; d: string }) {
  return (
    <svg
      className={className}
      width={size}
      height={size}
      viewBox={`0 0 ${size} ${size}`}
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d={d} />
    </svg>
  )
}

/** A ring with an exclamation mark: something went wrong. */
export function AlertIcon({ className }: IconProps) {
  return <Icon className={className} size={20} d="M10 1.75a8.25 8.25 0 1 1 0 16.5 8.25 8.25 0 0 1 0-16.5ZM10 5.75v5m0 3v.25" />
}

/** A cross: close or remove. */
export function CloseIcon({ className }: IconProps) {
  return <Icon className={className} size={16} d="M4 4l8 8M12 4l-8 8" />
}



/** An arrow rising from a tray: the drop zone's sign. */
export function UploadIcon({ className }: IconProps) {
  return <Icon className={className} size={24} d="M12 15V4M7.5 8.5 12 4l4.5 4.5M4 14v4a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-4" />
}
