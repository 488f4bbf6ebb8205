import type { Db } from './db'

/** Names of the vault secrets a login keeps besides its storage state. */
export interface LoginSecretNames {
  username?: string
  password?: string
  /** The TOTP seed (RFC 6238), Base32. */
  totp?: string
}

export interface LoginRecord {
  tenant: string
  /** host[:port] of the site, as a tool's `siteHost`. */
  siteHost: string
  /** The storage state as a vault envelope (`vault.sealFor`); null only on a row not sealed yet. */
  sealedState: Buffer | null
  /** JSON storage state saved in the clear before migration 008; null once sealed. */
  plaintextState: string | null
  secrets: LoginSecretNames
  /** The page the password was typed on: where an automatic sign-in starts. */
  loginUrl: string | null
  /** Milliseconds since the Unix epoch. */
  savedAt: number
  lastUsedAt: number | null
}

interface LoginSaveExtras {
  /** Replaces the secret names when given; kept otherwise. */
  secrets?: LoginSecretNames
  /** Replaces the sign-in page when given; kept otherwise. */
  loginUrl?: string | null
}

export interface LoginRepository {
  /**
   * Saves (or replaces) the sealed storage state of a site for a workspace. The repository never
   * sees a storage state in the clear: the vault seals it first (`logins/siteLogins.ts`).
   */
  save(
    tenant: string,
    siteHost: string,
    sealedState: Buffer,
    now: number,
    extras?: LoginSaveExtras,
  ): void
  get(tenant: string, siteHost: string): LoginRecord | null
  /** Marks the login used by a run (the Logins view shows it). */
  touch(tenant: string, siteHost: string, now: number): void
  list(tenant: string): LoginRecord[]
  remove(tenant: string, siteHost: string): boolean
  /** Rows of every workspace still holding a plaintext storage state (saved before 008). */
  plaintext(): LoginRecord[]
}

interface LoginRow {
  tenant: string
  site_host: string
  storage_state: string | null
  sealed_state: Buffer | null
  secrets: string
  login_url: string | null
  saved_at: number
  last_used_at: number | null
}

const toRecord = (r: LoginRow): LoginRecord => ({
  tenant: r.tenant,
  siteHost: r.site_host,
  sealedState: r.sealed_state,
  plaintextState: r.storage_state,
  secrets: JSON.parse(r.secrets) as LoginSecretNames,
  loginUrl: r.login_url,
  savedAt: r.saved_at,
  lastUsedAt: r.last_used_at,
})

/**
 * Creates the site-login repository over an open database (one login per site and workspace;
 * migration 008). Turns on `secure_delete` for the connection: a replaced envelope or a
 * plaintext state emptied by the sealing pass is overwritten with zeros instead of lingering in
 * the file's free pages.
 */
export function createLoginRepository(db: Db): LoginRepository {
  db.pragma('secure_delete = ON')
  const one = db.prepare('SELECT * FROM logins WHERE tenant = ? AND site_host = ?')
  return {
    save(tenant, siteHost, sealedState, now, extras = {}) {
      const secrets = extras.secrets === undefined ? null : JSON.stringify(extras.secrets)
      const loginUrl = extras.loginUrl === undefined ? null : extras.loginUrl
      db.prepare(
        `INSERT INTO logins (tenant, site_host, storage_state, sealed_state, secrets, login_url, saved_at)
         VALUES (?, ?, NULL, ?, COALESCE(?, '{}'), ?, ?)
         ON CONFLICT (tenant, site_host) DO UPDATE SET storage_state = NULL,
           sealed_state = excluded.sealed_state,
           secrets = CASE WHEN ? IS NULL THEN logins.secrets ELSE excluded.secrets END,
           login_url = CASE WHEN ? THEN excluded.login_url ELSE logins.login_url END,
           saved_at = excluded.saved_at`,
      ).run(
        tenant,
        siteHost,
        sealedState,
        secrets,
        loginUrl,
        now,
        secrets,
        extras.loginUrl === undefined ? 0 : 1,
      )
    },
    get(tenant, siteHost) {
      const row = one.get(tenant, siteHost) as LoginRow | undefined
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
    plaintext() {
      const rows = db
        .prepare('SELECT * FROM logins WHERE storage_state IS NOT NULL')
        .all() as LoginRow[]
      return rows.map(toRecord)
    },
  }
}
