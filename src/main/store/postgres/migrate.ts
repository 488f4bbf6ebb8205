import { readdirSync, readFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { SyncPg } from './pgSync'

/** Where the numbered `NNN_name.sql` files of the PostgreSQL store live. */
export function defaultPgMigrationsDir(): string {
  return fileURLToPath(new URL('./migrations', import.meta.url))
}

/**
 * The advisory lock key every node takes while it migrates (any constant both sides agree on:
 * the ASCII of "sitecall" as a 64-bit integer).
 */
const MIGRATION_LOCK_KEY = '8315168636779586924'

/**
 * Applies every migration of `dir` that `schema_migrations` does not list yet, each in its own
 * transaction, all under a session advisory lock: several nodes starting together wait for the
 * first, which applies them once; the others then find nothing to do. `nodeId` is recorded with
 * each version (who applied it). Returns the versions this call applied.
 * Throws when a migration fails (its transaction is rolled back, the lock released).
 */
export function migratePg(
  pg: SyncPg,
  nodeId = `${hostname()}:${process.pid}`,
  dir = defaultPgMigrationsDir(),
): number[] {
  pg.query('SELECT pg_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY])
  try {
    pg.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL,
      applied_by TEXT NOT NULL)`)
    const done = new Set(
      pg
        .query<{ version: number }>('SELECT version FROM schema_migrations')
        .rows.map((r) => r.version),
    )
    const applied: number[] = []
    const files = readdirSync(dir)
      .filter((f) => /^\d{3}_.+\.sql$/.test(f))
      .sort()
    for (const file of files) {
      const version = Number(file.slice(0, 3))
      if (done.has(version)) continue
      const sql = readFileSync(join(dir, file), 'utf8')
      pg.transaction(() => {
        pg.exec(sql)
        pg.query(
          'INSERT INTO schema_migrations (version, name, applied_at, applied_by) VALUES ($1, $2, $3, $4)',
          [version, file, Date.now(), nodeId],
        )
      })
      applied.push(version)
    }
    return applied
  } finally {
    pg.query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY])
  }
}
