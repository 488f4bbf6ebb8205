import { createHash, randomBytes } from 'node:crypto'
import { createChangeMark } from './changeMark'
import type { Db } from './db'
import type { KeySummary } from '../../shared/appApi'

/** The key prefix of interface.md "Authentication" 1 (`svc_live_` + characters). */
export const API_KEY_PREFIX = 'svc_live_'

export interface ApiKeyRecord extends KeySummary {
  tenant: string
  kind: 'personal' | 'org'
}

export interface KeyRepository {
  /**
   * Mints a key: 32 random bytes in base64url after `svc_live_`. Only its SHA-256 is stored (a
   * high-entropy key needs no slow hash); the plain key is returned once and never again.
   */
  create(
    input: { id: string; tenant: string; label: string; kind?: 'personal' | 'org' },
    now: number,
  ): {
    key: string
    record: ApiKeyRecord
  }
  /**
   * The key record a presented bearer value belongs to (revoked ones included), or null. Found
   * records are kept by the key's hash until the table may have changed (a create, revoke or
   * touch here, or any commit of another connection: `ChangeMark`), so a revoke takes effect
   * on the next request; unknown keys are never kept (a flood of them must not grow memory).
   */
  findByKey(key: string): ApiKeyRecord | null
  /**
   * A store that sends reads together (PostgreSQL): queues `findByKey(key)`'s read to go with
   * the next statement, and returns the id and workspace this process found for the key before
   * (they never change; whether it is revoked is only known from the read), or null. Absent
   * where reads are local.
   */
  readAhead?(key: string): Pick<ApiKeyRecord, 'id' | 'tenant' | 'kind'> | null
  list(tenant?: string): ApiKeyRecord[]
  revoke(id: string, now: number): boolean
  /**
   * Marks the key used at `now` (ms). Within `TOUCH_EVERY_MS` of this process's last mark it
   * writes nothing: "last used" is read to the minute, and a write per request was one more
   * SQLite commit on every call.
   */
  touch(id: string, now: number): void
}

/** How stale a key's `lastUsedAt` may get before a use writes it again: one minute. */
export const TOUCH_EVERY_MS = 60_000

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

/** Creates the API-key repository over an open database. */
export function createKeyRepository(db: Db): KeyRepository {
  // When this process last wrote each key's last use (only the data dir's owner writes keys).
  const touched = new Map<string, number>()
  // Each request authenticates: a SELECT and a row to object per call, where a key changes
  // rarely (the bench's statement timings: the costliest read of a call).
  const mark = createChangeMark(db, 'api_keys')
  const found = new Map<string, ApiKeyRecord>()
  let foundAt = ''
  return {
    create({ id, tenant, label, kind = 'personal' }, now) {
      const key = API_KEY_PREFIX + randomBytes(32).toString('base64url')
      const prefix = key.slice(0, API_KEY_PREFIX.length + 4)
      mark.wrote()
      db.prepare(
        `INSERT INTO api_keys (id, tenant, label, prefix, hash, kind, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run(id, tenant, label, prefix, hashKey(key), kind, now)
      return {
        key,
        record: { id, tenant, label, prefix, kind, createdAt: now, revokedAt: null },
      }
    },
    findByKey(key) {
      const revision = mark.revision()
      if (revision !== foundAt) {
        found.clear()
        foundAt = revision
      }
      const hash = hashKey(key)
      let record = found.get(hash)
      if (!record) {
        const row = db.prepare('SELECT * FROM api_keys WHERE hash = ?').get(hash) as
          KeyRow | undefined
        if (!row) return null
        record = toRecord(row)
        found.set(hash, record)
      }
      return { ...record }
    },
    list(tenant) {
      const rows = (
        tenant
          ? db
              .prepare('SELECT * FROM api_keys WHERE tenant = ? ORDER BY created_at DESC')
              .all(tenant)
          : db.prepare('SELECT * FROM api_keys ORDER BY created_at DESC').all()
      ) as KeyRow[]
      return rows.map(toRecord)
    },
    revoke(id, now) {
      mark.wrote()
      return (
        db
          .prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL')
          .run(now, id).changes > 0
      )
    },
    touch(id, now) {
      const last = touched.get(id)
      if (last !== undefined && Math.abs(now - last) < TOUCH_EVERY_MS) return
      touched.set(id, now)
      mark.wrote()
      db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(now, id)
    },
  }
}
