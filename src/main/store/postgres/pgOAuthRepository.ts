import { hashSecretValue, type OAuthRepository } from '../oauthRepository'
import type { SyncPg } from './pgSync'

/**
 * OAuth clients, grants, codes and tokens on PostgreSQL (the `OAuthRepository` contract). A code
 * or refresh token is spent by one conditional UPDATE: of two nodes exchanging the same one,
 * exactly one sees it unused.
 */
export function createPgOAuthRepository(pg: SyncPg): OAuthRepository {
  const spend = (table: 'oauth_codes' | 'oauth_tokens', secret: string, now: number) =>
    pg.query(`UPDATE ${table} SET used_at = $1 WHERE hash = $2 AND used_at IS NULL`, [
      now,
      hashSecretValue(secret),
    ]).rowCount > 0
  return {
    createClient({ id, name, redirectUris, createdAt }) {
      pg.query(
        'INSERT INTO oauth_clients (id, name, redirect_uris, created_at) VALUES ($1, $2, $3, $4)',
        [id, name, JSON.stringify(redirectUris), createdAt],
      )
    },
    countClients: () => pg.one<{ n: number }>('SELECT COUNT(*) AS n FROM oauth_clients')!.n,
    pruneUnusedClients: (before) =>
      pg.query(
        `DELETE FROM oauth_clients WHERE created_at < $1
         AND NOT EXISTS (SELECT 1 FROM oauth_families f WHERE f.client_id = oauth_clients.id)`,
        [before],
      ).rowCount,
    getClient(id) {
      const row = pg.one<{ id: string; name: string; redirect_uris: string; created_at: number }>(
        'SELECT * FROM oauth_clients WHERE id = $1',
        [id],
      )
      if (!row) return null
      return {
        id: row.id,
        name: row.name,
        redirectUris: JSON.parse(row.redirect_uris) as string[],
        createdAt: row.created_at,
      }
    },
    createFamily({ id, clientId, tenant, scope, createdAt }) {
      pg.query(
        `INSERT INTO oauth_families (id, client_id, tenant, scope, created_at)
         VALUES ($1, $2, $3, $4, $5)`,
        [id, clientId, tenant, scope, createdAt],
      )
    },
    getFamily(id) {
      const row = pg.one<{
        id: string
        client_id: string
        tenant: string
        scope: string
        created_at: number
        revoked_at: number | null
      }>('SELECT * FROM oauth_families WHERE id = $1', [id])
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
      pg.query('UPDATE oauth_families SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [
        now,
        id,
      ])
    },
    createCode(code, { familyId, redirectUri, codeChallenge, expiresAt }) {
      pg.query(
        `INSERT INTO oauth_codes (hash, family_id, redirect_uri, code_challenge, expires_at)
         VALUES ($1, $2, $3, $4, $5)`,
        [hashSecretValue(code), familyId, redirectUri, codeChallenge, expiresAt],
      )
    },
    findCode(code) {
      const r = pg.one<Record<string, unknown>>('SELECT * FROM oauth_codes WHERE hash = $1', [
        hashSecretValue(code),
      ])
      if (!r) return null
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
      pg.query(
        `INSERT INTO oauth_tokens (hash, family_id, kind, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5)`,
        [hashSecretValue(token), familyId, kind, createdAt, expiresAt],
      )
    },
    findToken(token) {
      const r = pg.one<Record<string, unknown>>('SELECT * FROM oauth_tokens WHERE hash = $1', [
        hashSecretValue(token),
      ])
      if (!r) return null
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
