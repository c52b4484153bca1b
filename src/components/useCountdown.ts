import { useEffect, useState } from 'react'

/**
 * Milliseconds left of `duration`, updated as each whole second passes. The count starts when
 * `source` first renders and starts over whenever `source` changes (a new error, a new wait).
 */
export function useCountdown(duration: number, source: unknown): number {
  const [count, setCount] = useState({ source, remaining: duration })

  useEffect(() => {
    if (duration <= 0) return
    const endsAt = Date.now() + duration
    let timer: ReturnType<typeof setTimeout>
    const tick = () => {
      const remaining = Math.max(0, endsAt - Date.now())
      setCount({ source, remaining })
      // Wake as the next whole second passes, so the seconds shown change on time.
      if (remaining > 0) timer = setTimeout(tick, remaining % 1000 || 1000)
    }
    timer = setTimeout(tick, duration % 1000 || 1000)
    return () => clearTimeout(timer)
  }, [duration, source])

  // Until the first tick for a new source, the whole wait is still ahead.
  return count.source === source ? count.remaining : duration
}
