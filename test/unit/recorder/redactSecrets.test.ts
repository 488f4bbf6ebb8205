import { describe, expect, it } from 'vitest'
import {
  SECRET_PLACEHOLDER,
  redactSecrets,
  redactTypedSecrets,
  redactTypedSecretsInAction,
} from '../../../src/main/recorder/redactSecrets'
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

  it('leaves a password field left blank blank, in forms, JSON and multipart', () => {
    const form = exchange({
      requestHeaders: { 'Content-Type': 'application/x-www-form-urlencoded' },
      requestBody: {
        text: 'do=prefs&password=&confirm_password=&email=a%40b.org',
        encoding: 'utf8',
      },
    })
    expect(redactSecrets(form, ['password', 'confirm_password'])).toBe(form)
    const json = exchange({
      requestHeaders: { 'content-type': 'application/json' },
      requestBody: { text: '{"email":"a@b.org","password":""}', encoding: 'utf8' },
    })
    expect(redactSecrets(json, [])).toBe(json)
    const boundary = 'XyZ'
    const multipart = exchange({
      requestHeaders: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      requestBody: {
        text: `--${boundary}\r\nContent-Disposition: form-data; name="password"\r\n\r\n\r\n--${boundary}--\r\n`,
        encoding: 'utf8',
      },
    })
    expect(redactSecrets(multipart, ['password'])).toBe(multipart)
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

describe('redactTypedSecrets', () => {
  const PASSWORD = 'Tulip "7" / wörd&co'

  it('blanks a password sent as a positional JSON-RPC parameter, under no known key', () => {
    const rpc = exchange({
      url: 'https://example.test/json',
      requestHeaders: { 'content-type': 'application/json' },
      requestBody: {
        text: JSON.stringify({ method: 'auth.login', params: ['ann', PASSWORD], id: 1 }),
        encoding: 'utf8',
      },
    })
    const redacted = redactTypedSecrets(rpc, [PASSWORD])
    expect(JSON.parse(redacted.requestBody!.text)).toEqual({
      method: 'auth.login',
      params: ['ann', SECRET_PLACEHOLDER],
      id: 1,
    })
    // Escaped another way (\uXXXX for non-ASCII) it is found too.
    const ascii = exchange({
      requestBody: {
        text: `["${JSON.stringify(PASSWORD).slice(1, -1).replace('ö', '\\u00f6')}"]`,
        encoding: 'utf8',
      },
    })
    expect(redactTypedSecrets(ascii, [PASSWORD]).requestBody!.text).toBe(
      `["${SECRET_PLACEHOLDER}"]`,
    )
  })

  it('blanks it under an unusual form field, in the query, a header and the page URL', () => {
    const form = new URLSearchParams({ who: 'ann', pass: PASSWORD }).toString()
    const sent = exchange({
      url: `https://example.test/login?p=${encodeURIComponent(PASSWORD)}&next=%2F`,
      pageUrl: `https://example.test/?p=${encodeURIComponent(PASSWORD)}`,
      requestHeaders: { 'content-type': 'application/x-www-form-urlencoded', 'x-pass': PASSWORD },
      requestBody: { text: form, encoding: 'utf8' },
    })
    const redacted = redactTypedSecrets(sent, [PASSWORD])
    const encoded = encodeURIComponent(SECRET_PLACEHOLDER)
    expect(redacted.requestBody!.text).toBe(`who=ann&pass=${encoded}`)
    expect(redacted.url).toBe(`https://example.test/login?p=${encoded}&next=%2F`)
    expect(redacted.pageUrl).toBe(`https://example.test/?p=${encoded}`)
    expect(redacted.requestHeaders['x-pass']).toBe(SECRET_PLACEHOLDER)
    expect(JSON.stringify(redacted)).not.toContain('Tulip')
  })

  it('blanks it inside a binary (base64) body byte for byte', () => {
    const bytes = Buffer.concat([
      Buffer.from([0, 1, 2]),
      Buffer.from(`k=${PASSWORD};`),
      Buffer.from([0]),
    ])
    const binary = exchange({
      requestHeaders: { 'content-type': 'application/octet-stream' },
      requestBody: { text: bytes.toString('base64'), encoding: 'base64' },
    })
    const redacted = redactTypedSecrets(binary, [PASSWORD])
    const back = Buffer.from(redacted.requestBody!.text, 'base64').toString('latin1')
    expect(back).toContain(`k=${SECRET_PLACEHOLDER};`)
    expect(back).not.toContain('Tulip')
  })

  it('leaves a longer token that merely contains the value, and values too short to search', () => {
    const body = exchange({
      requestHeaders: { 'content-type': 'application/json' },
      requestBody: {
        text: '{"a":"hunter22","b":"xhunter2","c":"hunter2","d":"abc"}',
        encoding: 'utf8',
      },
    })
    const redacted = redactTypedSecrets(body, ['hunter2', 'abc'])
    expect(JSON.parse(redacted.requestBody!.text)).toEqual({
      a: 'hunter22',
      b: 'xhunter2',
      c: SECRET_PLACEHOLDER,
      d: 'abc',
    })
    const plain = exchange({ requestBody: { text: 'nothing here', encoding: 'utf8' } })
    expect(redactTypedSecrets(plain, ['hunter2'])).toBe(plain)
  })

  it('blanks it in an action value and page URL', () => {
    const action = {
      value: `typed hunter2 by mistake`,
      pageUrl: 'https://example.test/?pw=hunter2',
    }
    expect(redactTypedSecretsInAction(action, ['hunter2'])).toEqual({
      value: `typed ${SECRET_PLACEHOLDER} by mistake`,
      pageUrl: `https://example.test/?pw=${encodeURIComponent(SECRET_PLACEHOLDER)}`,
    })
  })
})
