import { describe, expect, it } from 'vitest'
import { holds, judgeResponse, retryAfterSeconds } from '../../../src/main/engine/outcome'
import type { VerifyRule } from '../../../src/shared/toolSpec'

const verify: VerifyRule = {
  status: [200, 299],
  mimeType: 'application/json',
  required: [
    { path: 'data', type: 'array' },
    { path: 'count', type: 'integer' },
    { path: 'data[].toolName', type: 'string' },
  ],
}
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
})
const codeOf = (r: ReturnType<typeof judgeResponse>) => (r.ok ? 'ok' : r.code)

describe('judgeResponse', () => {
  it('succeeds only when the declared outcome holds', () => {
    const answer = { data: [{ toolName: 'A' }], count: 1 }
    const response = json(answer)
    // The answer's own text comes along: the run stores and answers those bytes (issue 12).
    expect(judgeResponse(response, verify)).toEqual({
      ok: true,
      result: answer,
      text: response.body,
    })
  })

  it('reads a JSON refusal for want of a login as session_or_permission, not drift', () => {
    // Deluge-style JSON-RPC: 200 with the refusal in `error`; DRF-style `detail`.
    const rpc = judgeResponse(
      json({ result: null, error: { message: 'Not authenticated', code: 1 }, id: 2 }),
      verify,
    )
    expect(rpc).toMatchObject({ ok: false, code: 'session_or_permission', signIn: true })
    expect(rpc.ok ? '' : rpc.message).toContain('Not authenticated')
    expect(
      codeOf(
        judgeResponse(json({ detail: 'Authentication credentials were not provided.' }), verify),
      ),
    ).toBe('session_or_permission')
    // An error about something else is still drift.
    expect(codeOf(judgeResponse(json({ error: 'index rebuilding' }), verify))).toBe(
      'schema_or_auth_drift',
    )
  })

  it('maps the site signals to docs/interface.md failure codes', () => {
    expect(codeOf(judgeResponse(json({}, 401), verify))).toBe('session_or_permission')
    expect(codeOf(judgeResponse(json({}, 403), verify))).toBe('session_or_permission')
    expect(codeOf(judgeResponse(json({}, 404), verify))).toBe('not_found')
    expect(codeOf(judgeResponse(json({}, 410), verify))).toBe('not_found')
    expect(codeOf(judgeResponse(json({}, 503), verify))).toBe('upstream_error')
    expect(codeOf(judgeResponse(json({ items: [], total: 0 }), verify))).toBe(
      'schema_or_auth_drift',
    )
    expect(codeOf(judgeResponse(json({}), verify))).toBe('outcome_not_verified')
    expect(codeOf(judgeResponse(json({ data: [{ toolName: 5 }], count: 1 }), verify))).toBe(
      'outcome_not_verified',
    )
    const page = (html: string) => ({
      status: 200,
      headers: { 'content-type': 'text/html' },
      body: html,
    })
    expect(
      codeOf(judgeResponse(page('<title>Sign in</title><input type="password">'), verify)),
    ).toBe('session_or_permission')
    expect(
      codeOf(
        judgeResponse(page('<html>Enter the verification code <input name=otp></html>'), verify),
      ),
    ).toBe('mfa_required')
    expect(
      codeOf(
        judgeResponse(page('<html><div class="captcha">Are you a robot?</div></html>'), verify),
      ),
    ).toBe('challenge')
    expect(codeOf(judgeResponse(page('<html><body>Welcome</body></html>'), verify))).toBe(
      'schema_or_auth_drift',
    )
  })

  it("puts the site's Retry-After, else 60 s, in a rate-limit message", () => {
    const told = judgeResponse(json({}, 429, { 'retry-after': '7' }), verify)
    expect(told).toMatchObject({
      ok: false,
      code: 'rate_limited',
      message: expect.stringContaining('7 s'),
    })
    const untold = judgeResponse(json({}, 429), verify)
    expect(untold).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('60 s') })
  })
})

describe('holds', () => {
  it('walks dots and maps [] over every list item', () => {
    expect(holds({ a: { b: [{ c: 1 }, { c: 2 }] } }, 'a.b[].c', 'integer')).toBe(true)
    expect(holds({ a: { b: [{ c: 1 }, { d: 2 }] } }, 'a.b[].c', 'integer')).toBe(false)
    expect(holds({ a: 1.5 }, 'a', 'integer')).toBe(false)
    expect(holds({ a: 1.5 }, 'a', 'number')).toBe(true)
  })

  it('lets a list item leave a promised field null, but not drop it or a top-level one', () => {
    const folder = {
      content: [
        { name: 'a.txt', size: 3 },
        { name: 'sub', size: null },
      ],
    }
    expect(holds(folder, 'content[].size', 'integer')).toBe(true)
    expect(holds({ content: [{ name: 'sub' }] }, 'content[].size', 'integer')).toBe(false)
    expect(holds({ size: null }, 'size', 'integer')).toBe(false)
  })
})

describe('retryAfterSeconds', () => {
  it('reads delta-seconds and HTTP-dates (RFC 9110 §10.2.3)', () => {
    expect(retryAfterSeconds('120')).toBe(120)
    expect(
      retryAfterSeconds(
        'Wed, 21 Oct 2026 07:28:30 GMT',
        Date.parse('Wed, 21 Oct 2026 07:28:00 GMT'),
      ),
    ).toBe(30)
    expect(retryAfterSeconds('soon')).toBeNull()
  })
})
