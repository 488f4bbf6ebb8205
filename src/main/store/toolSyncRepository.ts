import type { Db } from './db'
import type { ToolSpec } from '../../shared/toolSpec'

/** A tool as the sync sees it: the whole spec and the workspace revision of its last change. */
interface SyncedTool {
  revision: number
  tool: ToolSpec
}

/** A deleted tool: its id and the workspace revision of the deletion (ms since the epoch). */
export interface Tombstone {
  toolId: string
  revision: number
  deletedAt: number
}

/**
 * What changed in a workspace after a revision, oldest first. `revision` is where the next
 * pull starts: the workspace's current revision, or with `more` the last revision included.
 */
export interface SyncChanges {
  revision: number
  tools: SyncedTool[]
  deleted: Tombstone[]
  more: boolean
}

/** A push answered once and kept by its operation key: the HTTP status and the body. */
export interface SyncOperation {
  toolId: string
  status: number
  answer: unknown
}

/**
 * The team server's side of tool sync over the `tools` table, whose revisions the
 * store's triggers keep (SQLite 014, PostgreSQL 005): every insert, change or delete of a tool,
 * through any path, takes the workspace's next revision; a delete leaves a tombstone. Every
 * method names the workspace (`ws_…`, or `local`).
 */
export interface ToolSyncRepository {
  /** The workspace's current revision (0 when no tool was ever written). */
  revision(workspace: string): number
  /**
   * Tools and tombstones whose revision is above `since`, oldest first, at most `limit` of
   * them together (`more` says some were left for the next pull).
   */
  changes(workspace: string, since: number, limit: number): SyncChanges
  /**
   * Where one tool stands: its revision and spec, its tombstone's revision with `tool: null`,
   * or null when the workspace never had it.
   */
  state(workspace: string, toolId: string): { revision: number; tool: ToolSpec | null } | null
  /**
   * Serialises pushes to one workspace until the transaction ends (PostgreSQL: the counter row
   * locked `FOR UPDATE`; SQLite: one writer already). Call inside `Store.transaction`. Returns
   * the workspace's revision, which no other push can move until then.
   */
  lock(workspace: string): number
  /** What a push under `key` answered, or null when no push used it. */
  operation(workspace: string, key: string): SyncOperation | null
  /** Keeps a push's answer under its operation key (`now` in ms); a key is kept once. */
  recordOperation(workspace: string, key: string, op: SyncOperation, now: number): void
}

/** Merges tool and tombstone rows (each already sorted, each at most `limit + 1`) into changes. */
export function mergeChanges(
  current: number,
  tools: Array<{ revision: number; spec: string }>,
  deleted: Tombstone[],
  limit: number,
): SyncChanges {
  const all = [
    ...tools.map((t) => ({ revision: t.revision, tool: t.spec as string | null, gone: null })),
    ...deleted.map((d) => ({ revision: d.revision, tool: null, gone: d })),
  ].sort((a, b) => a.revision - b.revision)
  const kept = all.slice(0, limit)
  const more = all.length > limit
  return {
    revision: more ? kept[kept.length - 1]!.revision : current,
    tools: kept
      .filter((c) => c.tool !== null)
      .map((c) => ({ revision: c.revision, tool: JSON.parse(c.tool!) as ToolSpec })),
    deleted: kept.flatMap((c) => (c.gone ? [c.gone] : [])),
    more,
  }
}

/** The SQLite implementation (the desktop's file, or a server on SQLite). */
export function createToolSyncRepository(db: Db): ToolSyncRepository {
  const revision = (workspace: string): number =>
    (
      db.prepare('SELECT revision FROM sync_revisions WHERE tenant = ?').get(workspace) as
        { revision: number } | undefined
    )?.revision ?? 0
  return {
    revision,
    changes(workspace, since, limit) {
      const current = revision(workspace)
      const tools = db
        .prepare(
          `SELECT sync_revision AS revision, spec FROM tools
           WHERE tenant = ? AND sync_revision > ? ORDER BY sync_revision LIMIT ?`,
        )
        .all(workspace, since, limit + 1) as Array<{ revision: number; spec: string }>
      const deleted = db
        .prepare(
          `SELECT tool_id AS toolId, revision, deleted_at AS deletedAt FROM tool_tombstones
           WHERE tenant = ? AND revision > ? ORDER BY revision LIMIT ?`,
        )
        .all(workspace, since, limit + 1) as Tombstone[]
      return mergeChanges(current, tools, deleted, limit)
    },
    state(workspace, toolId) {
      const row = db
        .prepare('SELECT sync_revision AS revision, spec FROM tools WHERE tenant = ? AND id = ?')
        .get(workspace, toolId) as { revision: number; spec: string } | undefined
      if (row) return { revision: row.revision, tool: JSON.parse(row.spec) as ToolSpec }
      const gone = db
        .prepare('SELECT revision FROM tool_tombstones WHERE tenant = ? AND tool_id = ?')
        .get(workspace, toolId) as { revision: number } | undefined
      return gone ? { revision: gone.revision, tool: null } : null
    },
    lock: revision,
    operation(workspace, key) {
      const row = db
        .prepare(
          'SELECT tool_id AS toolId, status, answer FROM sync_operations WHERE tenant = ? AND op_key = ?',
        )
        .get(workspace, key) as { toolId: string; status: number; answer: string } | undefined
      return row ? { ...row, answer: JSON.parse(row.answer) as unknown } : null
    },
    recordOperation(workspace, key, op, now) {
      db.prepare(
        `INSERT INTO sync_operations (tenant, op_key, tool_id, status, answer, created_at)
         VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      ).run(workspace, key, op.toolId, op.status, JSON.stringify(op.answer), now)
    },
  }
}
