/**
 * The heartbeat timer ticks this often per `heartbeatMs`, and a stream beats once it has been quiet
 * that many ticks: none is quiet longer than `heartbeatMs`, one that just sent an event is not
 * beaten, and streams opened at different times beat at different ticks, not all at once.
 */
const BEAT_TICKS = 15

/** One open stream as its heartbeat sees it. */
export interface Beating {
  /** Ticks since the stream last sent anything: whoever sends sets it to 0. */
  quiet: number
  beat(): void
}

/** Every open stream's heartbeat, on one timer for all of them (running while any is open). */
export function createHeartbeat(heartbeatMs: number) {
  const beating = new Set<Beating>()
  let timer: ReturnType<typeof setInterval> | undefined
  return {
    /** How many streams beat. */
    get size() {
      return beating.size
    },
    /** Beats `stream` from now until the returned function is called. */
    add(stream: Beating) {
      beating.add(stream)
      timer ??= setInterval(
        () => {
          for (const each of beating) if (++each.quiet >= BEAT_TICKS) each.beat()
        },
        Math.max(1, Math.floor(heartbeatMs / BEAT_TICKS)),
      )
      ;(timer as { unref?: () => void }).unref?.()
      return () => {
        beating.delete(stream)
        if (beating.size === 0 && timer !== undefined) {
          clearInterval(timer)
          timer = undefined
        }
      }
    },
  }
}
