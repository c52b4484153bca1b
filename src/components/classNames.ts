/** Joins the class names that are set: `cx('ct-button', active && 'is-active', className)`. */
export function cx(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(' ')
}
