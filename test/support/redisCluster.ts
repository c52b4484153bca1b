import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { createCluster } from 'redis'
import { freePort } from './redis.js'

const run = promisify(execFile)

/** Waits for `ready` to hold, trying every 50 ms for up to `ms` (a busy machine may take seconds). */
async function until(what: string, ready: () => Promise<boolean>, ms = 30_000) {
  for (const deadline = Date.now() + ms; ; ) {
    if (await ready().catch(() => false)) return
    if (Date.now() > deadline) throw new Error(`Redis Cluster: ${what} did not happen in ${ms} ms`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/**
 * A Redis Cluster of its own: three masters (no replicas) on free loopback ports, each with its own
 * temporary directory and no persistence, joined with `redis-cli --cluster create`; `stop()` ends
 * them and removes the directories. Like `startRedis`, it fails plainly when redis-server (7 or
 * later: sharded pub/sub) is not installed.
 */
export async function startRedisCluster({ masters = 3 } = {}) {
  const server = process.env.REDIS_SERVER ?? 'redis-server'
  const cli = process.env.REDIS_CLI ?? 'redis-cli'
  if (spawnSync(server, ['--version']).status !== 0 || spawnSync(cli, ['--version']).status !== 0) {
    throw new Error(`redis-server and redis-cli are not installed (looked for "${server}", "${cli}"): apt-get install redis-server, or set REDIS_SERVER and REDIS_CLI.`)
  }
  const root = mkdtempSync(join(tmpdir(), 'tools-proxy-cluster-'))
  const nodes: { port: number; busPort: number; dir: string; child?: ChildProcess }[] = []
  for (let index = 0; index < masters; index++) {
    const dir = join(root, String(index))
    mkdirSync(dir)
    nodes.push({ port: await freePort(), busPort: await freePort(), dir })
  }
  const launch = (node: (typeof nodes)[number]) => {
    node.child = spawn(
      server,
      [
        ...['--port', String(node.port), '--cluster-port', String(node.busPort), '--bind', '127.0.0.1'],
        ...['--cluster-enabled', 'yes', '--cluster-config-file', join(node.dir, 'nodes.conf'), '--cluster-node-timeout', '2000'],
        ...['--dir', node.dir, '--save', '', '--appendonly', 'no'],
      ],
      { stdio: 'ignore' },
    )
  }
  const cliOn = (port: number, ...args: string[]) => run(cli, ['-h', '127.0.0.1', '-p', String(port), ...args], { timeout: 10_000 }).then(({ stdout }) => stdout)
  const exited = (child: ChildProcess | undefined) =>
    child && child.exitCode === null && child.signalCode === null ? new Promise((resolve) => child.once('exit', resolve)) : Promise.resolve()
  /** Every node answers, sees every slot served, and agrees on who serves them. */
  const healthy = async () => {
    for (const { port } of nodes) if (!/cluster_state:ok/.test(await cliOn(port, 'cluster', 'info'))) return false
    const views = await Promise.all(nodes.map(({ port }) => cliOn(port, 'cluster', 'slots')))
    return views.every((view) => view === views[0])
  }
  const clients: { close(): Promise<unknown> }[] = []
  const stop = async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => {})))
    await Promise.all(
      nodes.map(({ child }) => {
        const exit = exited(child)
        child?.kill('SIGCONT')
        child?.kill('SIGTERM')
        return exit
      }),
    )
    rmSync(root, { recursive: true, force: true })
  }
  try {
    nodes.forEach(launch)
    await until('every node listening', async () => (await Promise.all(nodes.map(({ port }) => cliOn(port, 'ping')))).every((answer) => answer.trim() === 'PONG'))
    await run(cli, ['--cluster', 'create', ...nodes.map(({ port }) => `127.0.0.1:${port}`), '--cluster-replicas', '0', '--cluster-yes'], { timeout: 60_000 })
    await until('cluster_state:ok on every node', healthy, 60_000)
  } catch (error) {
    await stop()
    throw error
  }
  const urls = nodes.map(({ port }) => `redis://127.0.0.1:${port}`)
  return {
    urls,
    ports: nodes.map(({ port }) => port),
    /**
     * A connected node-redis cluster client (`createCluster`), given every node as a root. With
     * `reconnect`, its node connections come back by themselves after a restart (as an application's would).
     */
    async connect({ reconnect = false } = {}) {
      const cluster = createCluster({
        rootNodes: urls.map((url) => ({ url })),
        defaults: { socket: { reconnectStrategy: reconnect ? () => 50 : false, connectTimeout: 5000 } },
      })
      cluster.on('error', () => {})
      await cluster.connect()
      clients.push(cluster)
      return cluster
    },
    /** The port of the master serving `key`'s slot, as CLUSTER NODES tells it (`<id> <host>:<port>@<bus> <flags> … <first>-<last> …`). */
    async portOf(key: string) {
      const slot = Number((await cliOn(nodes[0]!.port, 'cluster', 'keyslot', key)).trim())
      for (const line of (await cliOn(nodes[0]!.port, 'cluster', 'nodes')).split('\n')) {
        const [, address, flags, , , , , , ...ranges] = line.trim().split(' ')
        if (!address || !flags?.includes('master')) continue
        const served = ranges.some((range) => {
          const [first, last = first] = range.split('-').map(Number)
          return first! <= slot && slot <= last!
        })
        if (served) return Number(address.split('@')[0]!.split(':')[1])
      }
      throw new Error(`no master serves slot ${slot}`)
    },
    /** The keys one node holds that match `pattern` (KEYS, on that node alone). */
    async keysOn(port: number, pattern: string) {
      return (await cliOn(port, 'keys', pattern)).split('\n').filter(Boolean)
    },
    /** Ends one master as a crash would, keeping its port and its cluster config for `revive()`. */
    async kill(port: number) {
      const node = nodes.find((each) => each.port === port)!
      const exit = exited(node.child)
      node.child?.kill('SIGKILL')
      await exit
    },
    /** Starts a killed master again (empty: no persistence) and waits until the cluster is whole. */
    async revive(port: number) {
      launch(nodes.find((each) => each.port === port)!)
      await until('the cluster whole again', healthy, 60_000)
    },
    /** Moves `key`'s slot to another master (MIGRATE of its keys, then the slot's new owner told to all): a resharding. */
    async moveSlotOf(key: string) {
      const slot = (await cliOn(nodes[0]!.port, 'cluster', 'keyslot', key)).trim()
      const from = await this.portOf(key)
      const to = nodes.find(({ port }) => port !== from)!.port
      const idOf = async (port: number) => (await cliOn(port, 'cluster', 'myid')).trim()
      const [fromId, toId] = await Promise.all([idOf(from), idOf(to)])
      await cliOn(to, 'cluster', 'setslot', slot, 'importing', fromId)
      await cliOn(from, 'cluster', 'setslot', slot, 'migrating', toId)
      for (;;) {
        const keys = (await cliOn(from, 'cluster', 'getkeysinslot', slot, '100')).split('\n').filter(Boolean)
        if (keys.length === 0) break
        await cliOn(from, 'migrate', '127.0.0.1', String(to), '', '0', '5000', 'keys', ...keys)
      }
      // As redis-cli's resharding tells them: the new owner, the old, then the rest.
      for (const port of [to, from, ...nodes.map((node) => node.port).filter((port) => port !== to && port !== from)]) await cliOn(port, 'cluster', 'setslot', slot, 'node', toId)
      await until('the slot moved on every node', healthy)
      return { from, to }
    },
    stop,
  }
}
