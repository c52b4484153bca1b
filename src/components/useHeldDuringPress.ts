import { useRef, type PointerEvent } from 'react'

/** How long after a release its click may come (a tap's, on a busy phone); none by then, the press made none. */
const CLICK_WAIT = 500

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
    // a turn or more later. With none (the pointer left the button, or the press was cancelled), at once.
    const release = (event: Event) => {
      ended.abort()
      if (event.type === 'pointercancel') return void setTimeout(apply)
      const clicked = new AbortController()
      const settle = () => {
        if (clicked.signal.aborted) return
        clicked.abort()
        clearTimeout(timer)
        setTimeout(apply)
      }
      addEventListener('click', settle, { capture: true, signal: clicked.signal })
      const timer = setTimeout(settle, CLICK_WAIT)
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
