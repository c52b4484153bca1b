import { forwardRef, type ForwardedRef, type HTMLAttributes, type ReactElement, type ReactNode, type Ref } from 'react'

/**
 * What a component's root passes through besides the component's own props: DOM attributes
 * (`id`, `style`, `aria-*`, `data-*`, `className`, event handlers) and a ref.
 */
export type RootProps<E extends HTMLElement = HTMLElement> = Omit<HTMLAttributes<E>, 'children'> & { ref?: Ref<E> }

/**
 * `forwardRef`, so the root takes a ref on React 18.3 as on 19 (where 18 would drop it with a
 * warning), typed so that a generic component (`<ToolRunner tool>`) keeps its type parameter.
 */
export const withRef = forwardRef as <E, P>(
  render: (props: P, ref: ForwardedRef<E>) => ReactNode,
) => (props: P & { ref?: Ref<E> }) => ReactElement | null

/** Joins the class names that are set: `cx('ct-button', active && 'is-active', className)`. */
export function cx(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(' ')
}
