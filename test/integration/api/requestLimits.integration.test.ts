import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startHarness, type Harness } from '../../fixtures/harness/harness'

let h: Harness

beforeEach(async () => {
  h = await startHarness()
})

afterEach(async () => {
  await h.close()
})

const post = (path: string, body: string) =>
  fetch(`${h.base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${h.key}`, 'content-type': 'application/json' },
    body,
  })

describe('request bodies (issue 13 item 8)', () => {
  it('refuses deeply nested inputs with 400 bad_request before anything hashes them', async () => {
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`
    const answer = await post(
      '/api/v1/runs',
      `{"intent":"search the directory","inputs":{"q":${deep}}}`,
    )
    expect(answer.status).toBe(400)
    const body = (await answer.json()) as { error: { code: string; message: string } }
    expect(body.error.code).toBe('bad_request')
    expect(body.error.message).toMatch(/deeper than \d+ levels/)
  })

  it('keeps ordinary nesting', async () => {
    const nested = `${'['.repeat(20)}1${']'.repeat(20)}`
    const answer = await post(
      '/api/v1/runs',
      `{"intent":"search the directory","inputs":{"q":${nested}}}`,
    )
    expect(answer.status).not.toBe(400)
  })

  it('answers a body over the limit with 413 payload_too_large', async () => {
    const answer = await post(
      '/api/v1/runs',
      JSON.stringify({ intent: 'x'.repeat(6 * 1024 * 1024) }),
    )
    expect(answer.status).toBe(413)
    const body = (await answer.json()) as { error: { code: string; message: string } }
    expect(body.error.code).toBe('payload_too_large')
    expect(body.error.message).toContain('5 MB')
  })
})
