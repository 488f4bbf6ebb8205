import { describe, expect, it } from 'vitest'
import {
  ACTION_BINDING,
  SECRET_AUTOCOMPLETE,
  SECRET_FIELD_NAME,
  actionScript,
} from '../../../src/main/recorder/actionScript'

describe('actionScript', () => {
  it('is self-contained JavaScript that reports to the binding', () => {
    const source = actionScript()
    expect(() => new Function(source)).not.toThrow()
    expect(source).toContain(ACTION_BINDING)
    // Bundler helpers injected into serialised functions do not exist in the page.
    expect(source).not.toMatch(/__name\(|__vite_ssr/)
  })

  it('treats password and one-time-code fields as secret by name and autocomplete', () => {
    for (const name of [
      'password',
      'user_pass',
      'passwd',
      'otp',
      'one-time',
      'totp',
      '2fa',
      'mfa_code',
      'twofa_code',
    ]) {
      expect(SECRET_FIELD_NAME.test(name), name).toBe(true)
    }
    for (const name of ['query', 'email', 'username', 'category']) {
      expect(SECRET_FIELD_NAME.test(name), name).toBe(false)
    }
    for (const token of ['current-password', 'new-password', 'section-login one-time-code']) {
      expect(SECRET_AUTOCOMPLETE.test(token), token).toBe(true)
    }
    expect(SECRET_AUTOCOMPLETE.test('username')).toBe(false)
  })
})
