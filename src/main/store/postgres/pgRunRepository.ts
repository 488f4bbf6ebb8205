import {
  asStored,
  COLUMNS,
  newRecord,
  toRecord,
  type NewRun,
  type ResultRetention,
  type RunPatch,
  type RunRecord,
  type RunRepository,
  type RunRow,
} from '../runRepository'
import { FREE_GRANT_CREDITS } from '../ledgerRepository'
import { PgError, type SyncPg } from './pgSync'

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

/** Every column of a run, its result included. */
const SELECT_RUNS = `SELECT ${COLUMNS}, result FROM runs`
/** The run of an Idempotency-Key (`findByKey`); `prefetchRunByKey` queues the same read. */
const BY_KEY_SQL = `${SELECT_RUNS} WHERE tenant = $1 AND idempotency_key = $2`

/** SQLSTATE of a unique violation: another run holds the Idempotency-Key. */
const UNIQUE_VIOLATION = '23505'
/** SQLSTATE `sitecall_require_credit` raises (migration 008): the balance is below one credit. */
const NO_CREDIT = 'SC402'
/** The balance check sent ahead of a run's INSERT in its transaction (`createAhead`). */
const REQUIRE_CREDIT_SQL = 'SELECT sitecall_require_credit($1, $2)'

/**
 * Whether `error` is a refusal of a run sent ahead (`RunRepository.createAhead`): its
 * Idempotency-Key taken, or no credit left. Its transaction stored nothing.
 */
export function refusedAhead(error: unknown): boolean {
  return error instanceof PgError && (error.code === UNIQUE_VIOLATION || error.code === NO_CREDIT)
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
  /** While set (`within`), `withStatus` sees only these runs. */
  let scope: string[] | null = null
  const select = SELECT_RUNS
  const get = (runId: string): RunRecord | null => {
    const row = pg.one<RunRow>(`${select} WHERE id = $1`, [runId])
    return row ? toRecord(row) : null
  }
  const byKey = (tenant: string, key: string): RunRecord | null => {
    const row = pg.one<RunRow>(BY_KEY_SQL, [tenant, key])
    return row ? toRecord(row) : null
  }
  /**
   * A new run's INSERT and its parameters. `waited`: a run of the same Idempotency-Key makes it
   * insert nothing (the caller reads the count); not waited: that run makes it fail (SQLSTATE
   * 23505), and so the transaction it rides in.
   */
  const insertOf = (run: NewRun, now: number, waited: boolean) => {
    const inputs = JSON.stringify(run.inputs)
    const requirements = JSON.stringify(run.requirements ?? [])
    const sql = `INSERT INTO runs (id, tenant, tool_id, capability_id, status, state_revision,
        inputs, input_hash, idempotency_key, via, deadline_ms, mutating, bill_on_success,
        requirements, created_at, updated_at, node_id)
       VALUES ($1, $2, $3, $4, $5, 1, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14, $15)${
         waited
           ? `
       ON CONFLICT (tenant, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING`
           : ''
       }`
    const params = [
      run.runId,
      run.tenant,
      run.toolId,
      run.capabilityId,
      run.status,
      inputs,
      run.inputHash,
      run.idempotencyKey,
      run.via,
      run.deadlineMs,
      run.mutating ? 1 : 0,
      run.billOnSuccess ? 1 : 0,
      requirements,
      now,
      nodeId,
    ]
    return { sql, params, inputs, requirements }
  }
  const create = (run: NewRun, now: number): { run: RunRecord; created: boolean } => {
    const { sql, params, inputs, requirements } = insertOf(run, now, true)
    const inserted = pg.query(sql, params).rowCount
    if (inserted) return { run: newRecord(run, inputs, requirements, now), created: true }
    return { run: byKey(run.tenant, run.idempotencyKey!)!, created: false }
  }
  /** The UPDATE of `transition` (without RETURNING), its parameters and the result it stores. */
  const update = (runId: string, patch: RunPatch, now: number) => {
    const args: unknown[] = [runId, patch.status, now]
    const sets = ['status = $2', 'state_revision = state_revision + 1', 'updated_at = $3']
    const set = (column: string, value: unknown) => {
      args.push(value)
      sets.push(`${column} = $${args.length}`)
    }
    let known: { value: unknown; text: string | undefined; bytes?: Buffer } | undefined
    if (patch.stored) {
      const data = patch.stored.data
      set('result', typeof data === 'string' ? Buffer.from(data) : data)
      set('result_codec', patch.stored.codec)
      set('result_bytes', patch.stored.bytes)
      known = { value: patch.result, text: patch.resultText, bytes: patch.resultBytes }
    } else if ('result' in patch) {
      const text = JSON.stringify(patch.result ?? null)
      set('result', Buffer.from(text))
      set('result_codec', 'json')
      set('result_bytes', Buffer.byteLength(text))
      known = { value: asStored(patch.result, text), text }
    }
    if ('error' in patch) set('error', patch.error ? JSON.stringify(patch.error) : null)
    if (patch.requirements) set('requirements', JSON.stringify(patch.requirements))
    if (patch.via) set('via', patch.via)
    if (patch.inputs) set('inputs', JSON.stringify(patch.inputs))
    if (patch.effects) set('effects', JSON.stringify(patch.effects))
    if ('signIn' in patch) set('sign_in', patch.signIn ? JSON.stringify(patch.signIn) : null)
    if (patch.billed !== undefined) set('billed', patch.billed ? 1 : 0)
    if (patch.finished) sets.push('finished_at = $3')
    let where = 'id = $1'
    if (patch.from?.length) {
      const marks = patch.from.map((status) => {
        args.push(status)
        return `$${args.length}`
      })
      where += ` AND status IN (${marks.join(', ')})`
    }
    if (patch.revision !== undefined) {
      args.push(patch.revision)
      where += ` AND state_revision = $${args.length}`
    }
    return { sets, where, args, known }
  }
  const transition = (runId: string, patch: RunPatch, now: number): RunRecord | null => {
    const { sets, where, args, known } = update(runId, patch, now)
    const row = pg.one<RunRow>(
      `UPDATE runs SET ${sets.join(', ')} WHERE ${where}
       RETURNING ${COLUMNS}${known ? '' : ', result'}`,
      args,
    )
    return row ? toRecord(row, known) : null
  }
  const succeed: NonNullable<RunRepository['succeed']> = (runId, patch, bill, health, now) => {
    const { billed: _billed, ...unbilled } = patch
    const { sets, where, args, known } = update(runId, unbilled, now)
    const arg = (value: unknown) => {
      args.push(value)
      return `$${args.length}`
    }
    const tenant = `${arg(bill?.tenant ?? null)}::text`
    const grant = `${arg(FREE_GRANT_CREDITS)}::integer`
    // Billed when asked and the balance (as `usage` reads it) covers one credit.
    sets.push(`billed = CASE WHEN ${arg(bill !== null)}::boolean AND COALESCE(
        (SELECT granted + purchased - charged FROM ledger_balances WHERE tenant = ${tenant}),
        ${grant}) >= 1 THEN 1 ELSE 0 END`)
    // One statement: the run's row moves only if the guard holds; the charge and the health
    // row follow from the rows it moved (none when it did not). The charge checks the balance
    // again under the balance row's lock (a race with another node's charge leaves it unpaid,
    // as `chargeRun` after a balance read would).
    const row = pg.one<RunRow & { charged: boolean | null }>(
      `WITH moved AS (
         UPDATE runs SET ${sets.join(', ')} WHERE ${where}
         RETURNING ${COLUMNS}${known ? '' : ', result'}
       ), charge AS (
         SELECT sitecall_charge(${tenant}, NULL, 1, 'site tool call', ${arg(now)}::bigint,
           ${grant}) AS ok
         FROM moved WHERE billed = 1
       ), health AS (
         INSERT INTO tool_health (tool_id, last_good_inputs)
         SELECT ${arg(health.toolId)}::text, ${arg(JSON.stringify(health.inputs))}::text
         FROM moved
         ON CONFLICT (tool_id) DO UPDATE SET consecutive_failures = 0, last_failure_code = NULL,
           last_good_inputs = excluded.last_good_inputs
       )
       SELECT moved.*, (SELECT bool_and(ok) FROM charge) AS charged FROM moved`,
      args,
    )
    return row ? toRecord(row, known) : null
  }
  const storedBytes = () =>
    pg.one<{ bytes: number }>(
      'SELECT COALESCE(SUM(result_bytes), 0) AS bytes FROM runs WHERE result_bytes IS NOT NULL',
    )!.bytes
  const expireResults = (rule: ResultRetention, now: number) => {
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
    let excess = storedBytes() - rule.maxBytes
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
  return {
    create: (run, now) => pg.transaction(() => create(run, now)),
    createSoon(run, now) {
      // In a transaction its caller opened (the run queue's, which adds the run's job:
      // `enlistRunsOf`), the INSERT is not waited for: it rides with what follows and the COMMIT,
      // which commits it before this returns. A run of the same Idempotency-Key that another node
      // committed after the caller's `findByKey` fails that transaction with 23505; its caller
      // then creates the run again with `create` (which reads that run).
      if (pg.inTransaction) {
        const { sql, params, inputs, requirements } = insertOf(run, now, false)
        pg.defer(sql, params)
        return {
          run: newRecord(run, inputs, requirements, now),
          created: true,
          persisted: Promise.resolve(),
        }
      }
      const made = create(run, now)
      return { ...made, persisted: Promise.resolve() }
    },
    createAhead(run, now, creditOf) {
      // Unwaited, so they ride with the start reads queued before them and the COMMIT: the
      // check first (it fails the transaction), then the INSERT (a run of the key fails it).
      const send = () => {
        if (creditOf) pg.defer(REQUIRE_CREDIT_SQL, [creditOf, FREE_GRANT_CREDITS])
        const { sql, params, inputs, requirements } = insertOf(run, now, false)
        pg.defer(sql, params)
        return {
          run: newRecord(run, inputs, requirements, now),
          created: true as const,
          persisted: Promise.resolve(),
        }
      }
      // In the run queue's transaction (`enlistRunsOf`), whose COMMIT or failure decides.
      if (pg.inTransaction) return send()
      try {
        return pg.transaction(send)
      } catch (error) {
        if (refusedAhead(error)) return null
        throw error
      }
    },
    get,
    findByKey: byKey,
    transition,
    succeed,
    list(filter = {}) {
      const rows = filter.toolId
        ? pg.query<RunRow>(
            `${select} WHERE tool_id = $1 ORDER BY created_at DESC, seq DESC LIMIT $2`,
            [filter.toolId, filter.limit ?? 50],
          ).rows
        : pg.query<RunRow>(`${select} ORDER BY created_at DESC, seq DESC LIMIT $1`, [
            filter.limit ?? 50,
          ]).rows
      return rows.map((row) => toRecord(row))
    },
    withStatus(statuses) {
      const rows = scope
        ? pg.query<RunRow>(
            `${select} WHERE status = ANY($1::text[]) AND id = ANY($2::text[])
             ORDER BY created_at, id`,
            [statuses, scope],
          ).rows
        : pg.query<RunRow>(`${select} WHERE status = ANY($1::text[]) ORDER BY created_at, id`, [
            statuses,
          ]).rows
      return rows.map((row) => toRecord(row))
    },
    adopt(fromNodes) {
      if (!nodeId) throw new Error('Only a node with an id adopts runs.')
      return pg
        .query<{ id: string }>(
          `UPDATE runs SET node_id = $1
           WHERE node_id = ANY($2::text[]) AND status = ANY($3::text[]) RETURNING id`,
          [nodeId, fromNodes, IN_FLIGHT],
        )
        .rows.map((r) => r.id)
    },
    adoptOrphans() {
      if (!nodeId) throw new Error('Only a node with an id adopts runs.')
      return pg
        .query<{ id: string }>(
          `UPDATE runs SET node_id = $1
           WHERE node_id IS NOT NULL AND status = ANY($2::text[])
             AND node_id NOT IN (SELECT id FROM server_nodes) RETURNING id`,
          [nodeId, IN_FLIGHT],
        )
        .rows.map((r) => r.id)
    },
    within(runIds, fn) {
      const outer = scope
      scope = runIds
      try {
        return fn()
      } finally {
        scope = outer
      }
    },
    atomicallySoon<T>(fn: () => T): Promise<T> {
      try {
        return Promise.resolve(pg.transaction(fn))
      } catch (error) {
        return Promise.reject(error as Error)
      }
    },
    expireResults: (rule, now) => pg.transaction(() => expireResults(rule, now)),
    storedResults: () =>
      pg.one<{ runs: number; bytes: number }>(
        `SELECT COUNT(*) AS runs, COALESCE(SUM(result_bytes), 0) AS bytes FROM runs
         WHERE result_bytes IS NOT NULL`,
      )!,
  }
}
