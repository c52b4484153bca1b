import { useRef, type PointerEvent as ReactPointerEvent, type MouseEvent as ReactMouseEvent } from 'react'

/** The events that end a press: the click, if any, comes in the same turn. */
const RELEASES = ['pointerup', 'pointercancel', 'mouseup'] as const

/**
 * Holds changes to a form while a pointer is down on its submit button: a problem line that
 * goes (or comes) between press and release moves the button under the pointer, and the click
 * lands elsewhere. Held changes run when the press ends, after its click.
 *
 * `press` goes on the form's `onPointerDown` and `onMouseDown` (a press makes both; only the
 * first counts); `whenReleased(change)` runs `change` now, or after the press; `drop()` forgets
 * the held changes (a submit has made them moot).
 */
export function useHeldDuringPress() {
  const held = useRef<(() => void)[] | null>(null)
  const press = (event: ReactPointerEvent | ReactMouseEvent) => {
    if (held.current || !(event.target instanceof Element) || !event.target.closest('button[type="submit"]')) return
    held.current = []
    const release = () => {
      for (const type of RELEASES) document.removeEventListener(type, release)
      // After the click the release makes, in the same turn.
      setTimeout(() => {
        const changes = held.current ?? []
        held.current = null
        for (const change of changes) change()
      })
    }
    for (const type of RELEASES) document.addEventListener(type, release)
  }
  const whenReleased = (change: () => void) => {
    if (held.current) held.current.push(change)
    else change()
  }
  const drop = () => {
    if (held.current) held.current.length = 0
  }
  return { press, whenReleased, drop }
}
