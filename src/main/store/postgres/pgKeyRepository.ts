import { createHash, randomBytes } from 'node:crypto'
import {
  API_KEY_PREFIX,
  TOUCH_EVERY_MS,
  type ApiKeyRecord,
  type KeyRepository,
} from '../keyRepository'
import type { SyncPg } from './pgSync'

interface KeyRow {
  id: string
  tenant: string
  label: string
  prefix: string
  kind: 'personal' | 'org'
  created_at: number
  revoked_at: number | null
  last_used_at: number | null
}

const hashKey = (key: string) => createHash('sha256').update(key).digest('hex')
const toRecord = (r: KeyRow): ApiKeyRecord => ({
  id: r.id,
  tenant: r.tenant,
  label: r.label,
  prefix: r.prefix,
  kind: r.kind,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
  lastUsedAt: r.last_used_at,
})

const BY_HASH_SQL = 'SELECT * FROM api_keys WHERE hash = $1'

/**
 * API keys on PostgreSQL (the `KeyRepository` contract). A key is read from the database on every
 * request, never kept on a node: a revocation on one node holds on every node at once (one
 * indexed read by hash). "Last used" is written at most once a minute per key and node.
 */
export function createPgKeyRepository(pg: SyncPg): KeyRepository {
  const touched = new Map<string, number>()
  /** What never changes of the keys found here, by hash (as many as the table holds at most). */
  const seen = new Map<string, Pick<ApiKeyRecord, 'id' | 'tenant' | 'kind'>>()
  return {
    create({ id, tenant, label, kind = 'personal' }, now) {
      const key = API_KEY_PREFIX + randomBytes(32).toString('base64url')
      const prefix = key.slice(0, API_KEY_PREFIX.length + 4)
      pg.query(
        `INSERT INTO api_keys (id, tenant, label, prefix, hash, kind, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [id, tenant, label, prefix, hashKey(key), kind, now],
      )
      return { key, record: { id, tenant, label, prefix, kind, createdAt: now, revokedAt: null } }
    },
    findByKey(key) {
      const hash = hashKey(key)
      const row = pg.one<KeyRow>(BY_HASH_SQL, [hash])
      if (!row) return null
      const record = toRecord(row)
      seen.set(hash, { id: record.id, tenant: record.tenant, kind: record.kind })
      return record
    },
    readAhead(key) {
      const hash = hashKey(key)
      const known = seen.get(hash) ?? null
      // A key never found here is read on its own: unknown bearer values queue nothing.
      if (known) pg.prefetch(BY_HASH_SQL, [hash])
      return known
    },
    list(tenant) {
      const rows = tenant
        ? pg.query<KeyRow>('SELECT * FROM api_keys WHERE tenant = $1 ORDER BY created_at DESC', [
            tenant,
          ]).rows
        : pg.query<KeyRow>('SELECT * FROM api_keys ORDER BY created_at DESC').rows
      return rows.map(toRecord)
    },
    revoke: (id, now) =>
      pg.query('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [
        now,
        id,
      ]).rowCount > 0,
    touch(id, now) {
      const last = touched.get(id)
      if (last !== undefined && Math.abs(now - last) < TOUCH_EVERY_MS) return
      touched.set(id, now)
      pg.query('UPDATE api_keys SET last_used_at = $1 WHERE id = $2', [now, id])
    },
  }
}
