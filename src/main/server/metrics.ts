import { timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import type { SyncPg } from '../store/postgres/pgSync'

export const METRICS_PATH = '/metrics'

/** Routes whose answers are tool searches (the search latency histogram's). */
const SEARCH_ROUTES = new Set(['/v1/tools/search', '/v1/tool-router', '/v1/tools'])

/** Seconds: from a cached search (~1 ms) to the slow edge of a loaded node. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

export interface ServerMetrics {
  registry: Registry
  /** Counts one answered request (`onResponse`): route pattern, method, status, seconds. */
  observe(route: string, method: string, status: number, seconds: number): void
  /** The Prometheus text exposition (format 0.0.4) of every metric, collected now. */
  text(): Promise<string>
}

export interface ServerMetricsOptions {
  pg: SyncPg
  nodeId: string
}

/**
 * The metrics of one team server node (prom-client, its own registry), every sample labelled
 * `node`:
 * - `sitecall_http_requests_total{method,route,code}` and
 *   `sitecall_http_request_duration_seconds{route}`: answered requests by route pattern (never the
 *   raw path: ids and query strings stay out), unmatched ones as route `unmatched`;
 * - `sitecall_search_duration_seconds`: tool searches (`POST /v1/tools/search`, `/v1/tool-router`,
 *   `GET /v1/tools`) answered 2xx;
 * - `sitecall_runs{status}`: runs of the whole database by status, read at each scrape (the
 *   `accepted` ones are the queue); `sitecall_runs_in_flight`: this node's `accepted`/`working`
 *   runs; `sitecall_database_up`: 1 when that read answered, 0 when the database is away;
 * - `sitecall_pg_round_trips_total`: round trips this node made to PostgreSQL (statements sent
 *   together count once); `sitecall_pg_statements_total`: the statements in them;
 * - Node's process metrics (`process_*`, `nodejs_*`) from prom-client's default collectors.
 * A scrape costs one round trip (the runs read).
 */
export function createServerMetrics(options: ServerMetricsOptions): ServerMetrics {
  const { pg, nodeId } = options
  const registry = new Registry()
  registry.setDefaultLabels({ node: nodeId })
  collectDefaultMetrics({ register: registry })
  const requests = new Counter({
    name: 'sitecall_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'code'] as const,
    registers: [registry],
  })
  const durations = new Histogram({
    name: 'sitecall_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern.',
    labelNames: ['route'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  })
  const searches = new Histogram({
    name: 'sitecall_search_duration_seconds',
    help: 'Time to answer a tool search (2xx answers of the search routes).',
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  })
  // The runs gauge reads the database first (metrics are collected in this order), and sets
  // the two gauges after it from that one read.
  new Gauge({
    name: 'sitecall_runs',
    help: 'Runs in the database by status (all nodes); accepted runs are the queue.',
    labelNames: ['status'] as const,
    registers: [registry],
    collect() {
      this.reset()
      try {
        const rows = pg.query<{ status: string; n: number; mine: number }>(
          `SELECT status, count(*)::int AS n,
             count(*) FILTER (WHERE node_id = $1 AND status IN ('accepted', 'working'))::int AS mine
           FROM runs GROUP BY status`,
          [nodeId],
        ).rows
        let mine = 0
        for (const row of rows) {
          this.set({ status: row.status }, Number(row.n))
          mine += Number(row.mine)
        }
        inFlight.set(mine)
        databaseUp.set(1)
      } catch {
        databaseUp.set(0)
      }
    },
  })
  const databaseUp = new Gauge({
    name: 'sitecall_database_up',
    help: '1 when the last scrape read the database, 0 when it could not.',
    registers: [registry],
  })
  const inFlight = new Gauge({
    name: 'sitecall_runs_in_flight',
    help: "This node's runs accepted or working.",
    registers: [registry],
  })
  let countedTrips = 0
  new Counter({
    name: 'sitecall_pg_round_trips_total',
    help: 'Round trips this node made to PostgreSQL (statements sent together count once).',
    registers: [registry],
    collect() {
      const now = pg.roundTrips
      if (now > countedTrips) this.inc(now - countedTrips)
      countedTrips = now
    },
  })
  let countedStatements = 0
  new Counter({
    name: 'sitecall_pg_statements_total',
    help: 'Statements this node sent to PostgreSQL.',
    registers: [registry],
    collect() {
      const now = pg.statements
      if (now > countedStatements) this.inc(now - countedStatements)
      countedStatements = now
    },
  })
  return {
    registry,
    observe(route, method, status, seconds) {
      requests.inc({ method, route, code: String(status) })
      durations.observe({ route }, seconds)
      if (SEARCH_ROUTES.has(route) && status < 300) searches.observe(seconds)
    },
    text: () => registry.metrics(),
  }
}

/** True when `given` is `Bearer <token>` (compared in constant time). */
function bearerMatches(given: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)$/i.exec(given ?? '')
  if (!match) return false
  const a = Buffer.from(match[1]!)
  const b = Buffer.from(token)
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * Counts every answered request into `metrics` and serves `GET /metrics`, protected by a bearer
 * token: `Authorization: Bearer <token>` (the server's SITECALL_METRICS_TOKEN) or 401
 * `unauthorized`. With no token configured (null) the route does not exist (404): metrics are
 * off rather than open, since they name routes, nodes and volumes.
 */
export function registerMetrics(
  app: FastifyInstance,
  metrics: ServerMetrics,
  token: string | null,
): void {
  app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    const route = request.routeOptions.url ?? 'unmatched'
    metrics.observe(route, request.method, reply.statusCode, reply.elapsedTime / 1000)
  })
  if (token === null) return
  app.get(METRICS_PATH, async (request, reply) => {
    if (!bearerMatches(request.headers.authorization, token)) {
      void reply.header('www-authenticate', 'Bearer realm="metrics"')
      return reply.status(401).send({
        error: { code: 'unauthorized', message: 'GET /metrics needs the metrics bearer token.' },
      })
    }
    const body = await metrics.text()
    return reply.type(metrics.registry.contentType).send(body)
  })
}
