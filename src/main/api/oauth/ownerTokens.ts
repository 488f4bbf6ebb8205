import { ServiceError } from '../../../shared/errors'
import { hashSecretValue } from '../../store/oauthRepository'
import { OWNER_TOKEN_LIFE_MS } from '../../surface/caller'
import { randomSecret } from '../../surface/secrets'

/** A sign-in code of the app's start link is good for this long, and for one use. */
export const SIGN_IN_CODE_LIFE_MS = 10 * 60_000

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
  /**
   * A one-time code for the app's start link (`/app/?code=…`): what `sitecall serve` prints and
   * hands to the browser it opens, so the owner token itself never appears in another process's
   * arguments or in browser history. Good for `SIGN_IN_CODE_LIFE_MS`, once.
   */
  issueCode(): string
  /**
   * Trades a code of `issueCode` for a fresh owner token; the code is spent. Errors: 401
   * `unauthorized` for an unknown, spent or expired code.
   */
  redeem(code: string): IssuedOwnerToken
}

/**
 * The owner's session tokens of this process (docs/architecture.md "Processes": printed in the UI's URL). Held in
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
  const codes = new Map<string, number>()
  return {
    issue,
    isValid,
    issueCode() {
      const now = clock()
      for (const [hash, at] of codes) if (at <= now) codes.delete(hash)
      const code = randomSecret()
      codes.set(hashSecretValue(code), now + SIGN_IN_CODE_LIFE_MS)
      return code
    },
    redeem(code) {
      const hash = hashSecretValue(code)
      const until = codes.get(hash)
      codes.delete(hash)
      if (until === undefined || until <= clock())
        throw new ServiceError(
          'unauthorized',
          'This sign-in link was already used or is over 10 minutes old: open the app in the tab that used it, or start Sitecall again for a new link.',
        )
      return issue()
    },
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
