import { hostname } from 'node:os'
import { parseArgs } from 'node:util'
import { ServiceError } from '../shared/errors'
import { DEFAULT_PORT } from './config'
import { DEFAULT_RATE_LIMITS, type RateLimits } from './api/rateLimit'
import { createCore, type Core } from './core'
import { createPgOwnerTokens, createPgRateLimiter } from './serverAccess'
import { createPgStore, type PgStore } from './store/postgres/pgStore'
import { startNodeLiveness } from './serverNodes'
import { createDrain } from './server/drain'
import { HEALTH_PATH, READY_PATH, registerHealthRoutes } from './server/health'
import { serverLoggerOptions, writeLifecycleLine } from './server/logging'
import { createServerMetrics, METRICS_PATH, registerMetrics } from './server/metrics'
import { releaseNode } from './server/release'
import { createDeviceHub } from './server/devices'
import { enlistRunsOf, registerRunQueueMetrics, startRunQueue } from './server/runQueue'

export const SERVER_USAGE = `sitecall server [--port N] [--host ADDR] [--public-host NAME,...] [--node-id ID]
                 [--rate-limit PER_MINUTE/BURST] [--node-timeout-ms N] [--drain-seconds N]
                 (SITECALL_DATABASE_URL names the PostgreSQL database; SITECALL_METRICS_TOKEN
                 turns on GET /metrics for that bearer token; SITECALL_LOG_LEVEL, default info)`

/** `--rate-limit 600/100`: requests a minute per key and the burst. */
function parseRateLimit(text: string | undefined): RateLimits {
  if (text === undefined) return DEFAULT_RATE_LIMITS
  const match = /^(\d+)\/(\d+)$/.exec(text)
  if (!match || Number(match[1]) < 1 || Number(match[2]) < 1)
    throw new ServiceError('invalid_input', `--rate-limit takes PER_MINUTE/BURST, not ${text}`)
  return { perMinute: Number(match[1]), burst: Number(match[2]) }
}

/**
 * `sitecall server`: one node of a team server. Surfaces A/B/C, MCP and the account
 * API, as `serve` answers them, with every record in the PostgreSQL database of
 * SITECALL_DATABASE_URL (migrated on start, once across nodes starting together): runs and
 * idempotency keys, the ledger, keys, OAuth clients, codes and refresh tokens, receipts, owner
 * tokens and the per-key rate limit. Nodes keep nothing of their own that another node needs, so
 * any number of them can stand behind one load balancer; each listens on `--host` (default
 * 127.0.0.1, the proxy's side) at `--port` (default 7411; 0 picks a free one) and accepts the
 * `Host` names of `--public-host` besides loopback ones.
 *
 * Nodes write a heartbeat every `--node-timeout-ms`/5 (default 10 s / 5). Every run in flight has
 * a job in the durable run queue (pg-boss, `server/runQueue.ts`), made in the run's transaction;
 * a due job whose run's node is silent longer than the timeout is taken over by a live node's
 * worker, which ends the run as a restart would (writes sent end `outcome_unknown`, reads run
 * again). Node ids must be unique among
 * running nodes (default host:pid); a node restarted under the same id takes back its own runs.
 *
 * Operable (docs/team-server.md): `GET /healthz` (alive) and `GET /readyz` (database
 * answers, migrations applied, not draining) without auth (`server/health.ts`); `GET /metrics`
 * for the bearer token SITECALL_METRICS_TOKEN, absent without one (`server/metrics.ts`); logs
 * are JSON lines on stdout, one per answered request, never a header, body or query
 * (`server/logging.ts`).
 *
 * Logs `Sitecall server listening at URL as node ID` once it serves, then runs until SIGINT or
 * SIGTERM, when it drains (`server/drain.ts`): requests arriving get 503 `unavailable`, those
 * being answered and the runs in flight finish, up to `--drain-seconds` (default 30); then it
 * closes and deletes its node row so live nodes take over what is left at once
 * (`server/release.ts`).
 * Exit codes: 0 stopped, 1 failed (database unreachable, port taken), 2 bad usage (no database
 * URL, bad flags).
 */
export async function serverCommand(
  args: string[],
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  const options = serverOptionsOf(args, env)
  if (!options) {
    process.stderr.write(
      `sitecall server needs SITECALL_DATABASE_URL (postgres://user@host:5432/db)\n${SERVER_USAGE}\n`,
    )
    return 2
  }
  const node = await startServerNode(options, env)
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve)
    process.once('SIGTERM', resolve)
  })
  writeLifecycleLine(
    process.stdout,
    options.nodeId,
    `Sitecall server listening at ${node.base} as node ${options.nodeId}`,
    { url: node.base },
  )
  await stopped
  await stopServerNode(node, options)
  // Work cut at the deadline may leave sockets or timers behind: they must not hold the exit.
  setTimeout(() => process.exit(0), 2_000).unref()
  return 0
}

/** What `sitecall server`'s flags and environment say, checked. */
interface ServerOptions {
  url: string
  port: number
  host: string
  limits: ReturnType<typeof parseRateLimit>
  timeoutMs: number
  drainSeconds: number
  nodeId: string
  publicHosts: string[]
}

/**
 * The options of `sitecall server` (see SERVER_USAGE); null without SITECALL_DATABASE_URL.
 * Throws 400 `invalid_input` for a port outside 0..65535, a node timeout under 500 ms or a
 * negative drain.
 */
function serverOptionsOf(
  args: string[],
  env: Record<string, string | undefined>,
): ServerOptions | null {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'public-host': { type: 'string' },
      'node-id': { type: 'string' },
      'rate-limit': { type: 'string' },
      'node-timeout-ms': { type: 'string' },
      'drain-seconds': { type: 'string' },
    },
  })
  const url = env.SITECALL_DATABASE_URL
  if (!url) return null
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ServiceError('invalid_input', `--port takes 0 to 65535, not ${values.port}`)
  const limits = parseRateLimit(values['rate-limit'])
  const timeoutMs =
    values['node-timeout-ms'] === undefined ? 10_000 : Number(values['node-timeout-ms'])
  if (!Number.isInteger(timeoutMs) || timeoutMs < 500)
    throw new ServiceError(
      'invalid_input',
      `--node-timeout-ms takes 500 or more, not ${values['node-timeout-ms']}`,
    )
  const drainSeconds = values['drain-seconds'] === undefined ? 30 : Number(values['drain-seconds'])
  if (!Number.isFinite(drainSeconds) || drainSeconds < 0)
    throw new ServiceError(
      'invalid_input',
      `--drain-seconds takes 0 or more, not ${values['drain-seconds']}`,
    )
  return {
    url,
    port,
    host: values.host ?? '127.0.0.1',
    limits,
    timeoutMs,
    drainSeconds,
    nodeId: values['node-id'] ?? `${hostname()}:${process.pid}`,
    publicHosts: (values['public-host'] ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  }
}

/** A started server node: what `stopServerNode` stops, in order. */
interface ServerNode {
  core: Core<PgStore>
  devices: ReturnType<typeof createDeviceHub>
  queue: Awaited<ReturnType<typeof startRunQueue>>
  drain: ReturnType<typeof createDrain>
  liveness: ReturnType<typeof startNodeLiveness>
  base: string
}

/**
 * Starts one node: the PostgreSQL store, the device hub, the core with the server's routes
 * (health, metrics), the durable run queue, then the listener and the heartbeats. A step that
 * fails closes what the earlier ones opened, and the error is thrown.
 */
async function startServerNode(
  options: ServerOptions,
  env: Record<string, string | undefined>,
): Promise<ServerNode> {
  const { url, nodeId, timeoutMs, drainSeconds, publicHosts } = options
  const clock = Date.now
  const store = createPgStore(url, { nodeId, applicationName: `sitecall ${nodeId}` })
  // Devices: runs of sites only a linked desktop holds a login for go to it.
  let warn: (error: unknown) => void = () => undefined
  const devices = createDeviceHub({ url, store, clock, onError: (error) => warn(error) })
  const core = createCore({
    store,
    env,
    port: options.port,
    host: options.host,
    serverNode: true,
    logger: serverLoggerOptions(nodeId, process.stdout, env.SITECALL_LOG_LEVEL ?? 'info'),
    // A server has no person's keychain: its vault opens with SITECALL_PASSPHRASE.
    keychain: null,
    ownerTokens: createPgOwnerTokens(store.pg, { clock }),
    rateLimiter: createPgRateLimiter(store.pg, options.limits, clock),
    ...(publicHosts.length ? { allowedHosts: new Set(publicHosts) } : {}),
    devices,
  })
  warn = (error) => core.server.log.warn({ err: error }, 'Devices: will try again')
  const drain = createDrain(core.server, {
    nodeId,
    idle: () => core.engine.idle(),
    deadlineMs: drainSeconds * 1000,
    exempt: new Set([HEALTH_PATH, READY_PATH, METRICS_PATH]),
  })
  registerHealthRoutes(core.server, { pg: store.pg, nodeId, draining: () => drain.draining })
  const metrics = createServerMetrics({ pg: store.pg, nodeId })
  registerMetrics(core.server, metrics, env.SITECALL_METRICS_TOKEN || null)
  const recover = (runIds: string[]) => void store.runs.within(runIds, () => core.engine.recover())
  // The durable run queue (pg-boss): every run in flight has a job; a due job of a run whose
  // node died is taken over by whichever node's worker fetches it.
  const queue = await startRunQueue({
    url,
    store,
    nodeId,
    leaseMs: timeoutMs,
    recover,
    onError: (error) => core.server.log.warn({ err: error }, 'Run queue: will try again'),
  }).catch(async (error: unknown) => {
    await core.close()
    throw error
  })
  enlistRunsOf(store, queue)
  await devices.start().catch(async (error: unknown) => {
    await queue.stop().catch(() => undefined)
    await core.close()
    throw error
  })
  registerRunQueueMetrics(metrics.registry, queue)
  const base = await core.listen().catch(async (error: unknown) => {
    await queue.stop().catch(() => undefined)
    await devices.close()
    await core.close()
    throw error
  })
  // Heartbeats (the queue's workers judge a node alive by them), and the runs this id left in
  // flight in an earlier life taken back.
  const liveness = startNodeLiveness({
    store,
    nodeId,
    timeoutMs,
    recover,
    adoptOrphans: false,
  })
  return { core, devices, queue, drain, liveness, base }
}

/**
 * Stops a node after SIGINT or SIGTERM: drains requests and runs in flight (up to the drain
 * deadline), then stops heartbeats, the queue, the devices and the core, and releases the node.
 */
async function stopServerNode(node: ServerNode, options: ServerOptions): Promise<void> {
  const { core, devices, queue, drain, liveness } = node
  const log = core.server.log
  log.info(`Draining: up to ${options.drainSeconds} s for requests and runs in flight`)
  // Devices' long polls answer now (204): they would hold the drain for up to 25 s.
  devices.stopPolls()
  const drained = await drain.drain()
  log.info(
    drained,
    drained.drained ? 'Drained' : 'Drain deadline passed: closing with work in flight',
  )
  liveness.stop()
  await queue.stop().catch(() => undefined)
  await devices.close()
  await core.close()
  const released = await releaseNode(options.url, options.nodeId)
  log.info(
    { released },
    released ? 'Node released: stopped' : 'Stopped (node row left to time out)',
  )
}
