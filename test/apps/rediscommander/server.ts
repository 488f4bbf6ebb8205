/**
 * Starts a private Redis (Debian's `redis-server`) and Redis Commander 0.9.0 (the repo's dev
 * dependency) in front of it, each as its own process group. Redis listens on a unix socket only
 * (no TCP port), seeded before Redis Commander starts; Redis Commander serves its web UI on a free
 * 127.0.0.1 port.
 *
 * Why the socket has a fixed path: Redis Commander names a connection in every URL of its API
 * (`/apiv2/key/<connectionId>/<key>`), and that id is `R:<host>:<port>:<db>` for TCP but
 * `U:<hash of the socket path>:<db>` for a unix socket. A fixed socket path gives the same id on
 * every start (`U:15874114cfbb95e3:0`), as a person's own Redis keeps its id between the
 * recording and every later run. Only one instance can hold that path at a time: a start waits
 * for the previous one to close (a lock directory naming its owner's pid; a dead owner's lock is
 * taken over).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  delay,
  freePort,
  instanceStopper,
  killGroup,
  killOnExit,
  orStop,
  spawnServer,
  waitUntil,
  type ServerProcess,
} from '../childProcess'
import { SEED, writeSeed } from './seed'

/** The lock directory holding the socket: a fixed path, so the connection id is fixed. */
const LOCK_DIR = '/tmp/sitecall-rediscommander'
/** Redis's unix socket, inside {@link LOCK_DIR}. */
const REDIS_SOCKET = `${LOCK_DIR}/redis.sock`
/** The connection id Redis Commander derives from {@link REDIS_SOCKET} (database 0). */
export const CONNECTION_ID = 'U:15874114cfbb95e3:0'

/** A running Redis plus Redis Commander. */
export interface RedisCommanderServer {
  /** Redis Commander's web UI: `http://127.0.0.1:<port>`. */
  origin: string
  /** Kills both process groups and removes the data dir and the lock. Safe to call twice. */
  close(): Promise<void>
}

/** Redis Commander's CLI script, or null when it is not installed. */
function redisCommanderBin(): string | null {
  const bin = fileURLToPath(
    new URL('../../../node_modules/redis-commander/bin/redis-commander.js', import.meta.url),
  )
  return existsSync(bin) ? bin : null
}

/** The `redis-server` binary on PATH, or null. */
function redisServerBin(): string | null {
  for (const dir of (process.env['PATH'] ?? '/usr/bin').split(':')) {
    if (dir && existsSync(join(dir, 'redis-server'))) return join(dir, 'redis-server')
  }
  return null
}

/** Why the app cannot start here (a missing package, with what installs it), or null. */
export function redisCommanderUnavailable(): string | null {
  if (!redisServerBin())
    return 'redis-server is not installed: apt-get install redis-server (Debian 12: 7.0.15)'
  if (!redisCommanderBin())
    return 'redis-commander is missing from node_modules: it is a dev dependency of the repo (npm ci installs redis-commander@0.9.0)'
  return null
}

/** True when process `pid` exists (signal 0 only checks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists, as another user's process.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Takes {@link LOCK_DIR} (mkdir is atomic) and writes this process's pid into it. Waits while a
 * live process holds it (another instance; at most `timeoutMs`), takes it over when its owner is
 * dead. Throws when it stays held.
 */
async function takeLock(timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      mkdirSync(LOCK_DIR, { mode: 0o700 })
      writeFileSync(join(LOCK_DIR, 'owner'), String(process.pid))
      return
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    let owner = 0
    try {
      owner = Number(readFileSync(join(LOCK_DIR, 'owner'), 'utf8'))
    } catch {
      // Just made, no owner written yet: wait for it.
    }
    if (owner && !alive(owner)) {
      rmSync(LOCK_DIR, { recursive: true, force: true })
      continue
    }
    if (Date.now() > deadline)
      throw new Error(`another Redis Commander instance (pid ${owner}) holds ${LOCK_DIR}`)
    await delay(300)
  }
}

/** The environment without the variables Redis Commander's config reads (they would win). */
function cleanEnv(home: string): NodeJS.ProcessEnv {
  const configFile = fileURLToPath(
    new URL(
      '../../../node_modules/redis-commander/config/custom-environment-variables.json',
      import.meta.url,
    ),
  )
  const read = existsSync(configFile) ? readFileSync(configFile, 'utf8') : ''
  const names = new Set([...read.matchAll(/"([A-Z_]+)"/g)].map((m) => m[1]!))
  for (const n of ['NODE_ENV', 'NODE_CONFIG', 'NODE_CONFIG_DIR', 'NODE_APP_INSTANCE']) names.add(n)
  const env = Object.fromEntries(Object.entries(process.env).filter(([n]) => !names.has(n)))
  // Its old config file would be looked for in $HOME: a fresh, empty one.
  return { ...env, HOME: home }
}

/**
 * Starts Redis on {@link REDIS_SOCKET} (no persistence, data dir in a fresh temp dir), writes the
 * seed, then starts Redis Commander on a free loopback port without saving or loading any config
 * of its own (`--nosave --noload`) and without a login. Resolves once the UI answers and its
 * connection to Redis is up. Stops by itself after `lifetimeMs`; rejects, after cleaning up,
 * when anything fails.
 */
export async function startRedisCommander(lifetimeMs: number): Promise<RedisCommanderServer> {
  const bin = redisCommanderBin()
  const redisServer = redisServerBin()
  if (!bin || !redisServer) throw new Error(redisCommanderUnavailable()!)
  await takeLock(120_000)
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-rediscommander-'))
  const forgetters: Array<() => void> = []
  let redis: ServerProcess | null = null
  const stopper = instanceStopper(
    async () => {
      // Redis Commander (the stopper's server) is down; then Redis, then the files.
      await killGroup(redis?.child, { first: 'SIGTERM', graceMs: 3000 })
      for (const forget of forgetters) forget()
      rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
      rmSync(LOCK_DIR, { recursive: true, force: true })
    },
    { first: 'SIGTERM', graceMs: 3000 },
  )
  return orStop(stopper.stop, async () => {
    redis = spawnServer(
      redisServer,
      [
        '--port',
        '0',
        '--unixsocket',
        REDIS_SOCKET,
        '--unixsocketperm',
        '700',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
        '--daemonize',
        'no',
        '--logfile',
        '',
      ],
      { cwd: dir, output: { stdout: true, stderr: true } },
    )
    forgetters.push(killOnExit(redis.child))
    const redisChild = redis.child
    let count = 0
    let last = 'no answer'
    await waitUntil(
      'redis-server',
      redisChild,
      async () => {
        try {
          count = await writeSeed(REDIS_SOCKET)
          return true
        } catch (error) {
          // Not listening yet.
          last = String(error)
          return false
        }
      },
      { timeoutMs: 15_000, intervalMs: 100, detail: () => `${last}; ${redis?.log() ?? ''}` },
    )
    if (count !== SEED.length)
      throw new Error(`Redis holds ${count} keys after the seed, not ${SEED.length}`)
    const port = await freePort()
    const server = spawnServer(
      process.execPath,
      [
        bin,
        '--redis-socket',
        REDIS_SOCKET,
        '--port',
        String(port),
        '--address',
        '127.0.0.1',
        '--nosave',
        '--noload',
      ],
      { cwd: dir, env: cleanEnv(dir), output: { stdout: true, stderr: true } },
    )
    stopper.server = server.child
    forgetters.push(killOnExit(server.child))
    const origin = `http://127.0.0.1:${port}`
    // Up once the UI answers and says its connection to Redis is open (`true`).
    let answer = 'no answer'
    await waitUntil(
      'redis-commander',
      server.child,
      async () => {
        try {
          const res = await fetch(`${origin}/apiv2/connection`, {
            signal: AbortSignal.timeout(5000),
          })
          answer = `${res.status} ${await res.text()}`
          return answer === '200 true'
        } catch (error) {
          answer = String(error)
          return false
        }
      },
      { timeoutMs: 60_000, intervalMs: 200, detail: () => `${answer}; ${server.log()}` },
    )
    // Its connection list must name the fixed id, or no recording replays here.
    const res = await fetch(`${origin}/connections`)
    const text = await res.text()
    if (!text.includes(`"${CONNECTION_ID}"`))
      throw new Error(`Redis Commander names another connection: ${text.slice(0, 300)}`)
    stopper.expireAfter(lifetimeMs)
    return { origin, close: stopper.stop }
  })
}
