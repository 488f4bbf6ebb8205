import { ServiceError } from '../../../shared/errors'
import { hashSecretValue } from '../../store/oauthRepository'
import { randomSecret } from './secrets'

/** Spec "Other time-bound states" and "Limits": an owner token expires after one hour. */
export const OWNER_TOKEN_LIFE_MS = 60 * 60_000

export interface IssuedOwnerToken {
  token: string
  /** Milliseconds since the Unix epoch. */
  expiresAt: number
}

export interface OwnerTokens {
  /** Mints a token valid for an hour (at start, and for the app's own windows). */
  issue(): IssuedOwnerToken
  /** Whether a token is one of ours and not expired. */
  isValid(token: string): boolean
  /** When a valid token expires (ms since the epoch), or null when it is not valid. */
  expiresAt(token: string): number | null
  /**
   * Trades a valid token for a fresh one (the UI's session, `POST /app-api/session/refresh`).
   * The old one keeps its own hour: the start URL and other tabs holding it go on working, and
   * nothing in flight fails. Errors: 401 `unauthorized` when it is unknown or
   * already expired (the person opens the app's URL again).
   */
  refresh(token: string): IssuedOwnerToken
}

/**
 * The owner's session tokens of this process (DESIGN.md §2: printed in the UI's URL). Held in
 * memory only, as hashes: a restart ends every session, as it did before tokens expired.
 */
export function createOwnerTokens(options: { clock: () => number; lifeMs?: number }): OwnerTokens {
  const { clock } = options
  const lifeMs = options.lifeMs ?? OWNER_TOKEN_LIFE_MS
  const expiry = new Map<string, number>()
  const issue = (): IssuedOwnerToken => {
    const now = clock()
    for (const [hash, at] of expiry) if (at <= now) expiry.delete(hash)
    const token = randomSecret()
    const expiresAt = now + lifeMs
    expiry.set(hashSecretValue(token), expiresAt)
    return { token, expiresAt }
  }
  const isValid = (token: string) => (expiry.get(hashSecretValue(token)) ?? 0) > clock()
  return {
    issue,
    isValid,
    expiresAt: (token) => (isValid(token) ? expiry.get(hashSecretValue(token))! : null),
    refresh(token) {
      if (!isValid(token))
        throw new ServiceError(
          'unauthorized',
          'The owner session expired (one hour): open the app from its start URL again.',
        )
      return issue()
    },
  }
}
