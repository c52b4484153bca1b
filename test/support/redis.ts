import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from 'redis'

/** A free loopback port, as the OS hands one out. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

/**
 * A real redis-server of its own, on a free loopback port with a temporary directory and no
 * persistence; `stop()` ends it and removes the directory. Fails plainly when redis-server is
 * not installed (Debian: apt-get install redis-server; .ci/run installs it).
 */
export async function startRedis() {
  const binary = process.env.REDIS_SERVER ?? 'redis-server'
  if (spawnSync(binary, ['--version']).status !== 0) {
    throw new Error(`redis-server is not installed (looked for "${binary}"): apt-get install redis-server, or set REDIS_SERVER.`)
  }
  const dir = mkdtempSync(join(tmpdir(), 'tools-proxy-redis-'))
  const port = await freePort()
  const launch = () =>
    spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    })
  let child = launch()
  const url = `redis://127.0.0.1:${port}`
  const exited = () => (child.exitCode === null && child.signalCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined)
  const clients: { quit(): Promise<unknown> }[] = []
  /**
   * A connected client; redis-server may take a moment to listen, so connecting is retried. With
   * `reconnect`, the client reconnects by itself after a restart (as an application's would).
   */
  const connect = async ({ reconnect = false } = {}) => {
    for (let attempt = 0; ; attempt++) {
      const client = createClient({ url, socket: { reconnectStrategy: reconnect ? () => 20 : false } })
      client.on('error', () => {})
      try {
        await client.connect()
        clients.push(client)
        return client
      } catch (error) {
        if (attempt > 100 || child.exitCode !== null) throw error
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    }
  }
  return {
    url,
    connect,
    /** Ends the server as a crash would, keeping its port for `revive()`. */
    async kill() {
      const exit = exited()
      child.kill('SIGKILL')
      await exit
    },
    /** Starts the server again on the same port, empty. */
    revive() {
      child = launch()
    },
    /** Freezes the server (SIGSTOP): connections stay open, commands wait unanswered until `resume()`. */
    pause() {
      child.kill('SIGSTOP')
    },
    resume() {
      child.kill('SIGCONT')
    },
    async stop() {
      await Promise.all(clients.map((client) => client.quit().catch(() => {})))
      const exit = exited()
      child.kill('SIGCONT') // a paused server would not end
      child.kill('SIGTERM')
      await exit
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
