import { useRef, type PointerEvent } from 'react'

/** How long after a release its click may come (a tap's, on a busy phone). */
const CLICK_WAIT = 300

/**
 * Holds a change to a form while a pointer is down on its submit button: a problem line that
 * goes (or comes) between press and release moves the button under the pointer, and the click
 * lands elsewhere. The change runs after the press's click (a tap's may come a turn after the
 * release); of several held, the latest (each is the form's whole state).
 *
 * `press` goes on the form's `onPointerDown`; `whenReleased(change)` runs `change` now, or after the press.
 */
export function useHeldDuringPress() {
  // null: no press; else the change held so far, if any.
  const held = useRef<(() => void) | null | undefined>(null)
  const press = (event: PointerEvent) => {
    if ((event.target as HTMLButtonElement).type !== 'submit') return
    held.current = undefined
    const ended = new AbortController()
    const apply = () => {
      const change = held.current
      held.current = null
      change?.()
    }
    // After the click the release makes: a mouse's comes in the release's turn, a tap's may come
    // a turn or more later.
    const release = () => {
      ended.abort()
      setTimeout(apply, CLICK_WAIT)
    }
    addEventListener('pointerup', release, ended)
    addEventListener('pointercancel', release, ended)
  }
  const whenReleased = (change: () => void) => {
    if (held.current === null) change()
    else held.current = change
  }
  return { press, whenReleased }
}
