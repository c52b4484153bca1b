import { act } from '@testing-library/react'
import { vi } from 'vitest'

/** Fake timers for the clocks the kit, TanStack Query and the simulated service read. */
export function useFakeClock() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] })
}

/**
 * Moves the fake clock (the mock's job clock reads it too) in small steps, one act each, so React
 * commits and runs effects between them, and lets the event loop turn (no real time passes) so
 * intercepted requests are answered as they would be.
 */
export async function advance(ms: number) {
  for (let left = ms, turns = 0; left > 0 || turns < 10; left -= 50, turns++) {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(Math.max(1, Math.min(50, left)))
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve))
    })
  }
}
