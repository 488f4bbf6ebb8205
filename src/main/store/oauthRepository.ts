import { createHash } from 'node:crypto'
import type { Db } from './db'

/** A registered public OAuth client (RFC 7591): no secret, exact redirect URIs. */
export interface OAuthClient {
  id: string
  name: string
  redirectUris: string[]
  createdAt: number
}

/** One approved grant; its codes and tokens share it. `scope` is space-separated. */
export interface OAuthFamily {
  id: string
  clientId: string
  tenant: string
  scope: string
  createdAt: number
  revokedAt: number | null
}

interface OAuthCode {
  familyId: string
  redirectUri: string
  codeChallenge: string
  expiresAt: number
  usedAt: number | null
}

interface OAuthToken {
  familyId: string
  kind: 'access' | 'refresh'
  createdAt: number
  expiresAt: number
  usedAt: number | null
}

export interface OAuthRepository {
  createClient(client: OAuthClient): void
  /** How many clients are registered. */
  countClients(): number
  /**
   * Deletes clients registered before `before` (ms) that no grant was ever approved for: the
   * leftovers of abandoned sign-ins. Returns how many went.
   */
  pruneUnusedClients(before: number): number
  getClient(id: string): OAuthClient | null
  createFamily(family: Omit<OAuthFamily, 'revokedAt'>): void
  getFamily(id: string): OAuthFamily | null
  /** Revokes a grant: every code and token of it stops working. */
  revokeFamily(id: string, now: number): void
  /** Stores a code by its hash (the plain code is never stored). */
  createCode(code: string, record: Omit<OAuthCode, 'usedAt'>): void
  findCode(code: string): OAuthCode | null
  /** Marks a code used; false when it already was (two exchanges raced, or a replay). */
  useCode(code: string, now: number): boolean
  /** Stores a token by its hash. */
  createToken(token: string, record: Omit<OAuthToken, 'usedAt'>): void
  findToken(token: string): OAuthToken | null
  /** Marks a refresh token used; false when it already was. */
  useToken(token: string, now: number): boolean
}

/** SHA-256 hex of a code or token: they are 256-bit random, so no slow hash is needed. */
export const hashSecretValue = (value: string) => createHash('sha256').update(value).digest('hex')

interface ClientRow {
  id: string
  name: string
  redirect_uris: string
  created_at: number
}

interface FamilyRow {
  id: string
  client_id: string
  tenant: string
  scope: string
  created_at: number
  revoked_at: number | null
}

/** Creates the OAuth repository (clients, grant families, codes, tokens) over an open database. */
export function createOAuthRepository(db: Db): OAuthRepository {
  /** Marks a one-use secret (a code, a refresh token) used; false when it already was. */
  const spend = (table: 'oauth_codes' | 'oauth_tokens', secret: string, now: number): boolean =>
    db
      .prepare(`UPDATE ${table} SET used_at = ? WHERE hash = ? AND used_at IS NULL`)
      .run(now, hashSecretValue(secret)).changes > 0
  return {
    createClient({ id, name, redirectUris, createdAt }) {
      db.prepare(
        'INSERT INTO oauth_clients (id, name, redirect_uris, created_at) VALUES (?, ?, ?, ?)',
      ).run(id, name, JSON.stringify(redirectUris), createdAt)
    },
    countClients() {
      return (db.prepare('SELECT COUNT(*) AS n FROM oauth_clients').get() as { n: number }).n
    },
    pruneUnusedClients(before) {
      return db
        .prepare(
          `DELETE FROM oauth_clients WHERE created_at < ?
           AND NOT EXISTS (SELECT 1 FROM oauth_families f WHERE f.client_id = oauth_clients.id)`,
        )
        .run(before).changes
    },
    getClient(id) {
      const row = db.prepare('SELECT * FROM oauth_clients WHERE id = ?').get(id) as
        ClientRow | undefined
      if (!row) return null
      const redirectUris = JSON.parse(row.redirect_uris) as string[]
      return { id: row.id, name: row.name, redirectUris, createdAt: row.created_at }
    },
    createFamily({ id, clientId, tenant, scope, createdAt }) {
      db.prepare(
        `INSERT INTO oauth_families (id, client_id, tenant, scope, created_at)
         VALUES (?, ?, ?, ?, ?)`,
      ).run(id, clientId, tenant, scope, createdAt)
    },
    getFamily(id) {
      const row = db.prepare('SELECT * FROM oauth_families WHERE id = ?').get(id) as
        FamilyRow | undefined
      if (!row) return null
      return {
        id: row.id,
        clientId: row.client_id,
        tenant: row.tenant,
        scope: row.scope,
        createdAt: row.created_at,
        revokedAt: row.revoked_at,
      }
    },
    revokeFamily(id, now) {
      db.prepare(
        'UPDATE oauth_families SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
      ).run(now, id)
    },
    createCode(code, { familyId, redirectUri, codeChallenge, expiresAt }) {
      db.prepare(
        `INSERT INTO oauth_codes (hash, family_id, redirect_uri, code_challenge, expires_at)
         VALUES (?, ?, ?, ?, ?)`,
      ).run(hashSecretValue(code), familyId, redirectUri, codeChallenge, expiresAt)
    },
    findCode(code) {
      const row = db.prepare('SELECT * FROM oauth_codes WHERE hash = ?').get(hashSecretValue(code))
      if (!row) return null
      const r = row as Record<string, unknown>
      return {
        familyId: r.family_id as string,
        redirectUri: r.redirect_uri as string,
        codeChallenge: r.code_challenge as string,
        expiresAt: r.expires_at as number,
        usedAt: r.used_at as number | null,
      }
    },
    useCode: (code, now) => spend('oauth_codes', code, now),
    createToken(token, { familyId, kind, createdAt, expiresAt }) {
      db.prepare(
        `INSERT INTO oauth_tokens (hash, family_id, kind, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?)`,
      ).run(hashSecretValue(token), familyId, kind, createdAt, expiresAt)
    },
    findToken(token) {
      const row = db
        .prepare('SELECT * FROM oauth_tokens WHERE hash = ?')
        .get(hashSecretValue(token))
      if (!row) return null
      const r = row as Record<string, unknown>
      return {
        familyId: r.family_id as string,
        kind: r.kind as 'access' | 'refresh',
        createdAt: r.created_at as number,
        expiresAt: r.expires_at as number,
        usedAt: r.used_at as number | null,
      }
    },
    useToken: (token, now) => spend('oauth_tokens', token, now),
  }
}
