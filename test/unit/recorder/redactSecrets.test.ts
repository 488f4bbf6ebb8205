import { describe, expect, it } from 'vitest'
import { SECRET_PLACEHOLDER, redactSecrets } from '../../../src/main/recorder/redactSecrets'
import type { Exchange } from '../../../src/shared/trace'

function exchange(overrides: Partial<Exchange>): Exchange {
  return {
    id: 'exc_1',
    seq: 1,
    method: 'POST',
    url: 'https://example.test/login',
    requestHeaders: {},
    requestBody: null,
    status: 200,
    responseHeaders: {},
    responseBody: null,
    resourceType: 'document',
    startedAt: 0,
    durationMs: 1,
    pageUrl: 'https://example.test/',
    ...overrides,
  }
}

const PLACEHOLDER = encodeURIComponent(SECRET_PLACEHOLDER)

describe('redactSecrets', () => {
  it('replaces a secret field of a form POST and leaves the other bytes alone', () => {
    const form = exchange({
      requestHeaders: { 'Content-Type': 'application/x-www-form-urlencoded' },
      requestBody: { text: 'user=ann+lee&pw=hunter2&keep=a%20b', encoding: 'utf8' },
    })
    expect(redactSecrets(form, ['pw']).requestBody).toEqual({
      text: `user=ann+lee&pw=${PLACEHOLDER}&keep=a%20b`,
      encoding: 'utf8',
    })
  })

  it('redacts a second-factor code field by its well-known name (Redmine twofa_code)', () => {
    const form = exchange({
      requestHeaders: { 'content-type': 'application/x-www-form-urlencoded' },
      requestBody: { text: 'authenticity_token=t1&twofa_code=123456', encoding: 'utf8' },
    })
    expect(redactSecrets(form, []).requestBody!.text).toBe(
      `authenticity_token=t1&twofa_code=${encodeURIComponent(SECRET_PLACEHOLDER)}`,
    )
  })

  it('redacts well-known password keys in JSON even without a recorded field name', () => {
    const json = exchange({
      requestHeaders: { 'content-type': 'application/json' },
      requestBody: {
        text: '{"user":"ann","auth":{"password":"hunter2"},"passengers":"2"}',
        encoding: 'utf8',
      },
    })
    const redacted = JSON.parse(redactSecrets(json, []).requestBody!.text)
    expect(redacted).toEqual({
      user: 'ann',
      auth: { password: SECRET_PLACEHOLDER },
      passengers: '2',
    })
  })

  it('redacts secret parts of multipart forms and the URL query', () => {
    const boundary = '----b0undary'
    const body = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="user"',
      '',
      'ann',
      `--${boundary}`,
      'Content-Disposition: form-data; name="otp_code"',
      '',
      '123456',
      `--${boundary}--`,
      '',
    ].join('\r\n')
    const multipart = exchange({
      url: 'https://example.test/login?pwd=hunter2&next=%2Fhome#top',
      requestHeaders: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      requestBody: { text: body, encoding: 'utf8' },
    })
    const redacted = redactSecrets(multipart, ['otp_code'])
    expect(redacted.url).toBe(`https://example.test/login?pwd=${PLACEHOLDER}&next=%2Fhome#top`)
    expect(redacted.requestBody!.text).toContain('ann')
    expect(redacted.requestBody!.text).not.toContain('123456')
    expect(redacted.requestBody!.text).toContain(`name="otp_code"\r\n\r\n${SECRET_PLACEHOLDER}\r\n`)
  })

  it('returns the same object when there is nothing to redact', () => {
    const plain = exchange({
      requestHeaders: { 'content-type': 'application/json' },
      requestBody: { text: '{"query":"writing"}', encoding: 'utf8' },
    })
    expect(redactSecrets(plain, ['pw'])).toBe(plain)
  })
})
