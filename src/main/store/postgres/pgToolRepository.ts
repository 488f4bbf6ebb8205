import type { ToolRepository } from '../toolRepository'
import type { ToolSpec, ToolStatus } from '../../../shared/toolSpec'
import type { SyncPg } from './pgSync'

/** A workspace's tools' revision (`revision`); `prefetchToolRevision` queues the same read. */
const REVISION_SQL = 'SELECT revision FROM tool_revisions WHERE tenant = $1'

/** Queues the tools' revision read of `workspace` to ride with the next statement. */
export function prefetchToolRevision(pg: SyncPg, workspace: string): void {
  pg.prefetch(REVISION_SQL, [workspace])
}

/**
 * A workspace's tools on PostgreSQL (the `ToolRepository` contract). Parsed specs are kept per
 * node and dropped when the workspace's row in `tool_revisions` moves: every write bumps it in
 * the same statement (the `tools_sync_stamp` trigger of migration 005, which also stamps the
 * tool's `sync_revision`), so a tool saved on another node is seen on the next read here.
 */
export function createPgToolRepository(pg: SyncPg, workspace: string): ToolRepository {
  const parsed = new Map<string, ToolSpec>()
  const named = new Map<string, string | null>()
  let parsedAt = ''
  const revision = (): string =>
    String(pg.one<{ revision: number }>(REVISION_SQL, [workspace])?.revision ?? 0)
  const current = () => {
    const now = revision()
    if (now !== parsedAt) {
      parsed.clear()
      named.clear()
      parsedAt = now
    }
  }
  const remember = (row: { spec: string } | undefined): ToolSpec | null => {
    if (!row) return null
    const tool = JSON.parse(row.spec) as ToolSpec
    parsed.set(tool.id, tool)
    return tool
  }
  const known = (id: string): ToolSpec | null =>
    parsed.get(id) ??
    remember(
      pg.one<{ spec: string }>('SELECT spec FROM tools WHERE id = $1 AND tenant = $2', [
        id,
        workspace,
      ]),
    )
  const get = (id: string): ToolSpec | null => {
    current()
    return known(id)
  }
  const save = (tool: ToolSpec) => {
    // The save moves the revision a request may have prefetched: its next read must see it.
    pg.forget()
    saveTool(pg, workspace, tool)
  }
  return {
    workspace,
    save,
    get,
    getByName(siteHost, name) {
      current()
      const key = `${siteHost}\n${name}`
      if (!named.has(key))
        named.set(
          key,
          pg.one<{ id: string }>(
            'SELECT id FROM tools WHERE tenant = $1 AND site_host = $2 AND name = $3',
            [workspace, siteHost, name],
          )?.id ?? null,
        )
      const id = named.get(key)
      return id ? known(id) : null
    },
    list(filter = {}) {
      const where = ['tenant = $1']
      const args: string[] = [workspace]
      if (filter.siteHost) {
        args.push(filter.siteHost)
        where.push(`site_host = $${args.length}`)
      }
      if (filter.status) {
        args.push(filter.status)
        where.push(`status = $${args.length}`)
      }
      const clause = `FROM tools WHERE ${where.join(' AND ')} ORDER BY updated_at DESC, id`
      current()
      const ids = pg.query<{ id: string }>(`SELECT id ${clause}`, args).rows
      if (ids.every((r) => parsed.has(r.id))) return ids.map((r) => parsed.get(r.id)!)
      return pg.query<{ spec: string }>(`SELECT spec ${clause}`, args).rows.map((r) => remember(r)!)
    },
    uniqueName: (siteHost, base) => uniqueToolName(pg, workspace, siteHost, base),
    setStatus(id, status, now) {
      const tool = get(id)
      if (!tool) return null
      const next = { ...tool, status, updatedAt: now }
      save(next)
      return next
    },
    versions() {
      return pg.query<{ id: string; updatedAt: number; status: ToolStatus }>(
        'SELECT id, updated_at AS "updatedAt", status FROM tools WHERE tenant = $1',
        [workspace],
      ).rows
    },
    delete(id) {
      pg.forget()
      return (
        pg.query('DELETE FROM tools WHERE id = $1 AND tenant = $2', [id, workspace]).rowCount > 0
      )
    },
    revision,
  }
}

/** Inserts or replaces `tool` in `workspace`; throws when its id belongs to another workspace. */
function saveTool(pg: SyncPg, workspace: string, tool: ToolSpec): void {
  const { rowCount } = pg.query(
    `INSERT INTO tools (id, tenant, name, site_host, status, spec, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, site_host = excluded.site_host,
         status = excluded.status, spec = excluded.spec, updated_at = excluded.updated_at
       WHERE tools.tenant = excluded.tenant`,
    [
      tool.id,
      workspace,
      tool.name,
      tool.siteHost,
      tool.status,
      JSON.stringify(tool),
      tool.createdAt,
      tool.updatedAt,
    ],
  )
  if (rowCount === 0) throw new Error(`Tool ${tool.id} belongs to another workspace.`)
}

/** `ToolRepository.uniqueName`: `base`, else `base_2`, `base_3`... the first free on the site. */
function uniqueToolName(pg: SyncPg, workspace: string, siteHost: string, base: string): string {
  const taken = new Set(
    pg
      .query<{ name: string }>(
        `SELECT name FROM tools WHERE tenant = $1 AND site_host = $2
           AND (name = $3 OR name LIKE $4 ESCAPE '\\')`,
        [workspace, siteHost, base, `${base.replace(/[\\%_]/g, '\\$&')}\\_%`],
      )
      .rows.map((r) => r.name),
  )
  if (!taken.has(base)) return base
  for (let n = 2; ; n++) if (!taken.has(`${base}_${n}`)) return `${base}_${n}`
}
