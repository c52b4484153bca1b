// Makes one PDF of a listing with the Tools API, and survives a crash at any moment of it: the
// run is journaled in a file before its POST leaves, so the script started again takes it up
// (a POST never answered is re-sent with its own Idempotency-Key: a replay, not a second bill).
//   TOOLS_BASE_URL=https://…/v1 TOOLS_API_KEY=… node run.mjs
import { createToolsClient } from '@cabinet/tools-react/client'
import { fileStorage } from './fileStorage.mjs'

const client = createToolsClient({
  baseUrl: process.env.TOOLS_BASE_URL,
  apiKey: process.env.TOOLS_API_KEY,
  journal: fileStorage(process.env.TOOLS_JOURNAL ?? 'tools-journal.json'),
  pollIntervalMs: Number(process.env.TOOLS_POLL_INTERVAL) || undefined,
})

// First whatever a crash left; then, if nothing was left, the run itself.
const [left] = await client.resume()
if (left?.error) throw left.error
const job = left?.job ?? (await client.run('pdf/create', { objectId: process.env.OBJECT_ID ?? 'obj_demo', language: 'en' }))
console.log(JSON.stringify({ jobId: job.jobId, phase: job.phase, artifacts: job.artifacts }))
