import { createChangeMark } from './changeMark'
import type { Db } from './db'
import type { ToolSpec, ToolStatus } from '../../shared/toolSpec'

/**
 * Compiled tools (candidates, verified, quarantined) of one workspace; docs/interface.md is kept whole as
 * JSON. Every query names the workspace: a tool of another workspace is not
 * found, listed, named or replaced through this repository.
 */
export interface ToolRepository {
  /** The workspace this repository reads and writes. */
  readonly workspace: string
  /**
   * Inserts or replaces a tool by id. Throws on a (siteHost, name) clash with another tool of the
   * workspace, and when the id belongs to a tool of another workspace (nothing is written).
   */
  save(tool: ToolSpec): void
  get(id: string): ToolSpec | null
  /** The tool named `name` on `siteHost` (the surface-A `{site_host}`/`{tool_id}` pair), or null. */
  getByName(siteHost: string, name: string): ToolSpec | null
  list(filter?: { siteHost?: string; status?: ToolStatus }): ToolSpec[]
  /** `base` if free on that site, else `base_2`, `base_3`... */
  uniqueName(siteHost: string, base: string): string
  setStatus(id: string, status: ToolStatus, now: number): ToolSpec | null
  delete(id: string): boolean
  /**
   * Every tool's id with its `updatedAt` (ms) and status, without parsing specs: lets a reader
   * keep parsed tools and re-read only those that changed (the router's search).
   */
  versions(): Array<{ id: string; updatedAt: number; status: ToolStatus }>
  /**
   * Changes whenever the tools may have changed: this repository's own writes, or any commit of
   * another connection to the file (SQLite `PRAGMA data_version`). Equal revisions mean the
   * tools are as they were, so a reader can skip even {@link versions}.
   */
  revision(): string
}

/** Creates the repository of `workspace`'s tools over an open database. */
export function createToolRepository(db: Db, workspace: string): ToolRepository {
  const mark = createChangeMark(db, 'tools')
  const revision = mark.revision
  // Parsed specs by id (a 12 KB spec was parsed on every call), and ids by site and
  // name; dropped whenever the revision moves, so a spec is parsed once per version of the
  // table. Callers share these objects and never change them (they copy: `{...tool, status}`).
  const parsed = new Map<string, ToolSpec>()
  const named = new Map<string, string | null>()
  let parsedAt = ''
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
  /** The tool by id, once `current()` was checked in this call. */
  const known = (id: string): ToolSpec | null =>
    parsed.get(id) ??
    remember(
      db.prepare('SELECT spec FROM tools WHERE id = ? AND tenant = ?').get(id, workspace) as
        { spec: string } | undefined,
    )
  const get = (id: string): ToolSpec | null => {
    current()
    return known(id)
  }
  const save = (tool: ToolSpec) => {
    mark.wrote()
    saveTool(db, workspace, tool)
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
          (
            db
              .prepare('SELECT id FROM tools WHERE tenant = ? AND site_host = ? AND name = ?')
              .get(workspace, siteHost, name) as { id: string } | undefined
          )?.id ?? null,
        )
      const id = named.get(key)
      return id ? known(id) : null
    },
    list(filter = {}) {
      const where = ['tenant = ?']
      const args = [workspace]
      if (filter.siteHost) {
        where.push('site_host = ?')
        args.push(filter.siteHost)
      }
      if (filter.status) {
        where.push('status = ?')
        args.push(filter.status)
      }
      const clause = `FROM tools WHERE ${where.join(' AND ')} ORDER BY updated_at DESC`
      current()
      const ids = db.prepare(`SELECT id ${clause}`).all(...args) as Array<{ id: string }>
      if (ids.every((r) => parsed.has(r.id))) return ids.map((r) => parsed.get(r.id)!)
      return (db.prepare(`SELECT spec ${clause}`).all(...args) as Array<{ spec: string }>).map(
        (r) => remember(r)!,
      )
    },
    uniqueName: (siteHost, base) => uniqueToolName(db, workspace, siteHost, base),
    setStatus(id, status, now) {
      const tool = get(id)
      if (!tool) return null
      const next = { ...tool, status, updatedAt: now }
      save(next)
      return next
    },
    versions() {
      return db
        .prepare('SELECT id, updated_at AS updatedAt, status FROM tools WHERE tenant = ?')
        .all(workspace) as Array<{
        id: string
        updatedAt: number
        status: ToolStatus
      }>
    },
    delete(id) {
      mark.wrote()
      return (
        db.prepare('DELETE FROM tools WHERE id = ? AND tenant = ?').run(id, workspace).changes > 0
      )
    },
    revision,
  }
}

/** Inserts or replaces `tool` in `workspace`; throws when its id belongs to another workspace. */
function saveTool(db: Db, workspace: string, tool: ToolSpec): void {
  const { changes } = db
    .prepare(
      `INSERT INTO tools (id, tenant, name, site_host, status, spec, created_at, updated_at)
       VALUES (@id, @workspace, @name, @siteHost, @status, @spec, @createdAt, @updatedAt)
       ON CONFLICT(id) DO UPDATE SET name = excluded.name, site_host = excluded.site_host,
         status = excluded.status, spec = excluded.spec, updated_at = excluded.updated_at
       WHERE tools.tenant = excluded.tenant`,
    )
    .run({ ...tool, workspace, spec: JSON.stringify(tool) })
  if (changes === 0) throw new Error(`Tool ${tool.id} belongs to another workspace.`)
}

/** `ToolRepository.uniqueName`: `base`, else `base_2`, `base_3`... the first free on the site. */
function uniqueToolName(db: Db, workspace: string, siteHost: string, base: string): string {
  const taken = new Set(
    (
      db
        .prepare(
          `SELECT name FROM tools WHERE tenant = ? AND site_host = ?
             AND (name = ? OR name LIKE ? ESCAPE '\\')`,
        )
        // Names are full of `_`, LIKE's one-character wildcard: escape it (and `%`, `\`).
        .all(workspace, siteHost, base, `${base.replace(/[\\%_]/g, '\\$&')}\\_%`) as Array<{
        name: string
      }>
    ).map((r) => r.name),
  )
  if (!taken.has(base)) return base
  for (let n = 2; ; n++) if (!taken.has(`${base}_${n}`)) return `${base}_${n}`
}
