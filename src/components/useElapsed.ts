import { useEffect, useState } from 'react'

/** Milliseconds to the next whole second counted from `start`. */
const toNextSecond = (start: number, now: number) => 1000 - ((((now - start) % 1000) + 1000) % 1000)

/**
 * Milliseconds since `startedAt` (default: this hook's first render), updated as each whole
 * second passes while `running` and held at the moment `running` turns false.
 *
 * The first render reads the clock, so a server and a browser may disagree by the time between
 * them: mark the text that shows it `suppressHydrationWarning`.
 */
export function useElapsed(startedAt: number | undefined, running: boolean): number {
  const [firstSeen] = useState(() => Date.now())
  const [now, setNow] = useState(firstSeen)
  const start = startedAt ?? firstSeen

  useEffect(() => {
    if (!running) return
    let timer: ReturnType<typeof setTimeout>
    const tick = () => {
      const time = Date.now()
      setNow(time)
      timer = setTimeout(tick, toNextSecond(start, time))
    }
    timer = setTimeout(tick, toNextSecond(start, Date.now()))
    return () => {
      clearTimeout(timer)
      // Stopping is the end (or a pause) of the run: the time shown stops at this moment.
      setNow(Date.now())
    }
  }, [start, running])

  return Math.max(0, now - start)
}
