import type { Db } from './db'

/** How the master key is held: in the OS keychain, or derived from a passphrase with scrypt. */
export type VaultKeyMode = 'keychain' | 'passphrase'

/** scrypt parameters of a passphrase vault (RFC 7914 names: cost N, block size r, parallelism p). */
export interface KdfParams {
  /** 16 random bytes, base64. */
  salt: string
  N: number
  r: number
  p: number
}

export interface VaultMeta {
  mode: VaultKeyMode
  /** The keychain account holding the master key (keychain mode); a random id otherwise. */
  keyId: string
  kdf: KdfParams | null
  /** A known plaintext sealed under the master key: opening it proves the key. */
  check: Buffer
  createdAt: number
}

/** What a list shows of a secret: never its value. */
export interface SecretSummary {
  name: string
  /** host[:port] the secret may be sent to; empty: nowhere yet. */
  hosts: string[]
  /** Milliseconds since the Unix epoch. */
  createdAt: number
  updatedAt: number
}

export interface SecretRecord extends SecretSummary {
  tenant: string
  /** AES-256-GCM envelope of the value under the workspace's data key. */
  envelope: Buffer
}

export interface SecretRepository {
  /** The vault's key record, or null before the vault was first set up. */
  meta(): VaultMeta | null
  /** Records how the master key is held; false when another process recorded it first. */
  createMeta(meta: VaultMeta): boolean
  /** The workspace's data key as wrapped by the master key, or null when it has none yet. */
  wrappedDataKey(tenant: string): Buffer | null
  /** Keeps the first wrapped data key of a workspace; returns the one that is stored. */
  saveWrappedDataKey(tenant: string, wrapped: Buffer, now: number): Buffer
  /** Stores or replaces a secret; `hosts` null keeps an existing secret's hosts (new: none). */
  put(
    tenant: string,
    name: string,
    envelope: Buffer,
    hosts: string[] | null,
    now: number,
  ): { created: boolean; record: SecretRecord }
  get(tenant: string, name: string): SecretRecord | null
  /** Names and hosts of a workspace's secrets, by name. */
  list(tenant: string): SecretSummary[]
  /** Every secret of a workspace with its envelope (the intent check opens them all). */
  records(tenant: string): SecretRecord[]
  count(tenant: string): number
  remove(tenant: string, name: string): boolean
}

interface MetaRow {
  mode: VaultKeyMode
  key_id: string
  kdf: string | null
  check_value: Buffer
  created_at: number
}

interface SecretRow {
  tenant: string
  name: string
  envelope: Buffer
  hosts: string
  created_at: number
  updated_at: number
}

const toRecord = (r: SecretRow): SecretRecord => ({
  tenant: r.tenant,
  name: r.name,
  envelope: r.envelope,
  hosts: JSON.parse(r.hosts) as string[],
  createdAt: r.created_at,
  updatedAt: r.updated_at,
})

const toSummary = ({ name, hosts, createdAt, updatedAt }: SecretRecord): SecretSummary => ({
  name,
  hosts,
  createdAt,
  updatedAt,
})

/**
 * Creates the vault's repository: key record, wrapped data keys and secret
 * envelopes. It stores bytes as given and never sees a key or a value in the clear.
 */
export function createSecretRepository(db: Db): SecretRepository {
  const getRow = (tenant: string, name: string) =>
    db.prepare('SELECT * FROM secrets WHERE tenant = ? AND name = ?').get(tenant, name) as
      SecretRow | undefined
  const wrappedDataKey = (tenant: string): Buffer | null => {
    const row = db.prepare('SELECT wrapped FROM vault_data_keys WHERE tenant = ?').get(tenant) as
      { wrapped: Buffer } | undefined
    return row?.wrapped ?? null
  }
  const records = (tenant: string): SecretRecord[] => {
    const rows = db
      .prepare('SELECT * FROM secrets WHERE tenant = ? ORDER BY name')
      .all(tenant) as SecretRow[]
    return rows.map(toRecord)
  }
  return {
    meta() {
      const row = db.prepare('SELECT * FROM vault_meta WHERE id = 1').get() as MetaRow | undefined
      if (!row) return null
      return {
        mode: row.mode,
        keyId: row.key_id,
        kdf: row.kdf ? (JSON.parse(row.kdf) as KdfParams) : null,
        check: row.check_value,
        createdAt: row.created_at,
      }
    },
    createMeta(meta) {
      return (
        db
          .prepare(
            `INSERT OR IGNORE INTO vault_meta (id, mode, key_id, kdf, check_value, created_at)
             VALUES (1, ?, ?, ?, ?, ?)`,
          )
          .run(
            meta.mode,
            meta.keyId,
            meta.kdf ? JSON.stringify(meta.kdf) : null,
            meta.check,
            meta.createdAt,
          ).changes > 0
      )
    },
    wrappedDataKey,
    saveWrappedDataKey(tenant, wrapped, now) {
      db.prepare(
        'INSERT OR IGNORE INTO vault_data_keys (tenant, wrapped, created_at) VALUES (?, ?, ?)',
      ).run(tenant, wrapped, now)
      return wrappedDataKey(tenant)!
    },
    put(tenant, name, envelope, hosts, now) {
      return db.transaction(() => {
        const existing = getRow(tenant, name)
        const keptHosts = hosts ?? (existing ? (JSON.parse(existing.hosts) as string[]) : [])
        db.prepare(
          `INSERT INTO secrets (tenant, name, envelope, hosts, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (tenant, name) DO UPDATE SET envelope = excluded.envelope,
             hosts = excluded.hosts, updated_at = excluded.updated_at`,
        ).run(tenant, name, envelope, JSON.stringify(keptHosts), now, now)
        return { created: !existing, record: toRecord(getRow(tenant, name)!) }
      })()
    },
    get(tenant, name) {
      const row = getRow(tenant, name)
      return row ? toRecord(row) : null
    },
    list: (tenant) => records(tenant).map(toSummary),
    records,
    count(tenant) {
      return (
        db.prepare('SELECT COUNT(*) AS n FROM secrets WHERE tenant = ?').get(tenant) as {
          n: number
        }
      ).n
    },
    remove(tenant, name) {
      return (
        db.prepare('DELETE FROM secrets WHERE tenant = ? AND name = ?').run(tenant, name).changes >
        0
      )
    },
  }
}
