import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startHarness, type Harness } from '../../fixtures/harness/harness'

let h: Harness

beforeEach(async () => {
  h = await startHarness()
})

afterEach(async () => {
  await h.close()
})

describe('the web UI under /app/ (issue 13 item 7)', () => {
  it('answers with a strict CSP, no referrer and no framing', async () => {
    const answer = await fetch(`${h.base}/app/`)
    expect(answer.headers.get('content-security-policy')).toMatch(/script-src 'self'(;|$)/)
    expect(answer.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    expect(answer.headers.get('referrer-policy')).toBe('no-referrer')
    expect(answer.headers.get('x-frame-options')).toBe('DENY')
  })
})
