// The page's clock, moved on by a story instead of waited for: a cap's window or a job's time
// passes at once.

/**
 * Moves `Date.now` ahead by what `advance` adds, until `restore`. Timers keep running on the
 * real clock: the kit's countdowns and elapsed times read `Date.now` again as each second passes,
 * and the proxy in the page reads it on each request, so both see the moved time.
 */
export function pageClock() {
  const realNow = Date.now.bind(Date)
  let ahead = 0
  Date.now = () => realNow() + ahead
  return {
    advance: (ms: number) => {
      ahead += ms
    },
    restore: () => {
      Date.now = realNow
    },
  }
}
