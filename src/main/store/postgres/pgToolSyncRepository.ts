import { mergeChanges, type Tombstone, type ToolSyncRepository } from '../toolSyncRepository'
import type { ToolSpec } from '../../../shared/toolSpec'
import type { SyncPg } from './pgSync'

/**
 * The team server's tool sync on PostgreSQL (the `ToolSyncRepository` contract): revisions come
 * from `tool_revisions` (migration 005's trigger), and `lock` holds that row until commit, so
 * two nodes taking pushes for one workspace apply them one after the other.
 */
export function createPgToolSyncRepository(pg: SyncPg): ToolSyncRepository {
  const revision = (workspace: string): number =>
    pg.one<{ revision: number }>('SELECT revision FROM tool_revisions WHERE tenant = $1', [
      workspace,
    ])?.revision ?? 0
  return {
    revision,
    changes(workspace, since, limit) {
      const current = revision(workspace)
      const tools = pg.query<{ revision: number; spec: string }>(
        `SELECT sync_revision AS revision, spec FROM tools
         WHERE tenant = $1 AND sync_revision > $2 ORDER BY sync_revision LIMIT $3`,
        [workspace, since, limit + 1],
      ).rows
      const deleted = pg.query<Tombstone>(
        `SELECT tool_id AS "toolId", revision, deleted_at AS "deletedAt" FROM tool_tombstones
         WHERE tenant = $1 AND revision > $2 ORDER BY revision LIMIT $3`,
        [workspace, since, limit + 1],
      ).rows
      return mergeChanges(current, tools, deleted, limit)
    },
    state(workspace, toolId) {
      const row = pg.one<{ revision: number; spec: string }>(
        'SELECT sync_revision AS revision, spec FROM tools WHERE tenant = $1 AND id = $2',
        [workspace, toolId],
      )
      if (row) return { revision: row.revision, tool: JSON.parse(row.spec) as ToolSpec }
      const gone = pg.one<{ revision: number }>(
        'SELECT revision FROM tool_tombstones WHERE tenant = $1 AND tool_id = $2',
        [workspace, toolId],
      )
      return gone ? { revision: gone.revision, tool: null } : null
    },
    lock(workspace) {
      pg.query(
        `INSERT INTO tool_revisions (tenant, revision) VALUES ($1, 0)
         ON CONFLICT (tenant) DO NOTHING`,
        [workspace],
      )
      return (
        pg.one<{ revision: number }>(
          'SELECT revision FROM tool_revisions WHERE tenant = $1 FOR UPDATE',
          [workspace],
        )?.revision ?? 0
      )
    },
    operation(workspace, key) {
      const row = pg.one<{ toolId: string; status: number; answer: string }>(
        `SELECT tool_id AS "toolId", status, answer FROM sync_operations
         WHERE tenant = $1 AND op_key = $2`,
        [workspace, key],
      )
      return row ? { ...row, answer: JSON.parse(row.answer) as unknown } : null
    },
    recordOperation(workspace, key, op, now) {
      pg.query(
        `INSERT INTO sync_operations (tenant, op_key, tool_id, status, answer, created_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
        [workspace, key, op.toolId, op.status, JSON.stringify(op.answer), now],
      )
    },
  }
}
