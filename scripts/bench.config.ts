// `npm run bench`: the pacing benchmark (scripts/bench.tsx) on the simulated service, under
// Vitest for its TypeScript, jsdom and simulated clock. Not part of the test suite.
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  plugins: [react()],
  test: {
    include: ['scripts/bench.tsx'],
    environment: 'jsdom',
    disableConsoleIntercept: true,
    testTimeout: 120_000,
  },
})
