import type { Statement } from 'better-sqlite3'
import type { Db } from './db'
import { parseJson } from './json'
import { createGroupCommit, type GroupCommit } from './groupCommit'
import { decodeResult, type StoredResult } from './resultCodec'
import type { ErrorBody } from '../../shared/errors'
import type { Requirement, Run, RunStatus } from '../../shared/run'

/** A run as stored: the public Run plus what only the engine needs (docs/architecture.md "The records"). */
export interface RunRecord extends Run {
  tenant: string
  inputs: Record<string, unknown>
  inputHash: string
  idempotencyKey: string | null
  deadlineMs: number | null
  billed: boolean
  finishedAt: string | null
  /** The tool writes: a run lost in flight ends `outcome_unknown`, never retried. */
  mutating: boolean
  /** Surface A: the run bills one credit when it ends `succeeded` (interface.md "What the service does" 7). */
  billOnSuccess: boolean
  /** Requests already sent, kept when the run is cancelled or its answer is lost. */
  effects: RunEffect[]
  /**
   * The result's JSON text, when known without serializing it: the bytes the site answered, or
   * the stored column. Surfaces answer from it instead of serializing `result` again.
   */
  resultText?: string
  /** `resultText`'s UTF-8 bytes as the site sent them, when at hand (a run that just ended). */
  resultBytes?: Buffer
  /** ISO 8601: when the retention sweep dropped this run's result (the run itself is kept). */
  resultExpiredAt: string | null
}

/** One request a run sent: what a cancel cannot undo. */
export interface RunEffect {
  method: string
  url: string
  /** The answer's HTTP status, or null when none came. */
  status: number | null
  /** ISO 8601 */
  at: string
}

export interface NewRun {
  runId: string
  tenant: string
  toolId: string
  capabilityId: string | null
  /** Null for a run no tool took (a task that failed `no_capability`). */
  via: 'http' | 'rendered' | null
  inputs: Record<string, unknown>
  inputHash: string
  idempotencyKey: string | null
  deadlineMs: number | null
  status: RunStatus
  mutating?: boolean
  billOnSuccess?: boolean
  requirements?: Requirement[]
}

/** The fields a transition may change; `stateRevision` is always incremented by one. */
export interface RunPatch {
  status: RunStatus
  result?: unknown
  /**
   * The result as stored (`encodeResult` of `resultText`); without it a `result` is stored as
   * its JSON serialization.
   */
  stored?: StoredResult
  /** The JSON text of `result` (the site's own bytes, or one serialization of it). */
  resultText?: string
  /** `resultText`'s UTF-8 bytes, when the executor kept them. */
  resultBytes?: Buffer
  error?: ErrorBody | null
  requirements?: Requirement[]
  signIn?: { url: string } | null
  billed?: boolean
  finished?: boolean
  via?: 'http' | 'rendered'
  inputs?: Record<string, unknown>
  effects?: RunEffect[]
  /** Compare-and-set: only when the run is in one of these states (else null is returned). */
  from?: RunStatus[]
  /** Compare-and-set on `stateRevision`. */
  revision?: number
}

export interface RunRepository {
  /**
   * Inserts a run (stateRevision 1) and commits before returning, so it is on disk before any
   * outbound request. With an idempotency key already used by the tenant, inserts nothing and
   * returns the existing run with `created: false`.
   */
  create(run: NewRun, now: number): { run: RunRecord; created: boolean }
  /**
   * `create` with the insert's commit shared with the other writes of this event-loop turn
   * (group commit): `persisted` settles once the run is on disk and rejects when it could not
   * be stored. Nothing may be sent for the run before then (docs/architecture.md "The records": a run is persisted
   * before its first outbound request). Reads of this repository see the run at once (they
   * commit what is queued first).
   */
  createSoon(
    run: NewRun,
    now: number,
  ): { run: RunRecord; created: boolean; persisted: Promise<void> }
  /**
   * A store whose writes cost a network round trip (PostgreSQL) creates a run with the start
   * reads the engine queued (`ReadAhead.runStart`) and before it has seen them: the INSERT goes
   * out with them in one round trip and commits before this returns. It stores nothing and
   * returns null when the tenant already has a run of `run.idempotencyKey` (the unique index
   * refuses the INSERT), or when `creditOf` is a workspace whose balance covers less than one
   * credit (checked in the same transaction); the caller then decides the waited way
   * (`findByKey`, the balance, `createSoon`), which gives the join or the 402. Absent: the store
   * reads locally and the waited way costs nothing (SQLite).
   */
  createAhead?(
    run: NewRun,
    now: number,
    creditOf: string | null,
  ): { run: RunRecord; created: true; persisted: Promise<void> } | null
  get(runId: string): RunRecord | null
  /** The tenant's run of an idempotency key, or null. */
  findByKey(tenant: string, key: string): RunRecord | null
  /**
   * One transition, one transaction, `stateRevision` + 1; returns the updated run, or null when
   * there is no such run or the `from`/`revision` guard did not hold (a racing transition won).
   */
  transition(runId: string, patch: RunPatch, now: number): RunRecord | null
  list(filter?: { toolId?: string; limit?: number }): RunRecord[]
  /** Runs in any of these states, oldest first (recovery, the requirements inbox, expiry). */
  withStatus(statuses: RunStatus[]): RunRecord[]
  /**
   * Applies the result retention: drops results past `maxAgeMs`, then the oldest
   * while all results hold more than `maxBytes`; runs keep their record and `resultExpiredAt`.
   * Returns how many results and stored bytes were dropped.
   */
  expireResults(rule: ResultRetention, now: number): { runs: number; bytes: number }
  /**
   * Runs `fn` in one transaction (a run's end, its credit and its tool's health together or not
   * at all) whose commit is shared with the other calls of the same event-loop turn (group
   * commit: at 16 runs in flight one commit ends several). Each `fn` runs in a savepoint of its
   * own, so one that throws undoes only itself; the promise settles once the shared commit is
   * done, its writes then durable (docs/architecture.md "never lost").
   */
  atomicallySoon<T>(fn: () => T): Promise<T>
  /**
   * A store whose run end, credit and tool health live in one database may record a working
   * run's success in one statement (PostgreSQL): `transition(runId, patch)` (a `from` guard, no
   * `billed`), and when it moves the run, `billed` set when `bill` is given and its workspace's
   * balance covers one credit, that credit charged (`LedgerRepository.chargeRun`), and the
   * tool's streak reset with `health.inputs` as its last good inputs
   * (`ToolHealthRepository.recordSuccess`). Returns the run, or null when the guard did not
   * hold (nothing is charged or recorded then). Absent: the caller does the three itself in
   * `atomicallySoon`.
   */
  succeed?(
    runId: string,
    patch: RunPatch,
    bill: { tenant: string } | null,
    health: { toolId: string; inputs: Record<string, unknown> },
    now: number,
  ): RunRecord | null
  /** How many runs hold a result, and the bytes those results take in the file. */
  storedResults(): { runs: number; bytes: number }
}

/** How long results are kept. */
export interface ResultRetention {
  /** Results older than this (ms since the run finished) are dropped. */
  maxAgeMs: number
  /** All results together hold at most this many stored bytes; the oldest go first. */
  maxBytes: number
}

/** Results are kept 30 days and at most 1 GB by default; run records longer. */
export const DEFAULT_RESULT_RETENTION: ResultRetention = {
  maxAgeMs: 30 * 24 * 60 * 60_000,
  maxBytes: 1024 ** 3,
}

/** A row of `runs` as both stores read it (PostgreSQL's `result` is always bytes). */
export interface RunRow {
  id: string
  tenant: string
  tool_id: string
  status: RunStatus
  state_revision: number
  inputs: string
  input_hash: string
  idempotency_key: string | null
  result: string | Buffer | null
  error: string | null
  requirements: string
  via: 'http' | 'rendered' | null
  sign_in: string | null
  deadline_ms: number | null
  billed: number
  created_at: number
  updated_at: number
  finished_at: number | null
  capability_id: string | null
  effects: string
  mutating: number
  bill_on_success: number
  result_codec: string | null
  result_expired_at: number | null
}

const iso = (ms: number) => new Date(ms).toISOString()

/**
 * The record of a row. `known`, when given, is the result just written (value and JSON text):
 * used as is instead of reading the column again (results can be large). A row read without its
 * `result` column carries no result.
 */
export function toRecord(
  r: RunRow,
  known?: { value: unknown; text: string | undefined; bytes?: Buffer | undefined },
): RunRecord {
  const record: RunRecord = {
    runId: r.id,
    status: r.status,
    capabilityId: r.capability_id,
    error: parseJson<ErrorBody>(r.error),
    requirements: JSON.parse(r.requirements) as Requirement[],
    via: r.via,
    signIn: parseJson<{ url: string }>(r.sign_in),
    toolId: r.tool_id,
    stateRevision: r.state_revision,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    tenant: r.tenant,
    inputs: JSON.parse(r.inputs) as Record<string, unknown>,
    inputHash: r.input_hash,
    idempotencyKey: r.idempotency_key,
    deadlineMs: r.deadline_ms,
    billed: r.billed === 1,
    finishedAt: r.finished_at === null ? null : iso(r.finished_at),
    mutating: r.mutating === 1,
    billOnSuccess: r.bill_on_success === 1,
    effects: JSON.parse(r.effects) as RunEffect[],
    resultExpiredAt: r.result_expired_at === null ? null : iso(r.result_expired_at),
  }
  if (known) {
    record.result = known.value
    if (known.text !== undefined) record.resultText = known.text
    if (known.bytes) record.resultBytes = known.bytes
  } else if (r.result !== null && r.result !== undefined) {
    const text = decodeResult(r.result_codec, r.result)
    record.result = JSON.parse(text)
    record.resultText = text
  }
  return record
}

/**
 * The record of a row just inserted (stateRevision 1, nothing ended), without reading it back:
 * `inputs` and `requirements` are parsed from the JSON text stored, as a read would give them.
 */
export function newRecord(
  run: NewRun,
  inputs: string,
  requirements: string,
  now: number,
): RunRecord {
  return {
    runId: run.runId,
    status: run.status,
    capabilityId: run.capabilityId,
    error: null,
    requirements: JSON.parse(requirements) as Requirement[],
    via: run.via,
    signIn: null,
    toolId: run.toolId,
    stateRevision: 1,
    createdAt: iso(now),
    updatedAt: iso(now),
    tenant: run.tenant,
    inputs: JSON.parse(inputs) as Record<string, unknown>,
    inputHash: run.inputHash,
    idempotencyKey: run.idempotencyKey,
    deadlineMs: run.deadlineMs,
    billed: false,
    finishedAt: null,
    mutating: run.mutating ?? false,
    billOnSuccess: run.billOnSuccess ?? false,
    effects: [],
    resultExpiredAt: null,
  }
}

/** Every column of a run but `result`: what a transition reads back (it knows the result). */
export const COLUMNS = `id, tenant, tool_id, status, state_revision, inputs, input_hash, idempotency_key,
  error, requirements, via, sign_in, deadline_ms, billed, created_at, updated_at, finished_at,
  capability_id, effects, mutating, bill_on_success, result_codec, result_expired_at`

/** What the SQLite run functions share: the database, its prepared statements, the group commit. */
interface RunStore {
  db: Db
  /** The statement of `sql`, prepared once per SQL text. */
  prepare: (sql: string) => Statement<unknown[]>
  /**
   * Writes of one event-loop turn (`createSoon`, `atomicallySoon`) commit together; every read
   * and sync write commits what is queued first, so it sees those runs.
   */
  group: GroupCommit
  /**
   * A transition's UPDATE by the shape of its patch (which columns, which guards): the SQL text
   * is built once per shape, not on every transition.
   */
  updates: Map<string, Statement<unknown[]>>
}

const SELECT_RUNS = `SELECT ${COLUMNS}, result FROM runs`

/** Creates the run repository over an open database. */
export function createRunRepository(db: Db): RunRepository {
  // Statements are prepared once per SQL text and reused: preparing costs more than running
  // these. None of them is put in pluck/raw/expand mode, so sharing is safe.
  const statements = new Map<string, Statement<unknown[]>>()
  const prepare = (sql: string) => {
    let statement = statements.get(sql)
    if (!statement) statements.set(sql, (statement = db.prepare<unknown[]>(sql)))
    return statement
  }
  const store: RunStore = { db, prepare, group: createGroupCommit(db), updates: new Map() }
  const { group } = store
  const create = db.transaction((run: NewRun, now: number) => {
    if (run.idempotencyKey) {
      const existing = runByKey(store, run.tenant, run.idempotencyKey)
      if (existing) return { run: existing, created: false }
    }
    const inputs = JSON.stringify(run.inputs)
    const requirements = JSON.stringify(run.requirements ?? [])
    insertRun(store, run, inputs, requirements, now)
    return { run: newRecord(run, inputs, requirements, now), created: true }
  })
  return {
    create: (run, now) => {
      group.flush()
      return create(run, now)
    },
    createSoon: (run, now) => createRunSoon(store, run, now),
    get(runId) {
      group.flush()
      const row = prepare(`${SELECT_RUNS} WHERE id = ?`).get(runId) as RunRow | undefined
      return row ? toRecord(row) : null
    },
    findByKey: (tenant, key) => runByKey(store, tenant, key),
    transition: (runId, patch, now) => transitionRun(store, runId, patch, now),
    list(filter = {}) {
      group.flush()
      const rows = (
        filter.toolId
          ? prepare(`${SELECT_RUNS} WHERE tool_id = ? ORDER BY created_at DESC LIMIT ?`).all(
              filter.toolId,
              filter.limit ?? 50,
            )
          : prepare(`${SELECT_RUNS} ORDER BY created_at DESC LIMIT ?`).all(filter.limit ?? 50)
      ) as RunRow[]
      return rows.map((row) => toRecord(row))
    },
    withStatus(statuses) {
      group.flush()
      const marks = statuses.map(() => '?').join(', ')
      const rows = db
        .prepare(`${SELECT_RUNS} WHERE status IN (${marks}) ORDER BY created_at, id`)
        .all(...statuses) as RunRow[]
      return rows.map((row) => toRecord(row))
    },
    atomicallySoon: (fn) => group.soon(fn),
    expireResults(rule, now) {
      group.flush()
      return expireResults(store, rule, now)
    },
    storedResults() {
      group.flush()
      return prepare(
        'SELECT COUNT(*) AS runs, COALESCE(SUM(result_bytes), 0) AS bytes FROM runs WHERE result_bytes IS NOT NULL',
      ).get() as { runs: number; bytes: number }
    },
  }
}

/** The tenant's run of an idempotency key, or null (after the queued writes commit). */
function runByKey(store: RunStore, tenant: string, key: string): RunRecord | null {
  store.group.flush()
  const row = store
    .prepare(`${SELECT_RUNS} WHERE tenant = ? AND idempotency_key = ?`)
    .get(tenant, key) as RunRow | undefined
  return row ? toRecord(row) : null
}

/** Inserts a run's row, `inputs` and `requirements` as their JSON text. */
function insertRun(
  store: RunStore,
  run: NewRun,
  inputs: string,
  requirements: string,
  now: number,
): void {
  store
    .prepare(
      `INSERT INTO runs (id, tenant, tool_id, capability_id, status, state_revision, inputs,
        input_hash, idempotency_key, via, deadline_ms, mutating, bill_on_success, requirements,
        created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
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
      now,
    )
}

/** `RunRepository.createSoon`: the run of the key when there is one, else an insert in the group commit. */
function createRunSoon(
  store: RunStore,
  run: NewRun,
  now: number,
): { run: RunRecord; created: boolean; persisted: Promise<void> } {
  if (run.idempotencyKey) {
    const existing = runByKey(store, run.tenant, run.idempotencyKey)
    if (existing) return { run: existing, created: false, persisted: Promise.resolve() }
  }
  const inputs = JSON.stringify(run.inputs)
  const requirements = JSON.stringify(run.requirements ?? [])
  const persisted = store.group.soon(() => insertRun(store, run, inputs, requirements, now))
  return { run: newRecord(run, inputs, requirements, now), created: true, persisted }
}

/** The UPDATE of a transition of one patch shape, prepared once per shape. */
function updateFor(
  store: RunStore,
  columns: string[],
  fromCount: number,
  revision: boolean,
  known: boolean,
): Statement<unknown[]> {
  const shape = `${columns.join(',')}|${fromCount}|${revision}|${known}`
  let statement = store.updates.get(shape)
  if (!statement) {
    const sets = ['status = @status', 'state_revision = state_revision + 1', 'updated_at = @now']
    for (const column of columns)
      sets.push(column === 'finished_at' ? 'finished_at = @now' : `${column} = @${column}`)
    let where = 'id = @runId'
    if (fromCount)
      where += ` AND status IN (${Array.from({ length: fromCount }, (_, i) => `@from${i}`).join(', ')})`
    if (revision) where += ' AND state_revision = @revision'
    statement = store.prepare(
      `UPDATE runs SET ${sets.join(', ')} WHERE ${where} RETURNING ${COLUMNS}${known ? '' : ', result'}`,
    )
    store.updates.set(shape, statement)
  }
  return statement
}

/**
 * `RunRepository.transition` in one statement: the UPDATE returns the row, so nothing is read
 * again. Without `result` in the patch the stored result is read back with it (a cancel of a
 * finished run keeps its result); with it, the value just written is used as is.
 */
function transitionRun(
  store: RunStore,
  runId: string,
  patch: RunPatch,
  now: number,
): RunRecord | null {
  store.group.flush()
  const columns: string[] = []
  const args: Record<string, unknown> = { runId, status: patch.status, now }
  const set = (column: string, value: unknown) => {
    columns.push(column)
    args[column] = value
  }
  let known: { value: unknown; text: string | undefined; bytes?: Buffer } | undefined
  if (patch.stored) {
    set('result', patch.stored.data)
    set('result_codec', patch.stored.codec)
    set('result_bytes', patch.stored.bytes)
    known = { value: patch.result, text: patch.resultText, bytes: patch.resultBytes }
  } else if ('result' in patch) {
    const text = JSON.stringify(patch.result ?? null)
    set('result', text)
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
  if (patch.finished) columns.push('finished_at')
  patch.from?.forEach((status, i) => (args[`from${i}`] = status))
  if (patch.revision !== undefined) args.revision = patch.revision
  const update = updateFor(
    store,
    columns,
    patch.from?.length ?? 0,
    patch.revision !== undefined,
    known !== undefined,
  )
  const row = update.get(args) as RunRow | undefined
  return row ? toRecord(row, known) : null
}

/**
 * Drops results older than `maxAgeMs` (by the run's `finished_at`, else `updated_at`), then the
 * oldest results while all of them hold more than `maxBytes`; each dropped result leaves
 * `result_expired_at` behind. One transaction per batch of 500 runs, so a large sweep never
 * holds the write lock for long.
 */
function expireResults(
  store: RunStore,
  rule: ResultRetention,
  now: number,
): { runs: number; bytes: number } {
  const { db, prepare } = store
  const drop = prepare(
    `UPDATE runs SET result = NULL, result_codec = NULL, result_bytes = NULL,
       result_expired_at = @now
     WHERE id = @id AND result_bytes IS NOT NULL`,
  )
  const dropAll = db.transaction((ids: Array<{ id: string; bytes: number }>) => {
    for (const { id } of ids) drop.run({ id, now })
  })
  const dropped = { runs: 0, bytes: 0 }
  const batches = (ids: Array<{ id: string; bytes: number }>) => {
    for (let i = 0; i < ids.length; i += 500) {
      const batch = ids.slice(i, i + 500)
      dropAll(batch)
      dropped.runs += batch.length
      dropped.bytes += batch.reduce((sum, r) => sum + r.bytes, 0)
    }
  }
  batches(
    prepare(
      `SELECT id, result_bytes AS bytes FROM runs
       WHERE result_bytes IS NOT NULL AND COALESCE(finished_at, updated_at) < ?`,
    ).all(now - rule.maxAgeMs) as Array<{ id: string; bytes: number }>,
  )
  let excess = storedBytes(store) - rule.maxBytes
  if (excess > 0) {
    const oldest: Array<{ id: string; bytes: number }> = []
    for (const row of prepare(
      `SELECT id, result_bytes AS bytes FROM runs WHERE result_bytes IS NOT NULL
       ORDER BY COALESCE(finished_at, updated_at), id`,
    ).iterate() as IterableIterator<{ id: string; bytes: number }>) {
      if (excess <= 0) break
      oldest.push(row)
      excess -= row.bytes
    }
    batches(oldest)
  }
  return dropped
}

/** The bytes all stored results take. */
function storedBytes(store: RunStore): number {
  return (
    store
      .prepare(
        'SELECT COALESCE(SUM(result_bytes), 0) AS bytes FROM runs WHERE result_bytes IS NOT NULL',
      )
      .get() as { bytes: number }
  ).bytes
}

/**
 * A result as reading its stored JSON text back would give it: `value` itself when it is plain
 * JSON (no walk of a copy), else the parse of `text`, its serialization.
 */
export function asStored(value: unknown, text: string): unknown {
  return isPlainJson(value) ? value : JSON.parse(text)
}

/** True for a value JSON round-trips unchanged: null, finite numbers, strings, booleans, arrays and plain objects of those. */
function isPlainJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true
  if (typeof value === 'number') return Number.isFinite(value)
  if (Array.isArray(value)) return value.every(isPlainJson)
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false
  return Object.values(value as Record<string, unknown>).every(
    (v) => v !== undefined && isPlainJson(v),
  )
}
