import type { Db } from './db'

/** A stored tool scope (interface.md "Tool scope"): the apps (site hosts) and tools a connection may use. */
export interface ToolScopeRecord {
  slug: string
  apps: string[]
  tools: string[]
  createdAt: number
}

export interface ScopeRepository {
  /**
   * Stores a workspace's scope unless it already has `max` of them; returns false then. An
   * existing slug is replaced (and does not count twice). The count and the write are one
   * transaction, so two concurrent creations cannot pass the limit together.
   */
  put(tenant: string, scope: ToolScopeRecord, max: number): boolean
  find(tenant: string, slug: string): ToolScopeRecord | null
  list(tenant: string): ToolScopeRecord[]
  /** Deletes a scope of the workspace; false when it had none of that slug. */
  remove(tenant: string, slug: string): boolean
}

interface ScopeRow {
  slug: string
  apps: string
  tools: string
  created_at: number
}

const toRecord = (r: ScopeRow): ToolScopeRecord => ({
  slug: r.slug,
  apps: JSON.parse(r.apps) as string[],
  tools: JSON.parse(r.tools) as string[],
  createdAt: r.created_at,
})

/** Creates the tool-scope repository over an open database. */
export function createScopeRepository(db: Db): ScopeRepository {
  const put = db.transaction((tenant: string, scope: ToolScopeRecord, max: number): boolean => {
    const exists = db
      .prepare('SELECT 1 FROM tool_scopes WHERE tenant = ? AND slug = ?')
      .get(tenant, scope.slug)
    const { n } = db
      .prepare('SELECT COUNT(*) AS n FROM tool_scopes WHERE tenant = ?')
      .get(tenant) as { n: number }
    if (!exists && n >= max) return false
    db.prepare(
      `INSERT INTO tool_scopes (tenant, slug, apps, tools, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (tenant, slug) DO UPDATE SET apps = excluded.apps, tools = excluded.tools`,
    ).run(
      tenant,
      scope.slug,
      JSON.stringify(scope.apps),
      JSON.stringify(scope.tools),
      scope.createdAt,
    )
    return true
  })
  return {
    put: (tenant, scope, max) => put(tenant, scope, max),
    find(tenant, slug) {
      const row = db
        .prepare('SELECT * FROM tool_scopes WHERE tenant = ? AND slug = ?')
        .get(tenant, slug) as ScopeRow | undefined
      return row ? toRecord(row) : null
    },
    list(tenant) {
      const rows = db
        .prepare('SELECT * FROM tool_scopes WHERE tenant = ? ORDER BY created_at, slug')
        .all(tenant) as ScopeRow[]
      return rows.map(toRecord)
    },
    remove: (tenant, slug) =>
      db.prepare('DELETE FROM tool_scopes WHERE tenant = ? AND slug = ?').run(tenant, slug)
        .changes > 0,
  }
}
