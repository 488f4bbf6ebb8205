import { describe, expect, it } from 'vitest'
import { createRateLimiter } from '../../../src/main/api/rateLimit'
import { isServiceError } from '../../../src/shared/errors'

function refusal(fn: () => void) {
  try {
    fn()
  } catch (error) {
    if (isServiceError(error)) return error
    throw error
  }
  return null
}

describe('createRateLimiter', () => {
  it('lets a burst through, then refuses with the seconds until one request refills', () => {
    let now = 0
    const limiter = createRateLimiter({ perMinute: 6, burst: 2 }, () => now)
    limiter.take('k')
    limiter.take('k')
    const error = refusal(() => limiter.take('k'))
    expect(error?.code).toBe('rate_limited')
    expect(error?.status).toBe(429)
    expect(error?.details.retryAfterSeconds).toBe(10)
    now += 10_000
    expect(refusal(() => limiter.take('k'))).toBeNull()
  })

  it('keeps one bucket per key and never fills past the burst', () => {
    let now = 0
    const limiter = createRateLimiter({ perMinute: 60, burst: 1 }, () => now)
    limiter.take('a')
    expect(refusal(() => limiter.take('b'))).toBeNull()
    now += 60 * 60_000
    limiter.take('a')
    expect(refusal(() => limiter.take('a'))?.code).toBe('rate_limited')
  })
})
