import type { Db } from './db'

/** interface.md "Index job": `done` when finished; `failed` when the site or the browser could not be read. */
export type IndexJobStatus = 'queued' | 'running' | 'done' | 'failed'

/** One index job of `POST /api/v1/index` (migration 007). */
export interface IndexJobRecord {
  /** `idx_<ulid>` */
  id: string
  tenant: string
  url: string
  /** host[:port] of `url`, as a tool's `siteHost`. */
  site: string
  intent: string | null
  status: IndexJobStatus
  /** Candidates the job compiled and saved. */
  indexed: number
  /** Why a job ended without a candidate (`sign_in_required`, `no_evidence`...); else null. */
  reason: string | null
  /** Human text beside `reason`. */
  message: string | null
  traceId: string | null
  toolIds: string[]
  /** The sign-in page the observation ended on, when the site asked to sign in. */
  signInUrl: string | null
  /** Milliseconds since the Unix epoch. */
  createdAt: number
  updatedAt: number
  finishedAt: number | null
}

/** What a job's end or progress changes. */
export type IndexJobPatch = Partial<
  Pick<
    IndexJobRecord,
    'status' | 'indexed' | 'reason' | 'message' | 'traceId' | 'toolIds' | 'signInUrl' | 'finishedAt'
  >
>

export interface IndexJobRepository {
  create(job: IndexJobRecord): void
  /** The job, only within its workspace (another workspace's id reads as absent). */
  get(tenant: string, id: string): IndexJobRecord | null
  update(id: string, patch: IndexJobPatch, now: number): IndexJobRecord | null
  /** Jobs still `queued` or `running` in a workspace, oldest first. */
  active(tenant: string): IndexJobRecord[]
  /** Jobs a workspace created after `since` (ms), whatever their status. */
  countSince(tenant: string, since: number): number
  /** The oldest job created after `since` (ms): when the day's window frees a place. */
  oldestSince(tenant: string, since: number): IndexJobRecord | null
  /** Fails every job left `queued` or `running` (the process that ran them is gone). */
  failActive(reason: string, message: string, now: number): number
}

/**
 * A job's columns under its record's field names; only `toolIds` is still the JSON text the
 * table keeps.
 */
const SELECT = `SELECT id, tenant, url, site, intent, status, indexed, reason, message,
  trace_id AS traceId, tool_ids AS toolIds, sign_in_url AS signInUrl, created_at AS createdAt,
  updated_at AS updatedAt, finished_at AS finishedAt FROM index_jobs`

type IndexJobRow = Omit<IndexJobRecord, 'toolIds'> & { toolIds: string }

const toRecord = (row: IndexJobRow): IndexJobRecord => ({
  ...row,
  toolIds: JSON.parse(row.toolIds) as string[],
})

const COLUMNS: Record<keyof IndexJobPatch, string> = {
  status: 'status',
  indexed: 'indexed',
  reason: 'reason',
  message: 'message',
  traceId: 'trace_id',
  toolIds: 'tool_ids',
  signInUrl: 'sign_in_url',
  finishedAt: 'finished_at',
}

/** Creates the index-job repository over an open database (migration 007). */
export function createIndexJobRepository(db: Db): IndexJobRepository {
  const byId = db.prepare(`${SELECT} WHERE id = ?`)
  return {
    create(job) {
      db.prepare(
        `INSERT INTO index_jobs (id, tenant, url, site, intent, status, indexed, reason, message,
           trace_id, tool_ids, sign_in_url, created_at, updated_at, finished_at)
         VALUES (@id, @tenant, @url, @site, @intent, @status, @indexed, @reason, @message,
           @traceId, @toolIds, @signInUrl, @createdAt, @updatedAt, @finishedAt)`,
      ).run({ ...job, toolIds: JSON.stringify(job.toolIds) })
    },
    get(tenant, id) {
      const row = db.prepare(`${SELECT} WHERE tenant = ? AND id = ?`).get(tenant, id)
      return row ? toRecord(row as IndexJobRow) : null
    },
    update(id, patch, now) {
      const keys = Object.keys(patch) as Array<keyof IndexJobPatch>
      const values = keys.map((k) => (k === 'toolIds' ? JSON.stringify(patch[k]) : patch[k]))
      const sets = keys.map((k) => `${COLUMNS[k]} = ?`)
      db.prepare(
        `UPDATE index_jobs SET ${[...sets, 'updated_at = ?'].join(', ')} WHERE id = ?`,
      ).run(...values, now, id)
      const row = byId.get(id) as IndexJobRow | undefined
      return row ? toRecord(row) : null
    },
    active(tenant) {
      const rows = db
        .prepare(
          `${SELECT} WHERE tenant = ? AND status IN ('queued', 'running')
           ORDER BY created_at, id`,
        )
        .all(tenant) as IndexJobRow[]
      return rows.map(toRecord)
    },
    countSince(tenant, since) {
      const row = db
        .prepare('SELECT COUNT(*) AS n FROM index_jobs WHERE tenant = ? AND created_at > ?')
        .get(tenant, since) as { n: number }
      return row.n
    },
    oldestSince(tenant, since) {
      const row = db
        .prepare(
          `${SELECT} WHERE tenant = ? AND created_at > ?
           ORDER BY created_at, id LIMIT 1`,
        )
        .get(tenant, since) as IndexJobRow | undefined
      return row ? toRecord(row) : null
    },
    failActive(reason, message, now) {
      return db
        .prepare(
          `UPDATE index_jobs SET status = 'failed', reason = ?, message = ?, updated_at = ?,
             finished_at = ? WHERE status IN ('queued', 'running')`,
        )
        .run(reason, message, now, now).changes
    },
  }
}
