import { describe, expect, it } from 'vitest'
import { readChallenge } from '../../../src/shared/httpChallenge'

describe('readChallenge (RFC 9110 §11.6.1)', () => {
  it('reads a Basic challenge and its quoted realm', () => {
    expect(readChallenge('Basic realm="Team \\"A\\" notes", charset="UTF-8"')).toMatchObject({
      scheme: 'basic',
      realm: 'Team "A" notes',
    })
  })

  it('prefers Digest when a site offers both, and keeps that challenge text alone', () => {
    const c = readChallenge(
      'Basic realm="x", Digest realm="api@example.org", qop="auth", algorithm=SHA-256, nonce="7ypf"',
    )
    expect(c).toMatchObject({ scheme: 'digest', realm: 'api@example.org' })
    expect(c!.text).toBe(
      'Digest realm="api@example.org", qop="auth", algorithm=SHA-256, nonce="7ypf"',
    )
  })

  it('answers null for schemes it cannot answer and for no header', () => {
    expect(readChallenge('Bearer realm="api", error="invalid_token"')).toBeNull()
    expect(readChallenge(undefined)).toBeNull()
    expect(readChallenge('Basic')).toMatchObject({ scheme: 'basic', realm: null })
  })
})
