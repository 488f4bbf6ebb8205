import type { Db } from './db'

/** One local site a workspace's owner allowed. */
interface LocalSite {
  /** A URL's host (`127.0.0.1:8080`, `[::1]:3000`), or a host name for every port; lower-case. */
  host: string
  /** Milliseconds since the Unix epoch. */
  createdAt: number
}

export interface LocalSiteRepository {
  /** The workspace's allowed local sites, oldest first. */
  list(tenant: string): LocalSite[]
  /** Allows a host; false when it already was (its time is kept). */
  add(tenant: string, host: string, now: number): boolean
  /** Takes a host off the list; false when it was not on it. */
  remove(tenant: string, host: string): boolean
}

/** The per-workspace allow-list of local sites, over an open database. */
export function createLocalSiteRepository(db: Db): LocalSiteRepository {
  return {
    list(tenant) {
      const rows = db
        .prepare(
          'SELECT host, created_at FROM local_sites WHERE tenant = ? ORDER BY created_at, host',
        )
        .all(tenant) as Array<{ host: string; created_at: number }>
      return rows.map((r) => ({ host: r.host, createdAt: r.created_at }))
    },
    add(tenant, host, now) {
      return (
        db
          .prepare('INSERT OR IGNORE INTO local_sites (tenant, host, created_at) VALUES (?, ?, ?)')
          .run(tenant, host.toLowerCase(), now).changes === 1
      )
    },
    remove(tenant, host) {
      return (
        db
          .prepare('DELETE FROM local_sites WHERE tenant = ? AND host = ?')
          .run(tenant, host.toLowerCase()).changes === 1
      )
    },
  }
}
