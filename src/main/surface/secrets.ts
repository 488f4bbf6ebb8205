import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/** A 256-bit random value in base64url after `prefix` (tokens, codes, ids). */
export function randomSecret(prefix = ''): string {
  return prefix + randomBytes(32).toString('base64url')
}

/** RFC 7636 §4.1: a code_verifier is 43 to 128 characters of `[A-Za-z0-9-._~]`. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/
/** RFC 7636 §4.2: an S256 code_challenge is the 43-character base64url of a SHA-256 digest. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/

/** Whether a code_challenge has the S256 form (RFC 7636 §4.2). */
export function isS256Challenge(challenge: string): boolean {
  return S256_CHALLENGE.test(challenge)
}

/**
 * The S256 check of RFC 7636 §4.6: `BASE64URL(SHA256(ASCII(code_verifier))) == code_challenge`,
 * compared in constant time. A verifier outside §4.1's form never matches.
 */
export function verifyS256(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) return false
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'))
  const expected = Buffer.from(challenge)
  return computed.length === expected.length && timingSafeEqual(computed, expected)
}
