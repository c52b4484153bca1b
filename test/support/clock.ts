import { act } from '@testing-library/react'
import type { SetupServer } from 'msw/node'
import { afterEach, beforeAll, beforeEach, vi } from 'vitest'
import { loadViewers } from '../../src/components/RunOutcome.js'
import { loadUploadForm } from '../../src/components/UploadForm.js'
import { loadArtifacts, loadChecks, loadJobs, loadSender, loadUploads } from '../../src/tools/internal.js'

/**
 * Fake time for a test file: timers and `Date` (which the simulated service's job clock and rate
 * limiter read) move only when the test advances them, so nothing depends on how fast the machine
 * is. Microtasks and `setImmediate` stay real: requests to the simulated service are answered
 * between steps, and a step does not start while one is still being answered.
 *
 * Use the returned `advance(ms)` to move time, and `until(check)` where Testing Library's
 * `waitFor` would be (its own timers are fake too and would never fire).
 */
export function fakeClock(server: SetupServer, { each = true }: { each?: boolean } = {}) {
  beforeAll(async () => {
    await loadChunks()
  })
  let inFlight = 0
  server.events.on('request:start', () => void inFlight++)
  server.events.on('request:end', () => void inFlight--)

  beforeEach(() => {
    inFlight = 0
    // `each: false`: the tests that want fake time install it themselves.
    if (each) vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] })
  })
  afterEach(() => {
    if (each) vi.useRealTimers()
  })

  /** Real turns of the event loop until no request is being answered (bounded: an answer may itself wait on fake time). */
  async function settle() {
    for (let turn = 0; turn < 3 || (inFlight > 0 && turn < 500); turn++) {
      await new Promise((resolve) => setImmediate(resolve))
    }
    await act(async () => {})
  }

  /** Moves time on by `ms`, `step` ms at a time, letting every request due in between be answered. */
  async function advance(ms: number, step = 5) {
    await settle()
    for (let done = 0; done < ms; done += step) {
      await act(() => vi.advanceTimersByTimeAsync(Math.min(step, ms - done)))
      await settle()
    }
  }

  /** Advances time until `check` stops throwing (up to `timeout` ms of fake time), like `waitFor`; returns what it returns. */
  async function until<T>(check: () => T, { step = 5, timeout = 10_000 } = {}): Promise<T> {
    await settle()
    for (let elapsed = 0; ; elapsed += step) {
      try {
        return check()
      } catch (error) {
        if (elapsed >= timeout) throw error
      }
      await advance(step, step)
    }
  }

  /**
   * Advances time until `action` settles: a `runAsync` that polls, or a user-event action
   * (`userEvent.click(…)`), after which Testing Library waits on a timer of its own.
   */
  async function drive<T>(action: Promise<T>): Promise<T> {
    let done = false
    const finish = () => {
      done = true
    }
    action.then(finish, finish)
    while (!done) await advance(1, 1)
    return action
  }

  return { advance, until, settle, drive }
}


/**
 * The kit's code that comes in chunks loaded by import() (the input checks, the sender, the code that
 * follows jobs, the upload with progress, downloads, the result viewers, the upload form with its drop),
 * which no fake timer moves: fake-clock tests load it first, as a page idle before would have, so
 * no step of a test waits on them.
 */
export const loadChunks = () =>
  Promise.all([loadChecks(), loadSender(), loadJobs(), import('../../src/client/runs/durable.js'), loadUploads(), loadArtifacts(), loadViewers(), loadUploadForm()])

/** Fake timers for the clocks the kit, TanStack Query and the simulated service read, for tests that install them themselves. */
export async function useFakeClock() {
  await loadChunks()
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
