// `npm run bench`: the pacing benchmark (scripts/bench.tsx) on the simulated service and the proxy's
// cost per job read (scripts/bench-proxy.ts), under
// Vitest for its TypeScript, jsdom and simulated clock. Not part of the test suite.
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  plugins: [react()],
  test: {
    include: ['scripts/bench.tsx', 'scripts/bench-proxy.ts'],
    environment: 'jsdom',
    disableConsoleIntercept: true,
    testTimeout: 120_000,
  },
})
