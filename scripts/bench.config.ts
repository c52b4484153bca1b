// `npm run bench`: the pacing benchmark (scripts/bench.tsx) on the simulated service, the proxy's
// cost per job read and per call with and without telemetry (scripts/bench-proxy.ts) and live
// updates on a real Redis (scripts/bench-live.tsx), one Redis beside a Redis Cluster
// (scripts/bench-cluster.ts), and object requests and time on Workers (scripts/bench-cloudflare.ts), under
// Vitest for its TypeScript, jsdom and simulated clock. Not part of the test suite.
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  plugins: [react()],
  test: {
    include: ['scripts/bench.tsx', 'scripts/bench-proxy.ts', 'scripts/bench-live.tsx', 'scripts/bench-cluster.ts', 'scripts/bench-cloudflare.ts'],
    // One file at a time: each measures the machine as if alone on it.
    fileParallelism: false,
    // Memory per stream is read after a collection.
    execArgv: ['--expose-gc'],
    environment: 'jsdom',
    disableConsoleIntercept: true,
    testTimeout: 120_000,
  },
})
