import { readdirSync } from 'node:fs'
import type { FastifyInstance } from 'fastify'
import { isServiceError } from '../../shared/errors'
import { defaultPgMigrationsDir } from '../store/postgres/migrate'
import type { SyncPg } from '../store/postgres/pgSync'

/** Paths the load balancer, the container runtime and Prometheus reach on every node. */
export const HEALTH_PATH = '/healthz'
export const READY_PATH = '/readyz'

/** The migration versions a node of this build expects applied (`NNN_name.sql` under `dir`). */
function expectedMigrations(dir = defaultPgMigrationsDir()): number[] {
  return readdirSync(dir)
    .filter((f) => /^\d{3}_.+\.sql$/.test(f))
    .map((f) => Number(f.slice(0, 3)))
    .sort((a, b) => a - b)
}

/** Why this node should not take traffic now, or null when it is ready. */
type ReadinessCheck = () => string | null

export interface HealthOptions {
  pg: SyncPg
  nodeId: string
  /** True once the node drains before a stop (`drain.ts`): not ready, still alive. */
  draining: () => boolean
  /** Versions that must be in `schema_migrations`; default those of this build. */
  migrations?: number[]
}

/**
 * The readiness rule of a team server node: not draining, the database answers one statement,
 * and every migration of this build is in `schema_migrations`. Returns the reason it is not
 * ready (shown in the 503 body), or null. One round trip; blocks for it (the store's connection
 * is synchronous), at most the connect timeout (3 s) when the database is away.
 */
function readinessCheck(options: HealthOptions): ReadinessCheck {
  const wanted = options.migrations ?? expectedMigrations()
  return () => {
    if (options.draining()) return 'draining: this node is shutting down'
    let applied: Set<number>
    try {
      applied = new Set(
        options.pg
          .query<{ version: number }>('SELECT version FROM schema_migrations')
          .rows.map((r) => Number(r.version)),
      )
    } catch (error) {
      const detail = isServiceError(error) ? error.message : (error as Error).message
      return `database: ${detail}`
    }
    const missing = wanted.filter((v) => !applied.has(v))
    return missing.length
      ? `migrations pending: ${missing.join(', ')} not applied (restart a node to migrate)`
      : null
  }
}

/**
 * `GET /healthz` and `GET /readyz`, without authentication (they say nothing
 * private; the `Host` rule of the service still applies, so checks send `Host: localhost`).
 * - `/healthz`: 200 `{status:"ok", node}` whenever this process answers HTTP, draining or not:
 *   a liveness probe, it touches no database (a database outage must not restart every node).
 * - `/readyz`: 200 `{status:"ready", node}` when `readinessCheck` passes; otherwise 503 with the
 *   service's error body (`unavailable`, the reason as message) and `Retry-After: 2`. Load
 *   balancers route by this one.
 */
export function registerHealthRoutes(app: FastifyInstance, options: HealthOptions): void {
  const ready = readinessCheck(options)
  app.get(HEALTH_PATH, async () => ({ status: 'ok', node: options.nodeId }))
  app.get(READY_PATH, async (_request, reply) => {
    const reason = ready()
    if (reason === null) return { status: 'ready', node: options.nodeId }
    void reply.header('retry-after', '2')
    return reply.status(503).send({
      error: { code: 'unavailable', message: `Node ${options.nodeId} is not ready: ${reason}.` },
    })
  })
}
