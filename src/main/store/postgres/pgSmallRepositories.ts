import type { IndexJobPatch, IndexJobRecord, IndexJobRepository } from '../indexJobRepository'
import type { LocalSiteRepository } from '../localSiteRepository'
import type { ScopeRepository, ToolScopeRecord } from '../scopeRepository'
import type { ToolHealth, ToolHealthRepository } from '../toolHealthRepository'
import type { SyncPg } from './pgSync'

/**
 * Tool scopes on PostgreSQL. The workspace's scopes are counted and written in one transaction
 * that first locks the workspace's key (a transaction advisory lock): two nodes creating the
 * 21st scope at once cannot both pass the limit.
 */
export function createPgScopeRepository(pg: SyncPg): ScopeRepository {
  const toRecord = (r: { slug: string; apps: string; tools: string; created_at: number }) => ({
    slug: r.slug,
    apps: JSON.parse(r.apps) as string[],
    tools: JSON.parse(r.tools) as string[],
    createdAt: r.created_at,
  })
  return {
    put: (tenant: string, scope: ToolScopeRecord, max: number) =>
      pg.transaction(() => {
        pg.query("SELECT pg_advisory_xact_lock(hashtext('scopes:' || $1))", [tenant])
        const exists = pg.one('SELECT 1 AS x FROM tool_scopes WHERE tenant = $1 AND slug = $2', [
          tenant,
          scope.slug,
        ])
        const { n } = pg.one<{ n: number }>(
          'SELECT COUNT(*) AS n FROM tool_scopes WHERE tenant = $1',
          [tenant],
        )!
        if (!exists && n >= max) return false
        pg.query(
          `INSERT INTO tool_scopes (tenant, slug, apps, tools, created_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (tenant, slug) DO UPDATE SET apps = excluded.apps, tools = excluded.tools`,
          [
            tenant,
            scope.slug,
            JSON.stringify(scope.apps),
            JSON.stringify(scope.tools),
            scope.createdAt,
          ],
        )
        return true
      }),
    find(tenant, slug) {
      const row = pg.one<Parameters<typeof toRecord>[0]>(
        'SELECT * FROM tool_scopes WHERE tenant = $1 AND slug = $2',
        [tenant, slug],
      )
      return row ? toRecord(row) : null
    },
    list: (tenant) =>
      pg
        .query<Parameters<typeof toRecord>[0]>(
          'SELECT * FROM tool_scopes WHERE tenant = $1 ORDER BY created_at, slug',
          [tenant],
        )
        .rows.map(toRecord),
    remove: (tenant, slug) =>
      pg.query('DELETE FROM tool_scopes WHERE tenant = $1 AND slug = $2', [tenant, slug]).rowCount >
      0,
  }
}

/** The per-workspace allow-list of local sites on PostgreSQL. */
export function createPgLocalSiteRepository(pg: SyncPg): LocalSiteRepository {
  return {
    list: (tenant) =>
      pg
        .query<{ host: string; created_at: number }>(
          'SELECT host, created_at FROM local_sites WHERE tenant = $1 ORDER BY created_at, host',
          [tenant],
        )
        .rows.map((r) => ({ host: r.host, createdAt: r.created_at })),
    add: (tenant, host, now) =>
      pg.query(
        `INSERT INTO local_sites (tenant, host, created_at) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING`,
        [tenant, host.toLowerCase(), now],
      ).rowCount === 1,
    remove: (tenant, host) =>
      pg.query('DELETE FROM local_sites WHERE tenant = $1 AND host = $2', [
        tenant,
        host.toLowerCase(),
      ]).rowCount === 1,
  }
}

interface HealthRow {
  tool_id: string
  consecutive_failures: number
  last_failure_code: string | null
  last_good_inputs: string | null
  quarantined_at: number | null
  checked_at: number | null
}

const toHealth = (r: HealthRow): ToolHealth => ({
  toolId: r.tool_id,
  consecutiveFailures: r.consecutive_failures,
  lastFailureCode: r.last_failure_code,
  lastGoodInputs: r.last_good_inputs
    ? (JSON.parse(r.last_good_inputs) as Record<string, unknown>)
    : null,
  quarantinedAt: r.quarantined_at,
  checkedAt: r.checked_at,
})

/** Tool health on PostgreSQL: each change is one upsert, so racing nodes count every failure. */
export function createPgToolHealthRepository(pg: SyncPg): ToolHealthRepository {
  /** Sets one column, making the row when the tool has none yet (then with that value). */
  const put = (toolId: string, column: 'quarantined_at' | 'checked_at', value: number | null) =>
    void pg.query(
      `INSERT INTO tool_health AS h (tool_id, ${column}) VALUES ($1, $2)
       ON CONFLICT (tool_id) DO UPDATE SET ${column} = excluded.${column}`,
      [toolId, value],
    )
  return {
    // The row, made when missing (as SQLite's), without writing a row that exists: one statement.
    get: (toolId) =>
      toHealth(
        pg.one<HealthRow>(
          `WITH made AS (INSERT INTO tool_health (tool_id) VALUES ($1)
             ON CONFLICT (tool_id) DO NOTHING RETURNING *)
           SELECT * FROM made UNION ALL SELECT * FROM tool_health WHERE tool_id = $1`,
          [toolId],
        )!,
      ),
    recordSuccess(toolId, inputs) {
      // Nothing waits for its answer: in a run's closing transaction it rides with the COMMIT.
      pg.defer(
        `INSERT INTO tool_health (tool_id, last_good_inputs) VALUES ($1, $2)
         ON CONFLICT (tool_id) DO UPDATE SET consecutive_failures = 0, last_failure_code = NULL,
           last_good_inputs = excluded.last_good_inputs`,
        [toolId, JSON.stringify(inputs)],
      )
    },
    recordFailure: (toolId, code) =>
      toHealth(
        pg.one<HealthRow>(
          `INSERT INTO tool_health AS h (tool_id, consecutive_failures, last_failure_code)
           VALUES ($1, 1, $2)
           ON CONFLICT (tool_id) DO UPDATE SET consecutive_failures = h.consecutive_failures + 1,
             last_failure_code = excluded.last_failure_code RETURNING *`,
          [toolId, code],
        )!,
      ),
    setQuarantined: (toolId, at) => put(toolId, 'quarantined_at', at),
    markChecked: (toolId, at) => put(toolId, 'checked_at', at),
    quarantined: () =>
      pg
        .query<HealthRow>(
          'SELECT * FROM tool_health WHERE quarantined_at IS NOT NULL ORDER BY tool_id',
        )
        .rows.map(toHealth),
  }
}

const JOB_SELECT = `SELECT id, tenant, url, site, intent, status, indexed, reason, message,
  trace_id AS "traceId", tool_ids AS "toolIds", sign_in_url AS "signInUrl",
  created_at AS "createdAt", updated_at AS "updatedAt", finished_at AS "finishedAt" FROM index_jobs`

type JobRow = Omit<IndexJobRecord, 'toolIds'> & { toolIds: string }
const toJob = (row: JobRow): IndexJobRecord => ({
  ...row,
  toolIds: JSON.parse(row.toolIds) as string[],
})
const JOB_COLUMNS: Record<keyof IndexJobPatch, string> = {
  status: 'status',
  indexed: 'indexed',
  reason: 'reason',
  message: 'message',
  traceId: 'trace_id',
  toolIds: 'tool_ids',
  signInUrl: 'sign_in_url',
  finishedAt: 'finished_at',
}

/** Index jobs on PostgreSQL (the `IndexJobRepository` contract). */
export function createPgIndexJobRepository(pg: SyncPg): IndexJobRepository {
  return {
    create(job) {
      pg.query(
        `INSERT INTO index_jobs (id, tenant, url, site, intent, status, indexed, reason, message,
           trace_id, tool_ids, sign_in_url, created_at, updated_at, finished_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
        [
          job.id,
          job.tenant,
          job.url,
          job.site,
          job.intent,
          job.status,
          job.indexed,
          job.reason,
          job.message,
          job.traceId,
          JSON.stringify(job.toolIds),
          job.signInUrl,
          job.createdAt,
          job.updatedAt,
          job.finishedAt,
        ],
      )
    },
    get(tenant, id) {
      const row = pg.one<JobRow>(`${JOB_SELECT} WHERE tenant = $1 AND id = $2`, [tenant, id])
      return row ? toJob(row) : null
    },
    update(id, patch, now) {
      const keys = Object.keys(patch) as Array<keyof IndexJobPatch>
      const args: unknown[] = keys.map((k) =>
        k === 'toolIds' ? JSON.stringify(patch[k]) : patch[k],
      )
      const sets = keys.map((k, i) => `${JOB_COLUMNS[k]} = $${i + 1}`)
      args.push(now, id)
      pg.query(
        `UPDATE index_jobs SET ${[...sets, `updated_at = $${args.length - 1}`].join(', ')}
         WHERE id = $${args.length}`,
        args,
      )
      const row = pg.one<JobRow>(`${JOB_SELECT} WHERE id = $1`, [id])
      return row ? toJob(row) : null
    },
    active: (tenant) =>
      pg
        .query<JobRow>(
          `${JOB_SELECT} WHERE tenant = $1 AND status IN ('queued', 'running')
           ORDER BY created_at, id`,
          [tenant],
        )
        .rows.map(toJob),
    countSince: (tenant, since) =>
      pg.one<{ n: number }>(
        'SELECT COUNT(*) AS n FROM index_jobs WHERE tenant = $1 AND created_at > $2',
        [tenant, since],
      )!.n,
    oldestSince(tenant, since) {
      const row = pg.one<JobRow>(
        `${JOB_SELECT} WHERE tenant = $1 AND created_at > $2 ORDER BY created_at, id LIMIT 1`,
        [tenant, since],
      )
      return row ? toJob(row) : null
    },
    failActive: (reason, message, now) =>
      pg.query(
        `UPDATE index_jobs SET status = 'failed', reason = $1, message = $2, updated_at = $3,
           finished_at = $3 WHERE status IN ('queued', 'running')`,
        [reason, message, now],
      ).rowCount,
  }
}
