import { useEffect, useState } from 'react'

/**
 * Calls `onTick` with the time as each whole second counted from `anchor` passes (an anchor
 * ahead counts down to it), until `onTick` returns false. Returns the function that stops it.
 */
function tickEachSecond(anchor: number, onTick: (now: number) => boolean): () => void {
  let timer: ReturnType<typeof setTimeout>
  const schedule = (now: number) => {
    timer = setTimeout(() => {
      const time = Date.now()
      if (onTick(time)) schedule(time)
    }, 1000 - ((((now - anchor) % 1000) + 1000) % 1000))
  }
  schedule(Date.now())
  return () => clearTimeout(timer)
}

/**
 * Milliseconds since `startedAt` (default: this hook's first render), updated as each whole
 * second passes while `running` and held at the moment `running` turns false.
 *
 * The first render reads the clock, so a server and a browser may disagree by the time between
 * them: mark the text that shows it `suppressHydrationWarning`.
 */
export function useElapsed(startedAt: number | undefined, running: boolean): number {
  const [firstSeen] = useState(Date.now)
  const [now, setNow] = useState(firstSeen)
  const start = startedAt ?? firstSeen

  useEffect(() => {
    if (!running) return
    const stop = tickEachSecond(start, (time) => {
      setNow(time)
      return true
    })
    return () => {
      stop()
      // Stopping is the end (or a pause) of the run: the time shown stops at this moment.
      setNow(Date.now())
    }
  }, [start, running])

  return Math.max(0, now - start)
}

/**
 * Milliseconds left of `duration`, updated as each whole second passes. The count starts when
 * `source` first renders and starts over whenever `source` changes (a new error, a new wait).
 */
export function useCountdown(duration: number, source: unknown): number {
  const [count, setCount] = useState({ source, remaining: duration })

  useEffect(() => {
    if (duration <= 0) return
    const endsAt = Date.now() + duration
    return tickEachSecond(endsAt, (time) => {
      const remaining = Math.max(0, endsAt - time)
      setCount({ source, remaining })
      return remaining > 0
    })
  }, [duration, source])

  // Until the first tick for a new source, the whole wait is still ahead.
  return count.source === source ? count.remaining : duration
}

/**
 * Milliseconds left until `until` (ms since the epoch), updated as each whole second of it passes;
 * 0 with none. A new `until` is counted from the render that brings it, not from a time read
 * before (the first render's, long ago when a notice shown all along gets its first wait).
 */
export function useTimeLeft(until: number | undefined): number {
  // The time read, with the `until` it was read for.
  const [clock, setClock] = useState(() => [until, Date.now()] as const)
  let now = clock[1]
  // eslint-disable-next-line react-hooks/purity -- read once per new `until`, then kept in state
  if (clock[0] !== until) setClock([until, (now = Date.now())])
  useEffect(() => {
    if (until === undefined) return
    const update = (time: number) => {
      setClock([until, time])
      return time < until
    }
    // The render read the clock for this `until`: read it again as each second passes.
    return tickEachSecond(until, update)
  }, [until])
  return until === undefined ? 0 : Math.max(0, until - now)
}
