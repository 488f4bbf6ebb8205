import { describe, expect, it } from 'vitest'
import { loginScope } from '../../../src/main/engine/httpExecutor'
import type { LoginBinding } from '../../../src/shared/toolSpec'
import type { StorageState } from '../../../src/shared/trace'

const ORIGIN = 'http://127.0.0.1:8000'
const binding: LoginBinding = {
  cookies: [],
  values: [
    {
      name: 'sao_session',
      from: 'localStorage',
      origin: ORIGIN,
      key: 'sao_session_db',
      path: '',
      compose: { paths: ['login', 'user_id', 'session'], separator: ':', encoding: 'base64' },
    },
  ],
}
const state = (value: unknown): StorageState => ({
  cookies: [],
  origins: [
    { origin: ORIGIN, localStorage: [{ name: 'sao_session_db', value: JSON.stringify(value) }] },
  ],
})

describe('loginScope with a composed value', () => {
  it("builds the credential from the saved login's own fields (a new session each sign-in)", () => {
    const got = loginScope(
      binding,
      state({ login: 'bob', user_id: 12, session: 'fresh-session-0001' }),
    )
    expect(got).toEqual({
      ok: true,
      scope: { 'login.sao_session': Buffer.from('bob:12:fresh-session-0001').toString('base64') },
    })
  })

  it('asks for a sign-in when a field the credential needs is missing', () => {
    const got = loginScope(binding, state({ login: 'bob', session: 'fresh-session-0001' }))
    expect(got).toMatchObject({
      ok: false,
      outcome: { code: 'session_or_permission', signIn: true },
    })
  })
})
