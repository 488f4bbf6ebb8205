import { describe, expect, it } from 'vitest'
import { createRunSecrets, type BoundSecret } from '../../../src/main/vault'

const SECRET: BoundSecret = { name: 'TOK', value: 'sk-Ünïcode/42+"q"&<x>', hosts: ['api.test'] }

/** A run that resolved SECRET, and its redaction of `text`. */
async function redacted(text: string): Promise<string> {
  const secrets = createRunSecrets(async () => SECRET)
  await secrets.resolve('TOK')
  return secrets.redact(text)
}

const bytes = Buffer.from(SECRET.value, 'utf8')

describe('a secret the site echoes back encoded is redacted', () => {
  it.each([
    ['raw', SECRET.value],
    ['percent-encoded', encodeURIComponent(SECRET.value)],
    ['form-encoded', new URLSearchParams({ v: SECRET.value }).toString().slice(2)],
    ['JSON-escaped', JSON.stringify(SECRET.value).slice(1, -1)],
    ['hex', bytes.toString('hex')],
    ['upper-case hex', bytes.toString('hex').toUpperCase()],
    ['base64', bytes.toString('base64')],
    ['base64url', bytes.toString('base64url')],
    [
      'HTML-escaped',
      SECRET.value
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/"/g, '&quot;'),
    ],
  ])('%s', async (_, form) => {
    const out = await redacted(`{"echo":"${form}"}`)
    expect(out).toContain('[secret:TOK]')
    expect(out).not.toContain(form)
  })

  it.each([0, 1, 2])(
    'base64 of a text holding it at byte offset %i (a Basic user:secret)',
    async (n) => {
      const prefix = 'u'.repeat(n + 3) + ':'
      const encoded = Buffer.from(`${prefix}${SECRET.value}!`, 'utf8').toString('base64')
      const out = await redacted(`Authorization: Basic ${encoded}`)
      expect(out).toContain('[secret:TOK]')
      // What is left cannot be decoded back into the secret.
      const rest = out.split('[secret:TOK]').join('')
      expect(
        Buffer.from(rest.replace(/^Authorization: Basic /, ''), 'base64').toString('utf8'),
      ).not.toContain('sk-Ü')
    },
  )

  it('leaves text that holds no form of the secret as it is', async () => {
    const text = '{"data":[{"title":"Quarterly budget","id":"c2stb3RoZXI="}]}'
    expect(await redacted(text)).toBe(text)
  })
})
