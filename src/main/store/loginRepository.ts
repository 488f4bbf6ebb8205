import type { StorageState } from '../../shared/trace'
import type { Db } from './db'

export interface LoginRecord {
  tenant: string
  /** host[:port] of the site, as a tool's `siteHost`. */
  siteHost: string
  storageState: StorageState
  /** Milliseconds since the Unix epoch. */
  savedAt: number
  lastUsedAt: number | null
}

export interface LoginRepository {
  /** Saves (or replaces) the login of a site for a workspace. */
  save(tenant: string, siteHost: string, storageState: StorageState, now: number): void
  get(tenant: string, siteHost: string): LoginRecord | null
  /** Marks the login used by a run (the Logins view shows it). */
  touch(tenant: string, siteHost: string, now: number): void
  list(tenant: string): LoginRecord[]
  remove(tenant: string, siteHost: string): boolean
}

interface LoginRow {
  tenant: string
  site_host: string
  storage_state: string
  saved_at: number
  last_used_at: number | null
}

const toRecord = (r: LoginRow): LoginRecord => ({
  tenant: r.tenant,
  siteHost: r.site_host,
  storageState: JSON.parse(r.storage_state) as StorageState,
  savedAt: r.saved_at,
  lastUsedAt: r.last_used_at,
})

/** Creates the site-login repository over an open database (one login per site and workspace). */
export function createLoginRepository(db: Db): LoginRepository {
  return {
    save(tenant, siteHost, storageState, now) {
      db.prepare(
        `INSERT INTO logins (tenant, site_host, storage_state, saved_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (tenant, site_host) DO UPDATE SET storage_state = excluded.storage_state,
           saved_at = excluded.saved_at`,
      ).run(tenant, siteHost, JSON.stringify(storageState), now)
    },
    get(tenant, siteHost) {
      const row = db
        .prepare('SELECT * FROM logins WHERE tenant = ? AND site_host = ?')
        .get(tenant, siteHost) as LoginRow | undefined
      return row ? toRecord(row) : null
    },
    touch(tenant, siteHost, now) {
      db.prepare('UPDATE logins SET last_used_at = ? WHERE tenant = ? AND site_host = ?').run(
        now,
        tenant,
        siteHost,
      )
    },
    list(tenant) {
      const rows = db
        .prepare('SELECT * FROM logins WHERE tenant = ? ORDER BY site_host')
        .all(tenant) as LoginRow[]
      return rows.map(toRecord)
    },
    remove(tenant, siteHost) {
      return (
        db.prepare('DELETE FROM logins WHERE tenant = ? AND site_host = ?').run(tenant, siteHost)
          .changes > 0
      )
    },
  }
}
