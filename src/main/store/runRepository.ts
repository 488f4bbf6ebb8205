import type { Statement } from 'better-sqlite3'
import type { Db } from './db'
import { parseJson } from './json'
import type { ErrorBody } from '../../shared/errors'
import type { Requirement, Run, RunStatus } from '../../shared/run'

/** A run as stored: the public Run plus what only the engine needs (DESIGN.md §4). */
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
  /** Surface A: the run bills one credit when it ends `succeeded` (spec "What the service does" 7). */
  billOnSuccess: boolean
  /** Requests already sent, kept when the run is cancelled or its answer is lost. */
  effects: RunEffect[]
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
}

interface RunRow {
  id: string
  tenant: string
  tool_id: string
  status: RunStatus
  state_revision: number
  inputs: string
  input_hash: string
  idempotency_key: string | null
  result: string | null
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
}

const iso = (ms: number) => new Date(ms).toISOString()

/**
 * The record of a row. `result`, when given, is the value just written to the row's `result`
 * column: it is used as is instead of parsing the column again (results can be large).
 */
function toRecord(r: RunRow, result?: { value: unknown }): RunRecord {
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
  }
  if (result) record.result = result.value
  else if (r.result !== null) record.result = JSON.parse(r.result)
  return record
}

/** Creates the run repository over an open database. */
export function createRunRepository(db: Db): RunRepository {
  // capability_id is not a column of its own: it is read from the run's tool row.
  const select = `SELECT runs.*, json_extract(tools.spec, '$.capabilityId') AS capability_id
    FROM runs LEFT JOIN tools ON tools.id = runs.tool_id`
  // Statements are prepared once per SQL text and reused: preparing costs more than running
  // these (issue 4 bench). None of them is put in pluck/raw/expand mode, so sharing is safe.
  const statements = new Map<string, Statement<unknown[]>>()
  const prepare = (sql: string) => {
    let statement = statements.get(sql)
    if (!statement) statements.set(sql, (statement = db.prepare<unknown[]>(sql)))
    return statement
  }
  const get = (runId: string, result?: { value: unknown }) => {
    const row = prepare(`${select} WHERE runs.id = ?`).get(runId) as RunRow | undefined
    return row ? toRecord(row, result) : null
  }
  const byKey = (tenant: string, key: string) => {
    const row = prepare(`${select} WHERE runs.tenant = ? AND runs.idempotency_key = ?`).get(
      tenant,
      key,
    ) as RunRow | undefined
    return row ? toRecord(row) : null
  }
  const create = db.transaction((run: NewRun, now: number) => {
    if (run.idempotencyKey) {
      const existing = byKey(run.tenant, run.idempotencyKey)
      if (existing) return { run: existing, created: false }
    }
    prepare(
      `INSERT INTO runs (id, tenant, tool_id, status, state_revision, inputs, input_hash,
        idempotency_key, via, deadline_ms, mutating, bill_on_success, requirements,
        created_at, updated_at)
       VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      run.runId,
      run.tenant,
      run.toolId,
      run.status,
      JSON.stringify(run.inputs),
      run.inputHash,
      run.idempotencyKey,
      run.via,
      run.deadlineMs,
      run.mutating ? 1 : 0,
      run.billOnSuccess ? 1 : 0,
      JSON.stringify(run.requirements ?? []),
      now,
      now,
    )
    return { run: get(run.runId)!, created: true }
  })
  const transition = db.transaction((runId: string, patch: RunPatch, now: number) => {
    const sets = ['status = @status', 'state_revision = state_revision + 1', 'updated_at = @now']
    const args: Record<string, unknown> = { runId, status: patch.status, now }
    const set = (column: string, name: string, value: unknown) => {
      sets.push(`${column} = @${name}`)
      args[name] = value
    }
    if ('result' in patch) set('result', 'result', JSON.stringify(patch.result ?? null))
    if ('error' in patch) set('error', 'error', patch.error ? JSON.stringify(patch.error) : null)
    if (patch.requirements) set('requirements', 'requirements', JSON.stringify(patch.requirements))
    if (patch.via) set('via', 'via', patch.via)
    if (patch.inputs) set('inputs', 'inputs', JSON.stringify(patch.inputs))
    if (patch.effects) set('effects', 'effects', JSON.stringify(patch.effects))
    if ('signIn' in patch)
      set('sign_in', 'signIn', patch.signIn ? JSON.stringify(patch.signIn) : null)
    if (patch.billed !== undefined) set('billed', 'billed', patch.billed ? 1 : 0)
    if (patch.finished) sets.push('finished_at = @now')
    let where = 'id = @runId'
    if (patch.from) {
      where += ` AND status IN (${patch.from.map((_, i) => `@from${i}`).join(', ')})`
      patch.from.forEach((status, i) => (args[`from${i}`] = status))
    }
    if (patch.revision !== undefined) {
      where += ' AND state_revision = @revision'
      args.revision = patch.revision
    }
    const changed = prepare(`UPDATE runs SET ${sets.join(', ')} WHERE ${where}`).run(args)
    if (!changed.changes) return null
    // JSON.stringify then JSON.parse gives the plain-JSON copy of the result (no undefined, no
    // prototypes): only a result that already is plain JSON is reused as is.
    return get(
      runId,
      'result' in patch && isPlainJson(patch.result) ? { value: patch.result } : undefined,
    )
  })
  return {
    create: (run, now) => create(run, now),
    get,
    findByKey: byKey,
    transition: (runId, patch, now) => transition(runId, patch, now),
    list(filter = {}) {
      const rows = (
        filter.toolId
          ? db
              .prepare(`${select} WHERE runs.tool_id = ? ORDER BY runs.created_at DESC LIMIT ?`)
              .all(filter.toolId, filter.limit ?? 50)
          : db.prepare(`${select} ORDER BY runs.created_at DESC LIMIT ?`).all(filter.limit ?? 50)
      ) as RunRow[]
      return rows.map((row) => toRecord(row))
    },
    withStatus(statuses) {
      const marks = statuses.map(() => '?').join(', ')
      const rows = db
        .prepare(`${select} WHERE runs.status IN (${marks}) ORDER BY runs.created_at, runs.id`)
        .all(...statuses) as RunRow[]
      return rows.map((row) => toRecord(row))
    },
  }
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
