import { request as httpRequest } from 'node:http'

/**
 * A POST over a raw loopback connection, as a stranger's client sends one: the headers given
 * (Content-Length or not), then `bytes` of body in 64 KiB chunks, or the first `stallAfter` bytes
 * and nothing more until `close()`. Resolves with the status as soon as an answer arrives, even
 * while the body is still on its way; 0 when the connection ended with none.
 */
export function rawPost(url: string, headers: Record<string, string>, bytes: number, stallAfter = Infinity) {
  const chunk = new Uint8Array(64 * 1024).fill(32)
  const client = httpRequest(url, { method: 'POST', headers })
  client.on('error', () => {}) // a server that answers early may reset the rest
  const status = new Promise<number>((resolve) => {
    client.on('response', (response) => {
      resolve(response.statusCode ?? 0)
      response.resume()
    })
    client.on('close', () => resolve(0))
  })
  void (async () => {
    for (let sent = 0; sent < Math.min(bytes, stallAfter) && !client.destroyed; sent += chunk.length) {
      const part = chunk.subarray(0, Math.min(chunk.length, bytes - sent, stallAfter - sent))
      if (!client.write(part)) await drained(client)
    }
    if (stallAfter >= bytes && !client.destroyed) client.end()
  })()
  /** When the connection ended, whoever ended it. */
  const closed = new Promise<void>((resolve) => client.on('close', () => resolve()))
  return { status, closed, close: () => client.destroy() }
}

/** Until the connection takes more, or closes. */
function drained(client: ReturnType<typeof httpRequest>) {
  return new Promise<void>((resolve) => {
    const done = () => {
      client.off('drain', done).off('close', done)
      resolve()
    }
    client.on('drain', done).on('close', done)
  })
}
