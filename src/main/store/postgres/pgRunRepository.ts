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
import type { SyncPg } from './pgSync'

/**
 * Runs on PostgreSQL (the `RunRepository` contract). Each write is its own statement and commits
 * before it returns, so `createSoon` and `atomicallySoon` are durable when called: there is no
 * group commit to wait for (PostgreSQL commits each node's writes concurrently). Two nodes racing
 * on one Idempotency-Key meet in the unique index: the second insert does nothing and reads the
 * first run.
 */
export function createPgRunRepository(pg: SyncPg): RunRepository {
  const select = `SELECT ${COLUMNS}, result FROM runs`
  const get = (runId: string): RunRecord | null => {
    const row = pg.one<RunRow>(`${select} WHERE id = $1`, [runId])
    return row ? toRecord(row) : null
  }
  const byKey = (tenant: string, key: string): RunRecord | null => {
    const row = pg.one<RunRow>(`${select} WHERE tenant = $1 AND idempotency_key = $2`, [
      tenant,
      key,
    ])
    return row ? toRecord(row) : null
  }
  const create = (run: NewRun, now: number): { run: RunRecord; created: boolean } => {
    const inputs = JSON.stringify(run.inputs)
    const requirements = JSON.stringify(run.requirements ?? [])
    const inserted = pg.query(
      `INSERT INTO runs (id, tenant, tool_id, capability_id, status, state_revision, inputs,
        input_hash, idempotency_key, via, deadline_ms, mutating, bill_on_success, requirements,
        created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, 1, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14)
       ON CONFLICT (tenant, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING`,
      [
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
      ],
    ).rowCount
    if (inserted) return { run: newRecord(run, inputs, requirements, now), created: true }
    return { run: byKey(run.tenant, run.idempotencyKey!)!, created: false }
  }
  const transition = (runId: string, patch: RunPatch, now: number): RunRecord | null => {
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
    const row = pg.one<RunRow>(
      `UPDATE runs SET ${sets.join(', ')} WHERE ${where}
       RETURNING ${COLUMNS}${known ? '' : ', result'}`,
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
      const made = create(run, now)
      return { ...made, persisted: Promise.resolve() }
    },
    get,
    findByKey: byKey,
    transition,
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
      const rows = pg.query<RunRow>(
        `${select} WHERE status = ANY($1::text[]) ORDER BY created_at, id`,
        [`{${statuses.join(',')}}`],
      ).rows
      return rows.map((row) => toRecord(row))
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
