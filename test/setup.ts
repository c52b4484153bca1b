import { cleanup } from '@testing-library/react'
import { afterEach } from 'vitest'

// Vitest runs without globals, so Testing Library cannot register its own cleanup: unmount here.
afterEach(cleanup)
// Each test starts with an empty run journal (localStorage outlives a test's provider).
afterEach(() => globalThis.localStorage?.clear())
