import {
  toRecord,
  type ResultRetention,
  type RunRecord,
  type RunRepository,
  type RunRow,
} from '../runRepository'
import type { RunStatus } from '../../../shared/run'
import type { SyncPg } from './pgSync'
import {
  BY_KEY_SQL,
  createRun,
  createRunAhead,
  createRunSoon,
  runByKey,
  SELECT_RUNS,
  succeedRun,
  transitionRun,
  type PgRunContext,
} from './pgRunWrites'

export { refusedAhead } from './pgRunWrites'

/** A run a node is running: what a dead node leaves behind. */
const IN_FLIGHT = ['accepted', 'working']

/** Runs on PostgreSQL, with what a team server's nodes need to take over a dead node's runs. */
export interface PgRunRepository extends RunRepository {
  /**
   * Takes over the runs in flight (`accepted`, `working`) of the nodes `fromNodes` (gone: their
   * heartbeat stopped), making this node their owner in one statement, so two nodes sweeping at
   * once never both take a run. Returns their ids. Throws when this repository has no node id.
   */
  adopt(fromNodes: string[]): string[]
  /**
   * Runs `fn` with `withStatus` limited to `runIds`: the engine's recovery (`RunEngine.recover`)
   * then ends or resumes the adopted runs only, never the runs this node has in flight itself.
   */
  within<T>(runIds: string[], fn: () => T): T
  /**
   * Takes over the runs in flight whose node is not in `server_nodes` (its heartbeat stopped and
   * a node removed it), as `adopt` does; returns their ids. Runs without a node (created outside
   * a team server) are never taken.
   */
  adoptOrphans(): string[]
  createAhead: NonNullable<RunRepository['createAhead']>
}

/** Queues `findByKey(tenant, key)`'s read to ride with the next statement (`SyncPg.prefetch`). */
export function prefetchRunByKey(pg: SyncPg, tenant: string, key: string): void {
  pg.prefetch(BY_KEY_SQL, [tenant, key])
}

/**
 * Runs on PostgreSQL (the `RunRepository` contract). A run records the node that created it
 * (`node_id`, null outside a team server). Each write is its own statement and commits
 * before it returns, so `createSoon` and `atomicallySoon` are durable when called: there is no
 * group commit to wait for (PostgreSQL commits each node's writes concurrently). Two nodes racing
 * on one Idempotency-Key meet in the unique index: the second insert does nothing and reads the
 * first run.
 */
export function createPgRunRepository(pg: SyncPg, nodeId: string | null = null): PgRunRepository {
  const context: PgRunContext = { pg, nodeId, scope: null }
  return {
    create: (run, now) => pg.transaction(() => createRun(context, run, now)),
    createSoon: (run, now) => createRunSoon(context, run, now),
    createAhead: (run, now, creditOf) => createRunAhead(context, run, now, creditOf),
    get: (runId) => runById(pg, runId),
    findByKey: (tenant, key) => runByKey(pg, tenant, key),
    transition: (runId, patch, now) => transitionRun(pg, runId, patch, now),
    succeed: (runId, patch, bill, health, now) => succeedRun(pg, runId, patch, bill, health, now),
    list: (filter = {}) => listRuns(pg, filter),
    withStatus: (statuses) => runsWithStatus(context, statuses),
    adopt: (fromNodes) => adoptRuns(context, fromNodes),
    adoptOrphans: () => adoptOrphanRuns(context),
    within(runIds, fn) {
      const outer = context.scope
      context.scope = runIds
      try {
        return fn()
      } finally {
        context.scope = outer
      }
    },
    atomicallySoon<T>(fn: () => T): Promise<T> {
      try {
        return Promise.resolve(pg.transaction(fn))
      } catch (error) {
        return Promise.reject(error as Error)
      }
    },
    expireResults: (rule, now) => pg.transaction(() => expireRunResults(pg, rule, now)),
    storedResults: () =>
      pg.one<{ runs: number; bytes: number }>(
        `SELECT COUNT(*) AS runs, COALESCE(SUM(result_bytes), 0) AS bytes FROM runs
         WHERE result_bytes IS NOT NULL`,
      )!,
  }
}

/** The run of `runId`, or null. */
function runById(pg: SyncPg, runId: string): RunRecord | null {
  const row = pg.one<RunRow>(`${SELECT_RUNS} WHERE id = $1`, [runId])
  return row ? toRecord(row) : null
}

/** `RunRepository.list`: the newest runs first, of one tool when `filter.toolId` is given. */
function listRuns(pg: SyncPg, filter: { toolId?: string; limit?: number }): RunRecord[] {
  const rows = filter.toolId
    ? pg.query<RunRow>(
        `${SELECT_RUNS} WHERE tool_id = $1 ORDER BY created_at DESC, seq DESC LIMIT $2`,
        [filter.toolId, filter.limit ?? 50],
      ).rows
    : pg.query<RunRow>(`${SELECT_RUNS} ORDER BY created_at DESC, seq DESC LIMIT $1`, [
        filter.limit ?? 50,
      ]).rows
  return rows.map((row) => toRecord(row))
}

/** `RunRepository.withStatus`, limited to the context's scope while `within` runs. */
function runsWithStatus(context: PgRunContext, statuses: RunStatus[]): RunRecord[] {
  const { pg, scope } = context
  const rows = scope
    ? pg.query<RunRow>(
        `${SELECT_RUNS} WHERE status = ANY($1::text[]) AND id = ANY($2::text[])
         ORDER BY created_at, id`,
        [statuses, scope],
      ).rows
    : pg.query<RunRow>(`${SELECT_RUNS} WHERE status = ANY($1::text[]) ORDER BY created_at, id`, [
        statuses,
      ]).rows
  return rows.map((row) => toRecord(row))
}

/** `PgRunRepository.adopt`: this node takes the runs in flight of `fromNodes`; their ids. */
function adoptRuns(context: PgRunContext, fromNodes: string[]): string[] {
  if (!context.nodeId) throw new Error('Only a node with an id adopts runs.')
  return context.pg
    .query<{ id: string }>(
      `UPDATE runs SET node_id = $1
       WHERE node_id = ANY($2::text[]) AND status = ANY($3::text[]) RETURNING id`,
      [context.nodeId, fromNodes, IN_FLIGHT],
    )
    .rows.map((r) => r.id)
}

/** `PgRunRepository.adoptOrphans`: this node takes the runs in flight of removed nodes. */
function adoptOrphanRuns(context: PgRunContext): string[] {
  if (!context.nodeId) throw new Error('Only a node with an id adopts runs.')
  return context.pg
    .query<{ id: string }>(
      `UPDATE runs SET node_id = $1
       WHERE node_id IS NOT NULL AND status = ANY($2::text[])
         AND node_id NOT IN (SELECT id FROM server_nodes) RETURNING id`,
      [context.nodeId, IN_FLIGHT],
    )
    .rows.map((r) => r.id)
}

/** The bytes all stored results take. */
function storedBytes(pg: SyncPg): number {
  return pg.one<{ bytes: number }>(
    'SELECT COALESCE(SUM(result_bytes), 0) AS bytes FROM runs WHERE result_bytes IS NOT NULL',
  )!.bytes
}

/**
 * `RunRepository.expireResults` inside its caller's transaction: the results past the age,
 * then the oldest while all hold more than `maxBytes`, in batches of 500 runs.
 */
function expireRunResults(
  pg: SyncPg,
  rule: ResultRetention,
  now: number,
): { runs: number; bytes: number } {
  const dropped = { runs: 0, bytes: 0 }
  const drop = (ids: Array<{ id: string; bytes: number }>) => {
    for (let i = 0; i < ids.length; i += 500) {
      const batch = ids.slice(i, i + 500)
      pg.query(
        `UPDATE runs SET result = NULL, result_codec = NULL, result_bytes = NULL,
           result_expired_at = $1
         WHERE id = ANY($2::text[]) AND result_bytes IS NOT NULL`,
        [now, `{${batch.map((r) => `"${r.id}"`).join(',')}}`],
      )
      dropped.runs += batch.length
      dropped.bytes += batch.reduce((sum, r) => sum + r.bytes, 0)
    }
  }
  drop(
    pg.query<{ id: string; bytes: number }>(
      `SELECT id, result_bytes AS bytes FROM runs
       WHERE result_bytes IS NOT NULL AND COALESCE(finished_at, updated_at) < $1`,
      [now - rule.maxAgeMs],
    ).rows,
  )
  let excess = storedBytes(pg) - rule.maxBytes
  if (excess > 0) {
    const oldest: Array<{ id: string; bytes: number }> = []
    for (const row of pg.query<{ id: string; bytes: number }>(
      `SELECT id, result_bytes AS bytes FROM runs WHERE result_bytes IS NOT NULL
       ORDER BY COALESCE(finished_at, updated_at), id`,
    ).rows) {
      if (excess <= 0) break
      oldest.push(row)
      excess -= row.bytes
    }
    drop(oldest)
  }
  return dropped
}
