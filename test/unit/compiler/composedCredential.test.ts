import { describe, expect, it } from 'vitest'
import { findComposedSource } from '../../../src/main/compiler/composedCredential'
import type { StorageState } from '../../../src/shared/trace'

const ORIGIN = 'http://127.0.0.1:8000'
const SESSION = '84991c24b6e01d4addf4956fad538956'
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64')
const storage = (...items: Array<[string, unknown]>): StorageState => ({
  cookies: [],
  origins: [
    {
      origin: ORIGIN,
      localStorage: items.map(([name, value]) => ({
        name,
        value: typeof value === 'string' ? value : JSON.stringify(value),
      })),
    },
  ],
})

describe('findComposedSource', () => {
  const kept = storage(['sao_session_db', { login: 'admin', user_id: 1, session: SESSION }])

  it('finds each colon-separated part of a base64 credential as a field of one stored JSON item', () => {
    expect(findComposedSource(b64(`admin:1:${SESSION}`), kept)).toEqual({
      origin: ORIGIN,
      key: 'sao_session_db',
      paths: ['login', 'user_id', 'session'],
      separator: ':',
      encoding: 'base64',
    })
    // Order is the credential's, not the item's.
    expect(findComposedSource(b64(`${SESSION}:admin`), kept)?.paths).toEqual(['session', 'login'])
  })

  it('refuses a credential whose parts are not all in one item, or that holds no secret-length part', () => {
    expect(findComposedSource(b64(`admin:2:${SESSION}`), kept)).toBeNull()
    const split = storage(['user', { login: 'admin' }], ['token', { session: SESSION }])
    expect(findComposedSource(b64(`admin:${SESSION}`), split)).toBeNull()
    const short = storage(['prefs', { name: 'admin', id: 1 }])
    expect(findComposedSource(b64('admin:1'), short)).toBeNull()
  })

  it('refuses what is not base64 of printable text: a JWT, a hex token, no storage', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl'
    expect(findComposedSource(jwt, kept)).toBeNull()
    expect(findComposedSource(SESSION, storage(['s', { session: SESSION }]))).toBeNull()
    expect(findComposedSource(b64(`admin:1:${SESSION}`), null)).toBeNull()
    expect(
      findComposedSource(Buffer.from([0, 1, 2, 58, 200, 201, 202, 203]).toString('base64'), kept),
    ).toBeNull()
  })
})
