import {
  asStored,
  COLUMNS,
  newRecord,
  toRecord,
  type NewRun,
  type RunPatch,
  type RunRecord,
  type RunRepository,
  type RunRow,
} from '../runRepository'
import { FREE_GRANT_CREDITS } from '../ledgerRepository'
import { PgError, type SyncPg } from './pgSync'

/**
 * What the PostgreSQL run functions share: the connection, the node that creates runs (null
 * outside a team server), and while `within` runs, the only runs `withStatus` sees.
 */
export interface PgRunContext {
  pg: SyncPg
  nodeId: string | null
  scope: string[] | null
}

/** Every column of a run, its result included. */
export const SELECT_RUNS = `SELECT ${COLUMNS}, result FROM runs`
/** The run of an Idempotency-Key (`findByKey`); `prefetchRunByKey` queues the same read. */
export const BY_KEY_SQL = `${SELECT_RUNS} WHERE tenant = $1 AND idempotency_key = $2`

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

/** The tenant's run of an Idempotency-Key, or null. */
export function runByKey(pg: SyncPg, tenant: string, key: string): RunRecord | null {
  const row = pg.one<RunRow>(BY_KEY_SQL, [tenant, key])
  return row ? toRecord(row) : null
}

/**
 * A new run's INSERT and its parameters. `waited`: a run of the same Idempotency-Key makes it
 * insert nothing (the caller reads the count); not waited: that run makes it fail (SQLSTATE
 * 23505), and so the transaction it rides in.
 */
function insertOf(context: PgRunContext, run: NewRun, now: number, waited: boolean) {
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
    context.nodeId,
  ]
  return { sql, params, inputs, requirements }
}

/**
 * Inserts a run and waits for the insert (`RunRepository.create` without its transaction): a
 * run of the same Idempotency-Key, another node's included, makes it read and return that run.
 */
export function createRun(
  context: PgRunContext,
  run: NewRun,
  now: number,
): { run: RunRecord; created: boolean } {
  const { sql, params, inputs, requirements } = insertOf(context, run, now, true)
  const inserted = context.pg.query(sql, params).rowCount
  if (inserted) return { run: newRecord(run, inputs, requirements, now), created: true }
  return { run: runByKey(context.pg, run.tenant, run.idempotencyKey!)!, created: false }
}

/** `RunRepository.createSoon`: the insert rides with its caller's transaction when there is one. */
export function createRunSoon(
  context: PgRunContext,
  run: NewRun,
  now: number,
): { run: RunRecord; created: boolean; persisted: Promise<void> } {
  // In a transaction its caller opened (the run queue's, which adds the run's job:
  // `enlistRunsOf`), the INSERT is not waited for: it rides with what follows and the COMMIT,
  // which commits it before this returns. A run of the same Idempotency-Key that another node
  // committed after the caller's `findByKey` fails that transaction with 23505; its caller
  // then creates the run again with `create` (which reads that run).
  if (context.pg.inTransaction) {
    const { sql, params, inputs, requirements } = insertOf(context, run, now, false)
    context.pg.defer(sql, params)
    return {
      run: newRecord(run, inputs, requirements, now),
      created: true,
      persisted: Promise.resolve(),
    }
  }
  const made = createRun(context, run, now)
  return { ...made, persisted: Promise.resolve() }
}

/**
 * `RunRepository.createAhead`: the credit check (when `creditOf` is given) and the INSERT go
 * unwaited; null when the key was taken or the credit was short (`refusedAhead`).
 */
export function createRunAhead(
  context: PgRunContext,
  run: NewRun,
  now: number,
  creditOf: string | null,
): { run: RunRecord; created: true; persisted: Promise<void> } | null {
  const { pg } = context
  // Unwaited, so they ride with the start reads queued before them and the COMMIT: the
  // check first (it fails the transaction), then the INSERT (a run of the key fails it).
  const send = () => {
    if (creditOf) pg.defer(REQUIRE_CREDIT_SQL, [creditOf, FREE_GRANT_CREDITS])
    const { sql, params, inputs, requirements } = insertOf(context, run, now, false)
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
}

/** The UPDATE of `transition` (without RETURNING), its parameters and the result it stores. */
function updateOf(runId: string, patch: RunPatch, now: number) {
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

/** `RunRepository.transition`: one UPDATE that returns the row it moved, or null. */
export function transitionRun(
  pg: SyncPg,
  runId: string,
  patch: RunPatch,
  now: number,
): RunRecord | null {
  const { sets, where, args, known } = updateOf(runId, patch, now)
  const row = pg.one<RunRow>(
    `UPDATE runs SET ${sets.join(', ')} WHERE ${where}
     RETURNING ${COLUMNS}${known ? '' : ', result'}`,
    args,
  )
  return row ? toRecord(row, known) : null
}

/**
 * `RunRepository.succeed`: the run's end, its credit and its tool's health in one statement.
 */
export function succeedRun(
  pg: SyncPg,
  ...[runId, patch, bill, health, now]: Parameters<NonNullable<RunRepository['succeed']>>
): RunRecord | null {
  const { billed: _billed, ...unbilled } = patch
  const { sets, where, args, known } = updateOf(runId, unbilled, now)
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
