// The far ends of a large upload, in a process of their own so the proxy's process holds only
// the proxy: a stand-in service that counts the bytes it receives and discards them, and an
// uploader that streams a generated multipart body. Orders arrive on stdin, one JSON per line;
// answers leave on stdout, one JSON per line.
import { createServer } from 'node:http'
import { createInterface } from 'node:readline'

let received = { bytes: 0, headers: {} }
const service = createServer((request, response) => {
  let bytes = 0
  request.on('data', (chunk) => (bytes += chunk.length))
  request.on('end', () => {
    received = { bytes, headers: request.headers }
    response.writeHead(202, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ jobId: 'job_upload', status: 'pending', requestId: 'req_upload' }))
  })
})
service.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ service: `http://127.0.0.1:${service.address().port}/v1` }))
})

/** A multipart body with one file part of `size` bytes, made 64 KiB at a time as it is read. */
function multipart(size, boundary) {
  const encoder = new TextEncoder()
  const head = encoder.encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="data"\r\n\r\n{}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="tour.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  )
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`)
  const chunk = new Uint8Array(64 * 1024).fill(7)
  let left = size
  let started = false
  return new ReadableStream({
    pull(controller) {
      if (!started) {
        started = true
        controller.enqueue(head)
      } else if (left > 0) {
        const next = Math.min(left, chunk.length)
        controller.enqueue(next === chunk.length ? chunk.slice() : chunk.slice(0, next))
        left -= next
      } else {
        controller.enqueue(tail)
        controller.close()
      }
    },
  })
}

createInterface({ input: process.stdin }).on('line', async (line) => {
  const { url, size } = JSON.parse(line)
  const boundary = 'upload-boundary'
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'idempotency-key': 'upload-1',
        'x-user': 'alice',
        cookie: 'session=browser-cookie',
        authorization: 'Bearer browser-token',
      },
      body: multipart(size, boundary),
      duplex: 'half',
    })
    console.log(JSON.stringify({ status: response.status, body: await response.text(), received }))
  } catch (error) {
    console.log(JSON.stringify({ error: String(error) }))
  }
})
