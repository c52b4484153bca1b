import type { HTMLAttributes, Ref } from 'react'

/**
 * What a component's root passes through besides the component's own props: DOM attributes
 * (`id`, `style`, `aria-*`, `data-*`, `className`, event handlers) and a ref (a plain prop in React 19).
 */
export type RootProps<E extends HTMLElement = HTMLElement> = Omit<HTMLAttributes<E>, 'children'> & { ref?: Ref<E> }

/** Joins the class names that are set: `cx('ct-button', active && 'is-active', className)`. */
export function cx(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(' ')
}
