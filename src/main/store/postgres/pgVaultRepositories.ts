import type { LoginRecord, LoginRepository, LoginSecretNames } from '../loginRepository'
import type { KdfParams, SecretRecord, SecretRepository, VaultKeyMode } from '../secretRepository'
import type { SyncPg } from './pgSync'

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

const toLogin = (r: LoginRow): LoginRecord => ({
  tenant: r.tenant,
  siteHost: r.site_host,
  sealedState: r.sealed_state,
  plaintextState: r.storage_state,
  secrets: JSON.parse(r.secrets) as LoginSecretNames,
  loginUrl: r.login_url,
  savedAt: r.saved_at,
  lastUsedAt: r.last_used_at,
})

/** A workspace's login for a site (`get`); `prefetchLogin` queues the same read. */
const LOGIN_SQL = 'SELECT * FROM logins WHERE tenant = $1 AND site_host = $2'

/** Queues `get(tenant, siteHost)`'s read to ride with the next statement (`SyncPg.prefetch`). */
export function prefetchLogin(pg: SyncPg, tenant: string, siteHost: string): void {
  pg.prefetch(LOGIN_SQL, [tenant, siteHost])
}

/** Sealed site logins on PostgreSQL (the `LoginRepository` contract). */
export function createPgLoginRepository(pg: SyncPg): LoginRepository {
  return {
    save(tenant, siteHost, sealedState, now, extras = {}) {
      // A run's prefetched login (`prefetchLogin`) must not hide this one from the next read.
      pg.forget()
      const secrets = extras.secrets === undefined ? null : JSON.stringify(extras.secrets)
      pg.query(
        `INSERT INTO logins (tenant, site_host, storage_state, sealed_state, secrets, login_url, saved_at)
         VALUES ($1, $2, NULL, $3, COALESCE($4, '{}'), $5, $6)
         ON CONFLICT (tenant, site_host) DO UPDATE SET storage_state = NULL,
           sealed_state = excluded.sealed_state,
           secrets = CASE WHEN $4::text IS NULL THEN logins.secrets ELSE excluded.secrets END,
           login_url = CASE WHEN $7 THEN excluded.login_url ELSE logins.login_url END,
           saved_at = excluded.saved_at`,
        [
          tenant,
          siteHost,
          sealedState,
          secrets,
          extras.loginUrl === undefined ? null : extras.loginUrl,
          now,
          extras.loginUrl !== undefined,
        ],
      )
    },
    get(tenant, siteHost) {
      const row = pg.one<LoginRow>(LOGIN_SQL, [tenant, siteHost])
      return row ? toLogin(row) : null
    },
    touch(tenant, siteHost, now) {
      pg.query('UPDATE logins SET last_used_at = $1 WHERE tenant = $2 AND site_host = $3', [
        now,
        tenant,
        siteHost,
      ])
    },
    list: (tenant) =>
      pg
        .query<LoginRow>('SELECT * FROM logins WHERE tenant = $1 ORDER BY site_host', [tenant])
        .rows.map(toLogin),
    remove(tenant, siteHost) {
      pg.forget()
      return (
        pg.query('DELETE FROM logins WHERE tenant = $1 AND site_host = $2', [tenant, siteHost])
          .rowCount > 0
      )
    },
    plaintext: () =>
      pg.query<LoginRow>('SELECT * FROM logins WHERE storage_state IS NOT NULL').rows.map(toLogin),
  }
}

interface SecretRow {
  tenant: string
  name: string
  envelope: Buffer
  hosts: string
  created_at: number
  updated_at: number
}

const toSecret = (r: SecretRow): SecretRecord => ({
  tenant: r.tenant,
  name: r.name,
  envelope: r.envelope,
  hosts: JSON.parse(r.hosts) as string[],
  createdAt: r.created_at,
  updatedAt: r.updated_at,
})

/** The vault's key record, wrapped data keys and secret envelopes on PostgreSQL. */
export function createPgSecretRepository(pg: SyncPg): SecretRepository {
  const getRow = (tenant: string, name: string) =>
    pg.one<SecretRow>('SELECT * FROM secrets WHERE tenant = $1 AND name = $2', [tenant, name])
  const wrappedDataKey = (tenant: string): Buffer | null =>
    pg.one<{ wrapped: Buffer }>('SELECT wrapped FROM vault_data_keys WHERE tenant = $1', [tenant])
      ?.wrapped ?? null
  const records = (tenant: string) =>
    pg
      .query<SecretRow>('SELECT * FROM secrets WHERE tenant = $1 ORDER BY name', [tenant])
      .rows.map(toSecret)
  return {
    meta() {
      const row = pg.one<{
        mode: VaultKeyMode
        key_id: string
        kdf: string | null
        check_value: Buffer
        created_at: number
      }>('SELECT * FROM vault_meta WHERE id = 1')
      if (!row) return null
      return {
        mode: row.mode,
        keyId: row.key_id,
        kdf: row.kdf ? (JSON.parse(row.kdf) as KdfParams) : null,
        check: row.check_value,
        createdAt: row.created_at,
      }
    },
    createMeta: (meta) =>
      pg.query(
        `INSERT INTO vault_meta (id, mode, key_id, kdf, check_value, created_at)
         VALUES (1, $1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
        [
          meta.mode,
          meta.keyId,
          meta.kdf ? JSON.stringify(meta.kdf) : null,
          meta.check,
          meta.createdAt,
        ],
      ).rowCount > 0,
    wrappedDataKey,
    saveWrappedDataKey(tenant, wrapped, now) {
      pg.query(
        `INSERT INTO vault_data_keys (tenant, wrapped, created_at) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING`,
        [tenant, wrapped, now],
      )
      return wrappedDataKey(tenant)!
    },
    put: (tenant, name, envelope, hosts, now) =>
      pg.transaction(() => {
        const existing = getRow(tenant, name)
        const keptHosts = hosts ?? (existing ? (JSON.parse(existing.hosts) as string[]) : [])
        const row = pg.one<SecretRow>(
          `INSERT INTO secrets (tenant, name, envelope, hosts, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $5)
           ON CONFLICT (tenant, name) DO UPDATE SET envelope = excluded.envelope,
             hosts = excluded.hosts, updated_at = excluded.updated_at RETURNING *`,
          [tenant, name, envelope, JSON.stringify(keptHosts), now],
        )!
        return { created: !existing, record: toSecret(row) }
      }),
    get(tenant, name) {
      const row = getRow(tenant, name)
      return row ? toSecret(row) : null
    },
    list: (tenant) =>
      records(tenant).map(({ name, hosts, createdAt, updatedAt }) => ({
        name,
        hosts,
        createdAt,
        updatedAt,
      })),
    records,
    count: (tenant) =>
      pg.one<{ n: number }>('SELECT COUNT(*) AS n FROM secrets WHERE tenant = $1', [tenant])!.n,
    remove: (tenant, name) =>
      pg.query('DELETE FROM secrets WHERE tenant = $1 AND name = $2', [tenant, name]).rowCount > 0,
  }
}
