import { ServiceError } from '../../shared/errors'

/** Wrong passphrases allowed without waiting (typos). */
const FREE_TRIES = 3
/** The longest wait between tries, ms. */
const MAX_WAIT_MS = 5 * 60_000

export interface UnlockBackoff {
  /** Throws 429 `rate_limited` with `retryAfterSeconds` while a wait after failures runs. */
  check(): void
  /** Counts one wrong passphrase. */
  failed(): void
  /** Forgets the failures (the vault opened). */
  succeeded(): void
}

/**
 * Back-off of passphrase unlocks: after `FREE_TRIES` wrong passphrases in a
 * row, each next try waits 1 s, then 2, 4, … up to 5 minutes after the last failure, whatever
 * passphrase it carries (so guessing online costs time; offline guessing is what scrypt's cost
 * is for). Kept in memory: whoever can restart the process can read the database anyway.
 */
export function createUnlockBackoff(clock: () => number): UnlockBackoff {
  let failures = 0
  let lastFailureAt = 0
  const waitMs = () =>
    failures < FREE_TRIES ? 0 : Math.min(MAX_WAIT_MS, 1000 * 2 ** (failures - FREE_TRIES))
  return {
    check() {
      const left = lastFailureAt + waitMs() - clock()
      if (left <= 0) return
      const retryAfterSeconds = Math.ceil(left / 1000)
      throw new ServiceError(
        'rate_limited',
        `${failures} wrong passphrases in a row: try again in ${retryAfterSeconds} s.`,
        { retryAfterSeconds },
      )
    },
    failed() {
      failures++
      lastFailureAt = clock()
    },
    succeeded() {
      failures = 0
    },
  }
}
