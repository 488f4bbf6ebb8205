import { ServiceError } from '../../shared/errors'

/** Requests a key may send: a token bucket refilled at `perMinute`, holding at most `burst`. */
export interface RateLimits {
  perMinute: number
  burst: number
}

/**
 * Our choice where interface.md "Limits" says request rate limits are "not shown": 600 requests a minute
 * per key (10 a second sustained) with bursts of 100, far above what an agent or a program
 * polling runs needs, low enough to stop one runaway loop from starving the others.
 */
export const DEFAULT_RATE_LIMITS: RateLimits = { perMinute: 600, burst: 100 }

export interface RateLimiter {
  /**
   * Takes one request from the bucket of `key` (an API key id, an OAuth grant). Throws 429
   * `rate_limited` with `retryAfterSeconds` (the server sends it as `Retry-After`, RFC 9110
   * §10.2.3) when the bucket is empty. `rate_limited` is the interface's code for "a rate limit was
   * hit; wait, retry": its table names the site's limit, and no REST code of the interface's covers
   * the service's own, so the same code and action serve both; a refusal (HTTP 429 with the error
   * body) is told apart from a failed run (HTTP 200, run `status: failed`) by its shape.
   */
  take(key: string): void
}

const MAX_BUCKETS = 10_000

/** Creates a per-key token-bucket limiter over a clock in milliseconds. */
export function createRateLimiter(limits: RateLimits, clock: () => number): RateLimiter {
  const perMs = limits.perMinute / 60_000
  const buckets = new Map<string, { tokens: number; at: number }>()
  return {
    take(key) {
      const now = clock()
      const bucket = buckets.get(key) ?? { tokens: limits.burst, at: now }
      bucket.tokens = Math.min(limits.burst, bucket.tokens + Math.max(0, now - bucket.at) * perMs)
      bucket.at = now
      if (bucket.tokens < 1) {
        buckets.set(key, bucket)
        const retryAfterSeconds = Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000))
        throw new ServiceError(
          'rate_limited',
          `Too many requests with this key (${limits.perMinute} a minute, bursts of ${limits.burst}): retry after ${retryAfterSeconds} s.`,
          { retryAfterSeconds },
        )
      }
      bucket.tokens -= 1
      // Re-insert so the Map's order is least recently used first.
      buckets.delete(key)
      buckets.set(key, bucket)
      if (buckets.size > MAX_BUCKETS) buckets.delete(buckets.keys().next().value!)
    },
  }
}
