import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { authorizationFor, createRunHttpAuth } from '../../../src/main/engine/httpAuth'
import { readChallenge } from '../../../src/shared/httpChallenge'

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
const field = (header: string, name: string) =>
  new RegExp(`${name}="?([^",]*)"?`).exec(header)?.[1] ?? null

describe('authorizationFor', () => {
  it('answers Basic with user:password in UTF-8, base64 (RFC 7617 §2.1)', () => {
    const challenge = readChallenge('Basic realm="WallyWorld", charset="UTF-8"')!
    const value = authorizationFor(challenge, 'GET', 'http://x/', {
      username: 'test',
      password: '123£',
    })
    expect(value).toBe('Basic dGVzdDoxMjPCow==')
  })

  it('refuses a Basic user-id holding a colon (RFC 7617 §2)', () => {
    const challenge = readChallenge('Basic realm="x"')!
    expect(() =>
      authorizationFor(challenge, 'GET', 'http://x/', { username: 'a:b', password: 'c' }),
    ).toThrow(/colon/)
  })

  it('answers the RFC 7616 §3.9.1 SHA-256 challenge with a response that checks out', () => {
    const challenge = readChallenge(
      'Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=SHA-256, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"',
    )!
    const value = authorizationFor(challenge, 'GET', 'http://www.example.org/dir/index.html', {
      username: 'Mufasa',
      password: 'Circle of Life',
    })
    expect(value).toMatch(/^Digest /)
    expect(field(value, 'algorithm')).toBe('SHA-256')
    expect(field(value, 'uri')).toBe('/dir/index.html')
    expect(field(value, 'opaque')).toBe('FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS')
    const ha1 = sha256('Mufasa:http-auth@example.org:Circle of Life')
    const ha2 = sha256('GET:/dir/index.html')
    const expected = sha256(
      `${ha1}:7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v:${field(value, 'nc')}:${field(value, 'cnonce')}:auth:${ha2}`,
    )
    expect(field(value, 'response')).toBe(expected)
  })
})

describe('createRunHttpAuth', () => {
  it('reads the saved credentials once, and only when a challenge comes', async () => {
    let reads = 0
    const auth = createRunHttpAuth(async () => {
      reads++
      return { username: 'ann', password: 'pw' }
    })
    expect(await auth.upFront('http://x/')).toBeNull()
    expect(await auth.answer('GET', 'http://x/', { status: 200, headers: {} })).toBeNull()
    expect(reads).toBe(0)
    const challenged = { status: 401, headers: { 'www-authenticate': 'Basic realm="x"' } }
    expect(await auth.answer('GET', 'http://x/a', challenged)).toBe('Basic YW5uOnB3')
    expect(await auth.answer('GET', 'http://x/b', challenged)).toBe('Basic YW5uOnB3')
    expect(reads).toBe(1)
    // Basic goes up front from then on (RFC 7617 §2.2, the same protection space).
    expect(await auth.upFront('http://x/c')).toBe('Basic YW5uOnB3')
    // A Basic answer the site refused is not sent again.
    expect(await auth.answer('GET', 'http://x/d', challenged, 'Basic YW5uOnB3')).toBeNull()
  })

  it('sends Basic up front to the site of a tool bound to it, and to no other host', async () => {
    let reads = 0
    const saved = async () => {
      reads++
      return { username: 'ann', password: 'pw' }
    }
    const bound = createRunHttpAuth(saved, { scheme: 'basic', siteHost: 'x:8080' })
    expect(await bound.upFront('http://elsewhere/')).toBeNull()
    expect(reads).toBe(0)
    expect(await bound.upFront('http://x:8080/api')).toBe('Basic YW5uOnB3')
    expect(
      await createRunHttpAuth(saved, { scheme: 'digest', siteHost: 'x:8080' }).upFront(
        'http://x:8080/',
      ),
    ).toBeNull()
    expect(
      await createRunHttpAuth(async () => null, { scheme: 'basic', siteHost: 'x' }).upFront(
        'http://x/',
      ),
    ).toBeNull()
  })

  it('answers nothing for a bearer challenge or without saved credentials', async () => {
    const bearer = { status: 401, headers: { 'www-authenticate': 'Bearer realm="api"' } }
    expect(
      await createRunHttpAuth(async () => ({ username: 'a', password: 'b' })).answer(
        'GET',
        'http://x/',
        bearer,
      ),
    ).toBeNull()
    const basic = { status: 401, headers: { 'www-authenticate': 'Basic' } }
    expect(await createRunHttpAuth(async () => null).answer('GET', 'http://x/', basic)).toBeNull()
    expect(await createRunHttpAuth(undefined).answer('GET', 'http://x/', basic)).toBeNull()
  })
})
