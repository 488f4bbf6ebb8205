import { ServiceError } from '../shared/errors'
import {
  SIGN_IN_CODE_LIFE_MS,
  type IssuedOwnerToken,
  type OwnerTokens,
} from './api/oauth/ownerTokens'
import { OWNER_TOKEN_LIFE_MS } from './surface/caller'
import { randomSecret } from './surface/secrets'
import type { RateLimiter, RateLimits } from './api/rateLimit'
import { hashSecretValue } from './store/oauthRepository'
import type { SyncPg } from './store/postgres/pgSync'

/** `randomSecret()` without a prefix: 32 random bytes in base64url, 43 characters. */
const OWNER_TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/

/**
 * Owner tokens kept in PostgreSQL (tables `owner_tokens`, `sign_in_codes` of migration 002), so
 * every node of a team server accepts a token another node issued, and a start link's code works
 * once across all of them (the node that redeems it deletes it in the same statement). Same
 * contract as `createOwnerTokens` (`api/oauth/ownerTokens.ts`): tokens live `lifeMs` (default one
 * hour, interface.md "Other time-bound states"), codes 10 minutes; only SHA-256 hashes are stored.
 * Errors: 401 `unauthorized` from `refresh` and `redeem` as there; 503 when the database is away.
 */
export function createPgOwnerTokens(
  pg: SyncPg,
  options: { clock: () => number; lifeMs?: number },
): OwnerTokens {
  const { clock } = options
  const lifeMs = options.lifeMs ?? OWNER_TOKEN_LIFE_MS
  const issue = (): IssuedOwnerToken => {
    const now = clock()
    const token = randomSecret()
    const expiresAt = now + lifeMs
    pg.query('INSERT INTO owner_tokens (hash, expires_at) VALUES ($1, $2)', [
      hashSecretValue(token),
      expiresAt,
    ])
    // Expired rows go with the next issue (indexed; a handful at most).
    pg.query('DELETE FROM owner_tokens WHERE expires_at <= $1', [now])
    return { token, expiresAt }
  }
  const expiresAt = (token: string): number | null => {
    // Only what `randomSecret()` makes can be an owner token: API keys and OAuth tokens, which
    // every request's authentication tries after owner tokens, cost no round trip here.
    if (!OWNER_TOKEN_SHAPE.test(token)) return null
    const row = pg.one<{ expires_at: number }>(
      'SELECT expires_at FROM owner_tokens WHERE hash = $1 AND expires_at > $2',
      [hashSecretValue(token), clock()],
    )
    return row ? row.expires_at : null
  }
  return {
    issue,
    isValid: (token) => expiresAt(token) !== null,
    expiresAt,
    refresh(token) {
      if (expiresAt(token) === null)
        throw new ServiceError(
          'unauthorized',
          'The owner session expired (one hour): open the app from its start URL again.',
        )
      return issue()
    },
    issueCode() {
      const now = clock()
      const code = randomSecret()
      pg.query('DELETE FROM sign_in_codes WHERE expires_at <= $1', [now])
      pg.query('INSERT INTO sign_in_codes (hash, expires_at) VALUES ($1, $2)', [
        hashSecretValue(code),
        now + SIGN_IN_CODE_LIFE_MS,
      ])
      return code
    },
    redeem(code) {
      const spent = pg.one<{ expires_at: number }>(
        'DELETE FROM sign_in_codes WHERE hash = $1 RETURNING expires_at',
        [hashSecretValue(code)],
      )
      if (!spent || spent.expires_at <= clock())
        throw new ServiceError(
          'unauthorized',
          'This sign-in link was already used or is over 10 minutes old: open the app in the tab that used it, or start Sitecall again for a new link.',
        )
      return issue()
    },
  }
}

/**
 * The per-key token bucket of `createRateLimiter` (`api/rateLimit.ts`), kept in PostgreSQL's
 * `rate_buckets` so a key's requests count once whichever node they reach. One statement per
 * request: the upsert refills the bucket by the time passed (`perMinute`, capped at `burst`) and
 * takes one token only when one is there, under the row's lock, so two nodes cannot both take
 * the last one. Throws 429 `rate_limited` with `retryAfterSeconds` when the bucket is empty.
 */
export function createPgRateLimiter(
  pg: SyncPg,
  limits: RateLimits,
  clock: () => number,
): RateLimiter {
  const perMs = limits.perMinute / 60_000
  const refilled = `LEAST($2::float8, b.tokens + GREATEST(0, $3 - b.at) * $4::float8)`
  const takeSql = `INSERT INTO rate_buckets AS b (key, tokens, at) VALUES ($1, $2::float8 - 1, $3)
    ON CONFLICT (key) DO UPDATE SET tokens = ${refilled} - 1, at = GREATEST(b.at, $3)
    WHERE ${refilled} >= 1
    RETURNING tokens`
  return {
    take(key) {
      const now = clock()
      const taken = pg.query(takeSql, [key, limits.burst, now, perMs])
      if (taken.rowCount > 0) return
      const row = pg.one<{ tokens: number; at: number }>(
        'SELECT tokens, at FROM rate_buckets WHERE key = $1',
        [key],
      )
      const tokens = row
        ? Math.min(limits.burst, row.tokens + Math.max(0, now - row.at) * perMs)
        : 0
      const retryAfterSeconds = Math.max(1, Math.ceil((1 - tokens) / perMs / 1000))
      throw new ServiceError(
        'rate_limited',
        `Too many requests with this key (${limits.perMinute} a minute, bursts of ${limits.burst}): retry after ${retryAfterSeconds} s.`,
        { retryAfterSeconds },
      )
    },
  }
}
