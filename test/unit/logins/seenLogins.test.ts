import { describe, expect, it } from 'vitest'
import {
  BEARER_ITEM,
  createSeenLogins,
  describeOffer,
  findSeenLogin,
  offerOf,
} from '../../../src/main/logins/seenLogins'
import type { SiteLogins } from '../../../src/main/logins/siteLogins'
import { WITHHELD } from '../../../src/main/store/traceCredentials'
import { ServiceError } from '../../../src/shared/errors'
import type { Action, Exchange, StorageState, Trace } from '../../../src/shared/trace'

const SITE = 'app.test:8080'

function exchange(seq: number, overrides: Partial<Exchange> = {}): Exchange {
  return {
    id: `exc_${seq}`,
    seq,
    method: 'GET',
    url: `http://${SITE}/api/${seq}`,
    requestHeaders: {},
    requestBody: null,
    status: 200,
    responseHeaders: {},
    responseBody: null,
    resourceType: 'fetch',
    startedAt: 1_000 + seq,
    durationMs: 1,
    pageUrl: `http://${SITE}/`,
    ...overrides,
  }
}

function trace(
  exchanges: Exchange[],
  storageState: StorageState | null = null,
  actions: Action[] = [],
): Trace {
  return {
    id: 'trc_1',
    intent: 'list things',
    startUrl: `http://${SITE}/`,
    createdAt: 0,
    exchanges,
    actions,
    storageState,
  }
}

const basic = (pair: string) => `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`

describe('findSeenLogin', () => {
  it('reads the user and password of a Basic Authorization sent to the site, and no other host', () => {
    const seen = findSeenLogin(
      trace([
        exchange(1, {
          url: 'http://other.test/x',
          requestHeaders: { authorization: basic('eve:x') },
        }),
        exchange(2, { requestHeaders: { Authorization: basic('ann:pa:ss wörd') } }),
      ]),
      SITE,
    )
    expect(seen?.http).toEqual({ scheme: 'basic', username: 'ann', password: 'pa:ss wörd' })
    expect(seen?.loginUrl).toBe(`http://${SITE}/api/2`)
    expect(seen?.state).toBeNull()
  })

  it('takes a Digest user without a password (it never crosses the wire)', () => {
    const seen = findSeenLogin(
      trace([
        exchange(1, {
          requestHeaders: {
            authorization: 'Digest username="ann \\"a\\"", realm="Notes", nonce="n", response="r"',
          },
        }),
      ]),
      SITE,
    )!
    expect(seen.http).toEqual({ scheme: 'digest', username: 'ann "a"', password: null })
    expect(offerOf(seen, { saved: false, replaces: false })).toMatchObject({
      needsPassword: true,
      httpAuth: 'digest',
    })
  })

  it('keeps the site part of the storage state the recording ended with', () => {
    const state: StorageState = {
      cookies: [
        { name: 'sid', value: 's1', domain: 'app.test', path: '/', expires: -1, httpOnly: true },
        { name: 'ad', value: 'x', domain: 'ads.test', path: '/', expires: -1 },
      ],
      origins: [{ origin: `http://${SITE}`, localStorage: [{ name: 'theme', value: 'dark' }] }],
    }
    const seen = findSeenLogin(trace([exchange(1)], state, []), SITE)!
    expect(seen.state?.cookies.map((c) => c.name)).toEqual(['sid'])
    expect(offerOf(seen, { saved: false, replaces: false })).toMatchObject({
      cookieCount: 1,
      storageItems: 1,
      saved: false,
    })
  })

  it('rebuilds a HAR’s cookies from what its requests carried and what the site set', () => {
    const seen = findSeenLogin(
      trace([
        exchange(1, { requestHeaders: { cookie: 'old=1; sid=a' } }),
        exchange(2, {
          responseHeaders: {
            'set-cookie': 'sid=b; Path=/; HttpOnly\nold=; Max-Age=0\ncsrf=t; Path=/app',
          },
        }),
        exchange(3, { url: 'http://other.test/', requestHeaders: { cookie: 'elsewhere=1' } }),
      ]),
      SITE,
    )!
    expect(seen.state?.cookies).toEqual([
      { name: 'sid', value: 'b', domain: 'app.test', path: '/', expires: -1, httpOnly: true },
      { name: 'csrf', value: 't', domain: 'app.test', path: '/app', expires: -1 },
    ])
  })

  it('keeps a bearer token seen only in headers as a login item a run reads', () => {
    const seen = findSeenLogin(
      trace([exchange(1, { requestHeaders: { authorization: 'Bearer tok-123456789' } })]),
      SITE,
    )!
    expect(seen.bearer).toBe(true)
    expect(seen.state?.origins).toEqual([
      {
        origin: `http://${SITE}`,
        localStorage: [{ name: BEARER_ITEM, value: '{"access_token":"tok-123456789"}' }],
      },
    ])
    // The storage holds it already: nothing is added.
    const stored = findSeenLogin(
      trace([exchange(1, { requestHeaders: { authorization: 'Bearer tok-123456789' } })], {
        cookies: [],
        origins: [
          { origin: `http://${SITE}`, localStorage: [{ name: 'jwt', value: 'tok-123456789' }] },
        ],
      }),
      SITE,
    )!
    expect(stored.state?.origins[0]!.localStorage.map((i) => i.name)).toEqual(['jwt'])
  })

  it('shows the user name typed on the sign-in page, never the password', () => {
    const fill = (seq: number, over: Partial<Action>): Action => ({
      seq,
      kind: 'fill',
      at: seq,
      pageUrl: `http://${SITE}/login`,
      selector: null,
      role: 'textbox',
      name: null,
      value: null,
      ...over,
    })
    const seen = findSeenLogin(
      trace([exchange(1, { requestHeaders: { cookie: 'sid=a' } })], null, [
        fill(1, { fieldName: 'who', value: 'ann' }),
        fill(2, { fieldName: 'secret-word', secret: true, inputType: 'password' }),
      ]),
      SITE,
    )!
    expect(offerOf(seen, { saved: false, replaces: false }).username).toBe('ann')
    expect(seen.loginUrl).toBe(`http://${SITE}/login`)
  })

  it('finds nothing where the store withheld the credentials, or the site kept none', () => {
    expect(
      findSeenLogin(
        trace([exchange(1, { requestHeaders: { authorization: WITHHELD, cookie: WITHHELD } })]),
        SITE,
      ),
    ).toBeNull()
    expect(findSeenLogin(trace([exchange(1)]), SITE)).toBeNull()
  })

  it('describes an offer without a secret value', () => {
    expect(
      describeOffer({
        traceId: 't',
        host: SITE,
        cookieCount: 2,
        storageItems: 1,
        username: 'ann',
        httpAuth: 'basic',
        needsPassword: false,
        bearer: true,
        saved: false,
        replaces: false,
      }),
    ).toBe('user ann, HTTP Basic auth, 2 cookies, a bearer token')
  })
})

describe('createSeenLogins', () => {
  function fakeLogins() {
    const saved: Array<{ host: string; state?: StorageState; credentials?: unknown; at?: number }> =
      []
    let locked = false
    const logins: Pick<SiteLogins, 'save' | 'saveHttpAuth' | 'get' | 'credentials'> = {
      async credentials(_tenant, host) {
        const found = saved.find((s) => s.host === host)?.credentials as
          { username: string; password: string } | undefined
        return found ? { ...found, totpSeed: null } : null
      },
      async save(_tenant, host, state, options) {
        if (locked) throw new ServiceError('unavailable', 'The vault is locked.')
        saved.push({ host, state, credentials: options?.credentials })
      },
      async saveHttpAuth(_tenant, host, credentials) {
        if (locked) throw new ServiceError('unavailable', 'The vault is locked.')
        saved.push({ host, credentials })
      },
      get: (_tenant, host) => {
        const found = saved.find((s) => s.host === host)
        return found
          ? {
              host,
              savedAt: found.at ?? 0,
              lastUsedAt: null,
              hasPassword: !!found.credentials,
              hasTotp: false,
              loginUrl: null,
            }
          : null
      },
    }
    return { logins, saved, lock: (on: boolean) => (locked = on) }
  }

  it('holds a seen login in memory, saves it once asked, and keeps nothing when the vault is locked', async () => {
    const { logins, saved, lock } = fakeLogins()
    const seen = createSeenLogins({ logins, traces: { get: () => null } })
    const recorded = trace([exchange(1, { requestHeaders: { authorization: basic('ann:pw') } })])
    expect(await seen.note('local', recorded, SITE)).toMatchObject({
      username: 'ann',
      saved: false,
    })
    expect(await seen.offer('local', 'trc_1', 'other.test')).toBeNull()
    lock(true)
    await expect(seen.save('local', 'trc_1', SITE)).rejects.toMatchObject({ code: 'unavailable' })
    expect(saved).toEqual([])
    lock(false)
    expect(await seen.save('local', 'trc_1', SITE)).toMatchObject({ saved: true })
    expect(saved).toEqual([{ host: SITE, credentials: { username: 'ann', password: 'pw' } }])
    // Saved: no longer held, and the stored trace (here none) has nothing more.
    await expect(seen.save('local', 'trc_1', SITE)).rejects.toMatchObject({ code: 'not_found' })
  })

  it('asks nothing for a login saved during the recording, and says when saving replaces one', async () => {
    const { logins, saved } = fakeLogins()
    const seen = createSeenLogins({ logins, traces: { get: () => null } })
    const recorded = { ...trace([exchange(1, { requestHeaders: { cookie: 'sid=a' } })]) }
    recorded.createdAt = 5_000
    saved.push({ host: SITE, at: 4_000 })
    expect(await seen.note('local', recorded, SITE)).toMatchObject({ saved: false, replaces: true })
    // The person answered the site's HTTP authentication in the app while recording.
    saved[0]!.at = 6_000
    expect(await seen.note('local', recorded, SITE)).toMatchObject({ saved: true, replaces: false })
  })

  it('asks nothing when the HTTP login seen is the one saved before the recording', async () => {
    const { logins, saved } = fakeLogins()
    const seen = createSeenLogins({ logins, traces: { get: () => null } })
    const recorded = trace([exchange(1, { requestHeaders: { authorization: basic('ann:pw') } })])
    recorded.createdAt = 5_000
    saved.push({ host: SITE, at: 1_000, credentials: { username: 'ann', password: 'pw' } })
    expect(await seen.note('local', recorded, SITE)).toMatchObject({ saved: true })
    saved[0]!.credentials = { username: 'ann', password: 'old' }
    expect(await seen.note('local', recorded, SITE)).toMatchObject({
      saved: false,
      replaces: true,
    })
  })

  it('asks a Digest login’s password, and forgets a skipped login', async () => {
    const { logins, saved } = fakeLogins()
    const seen = createSeenLogins({ logins, traces: { get: () => null } })
    const digest = trace([
      exchange(1, { requestHeaders: { authorization: 'Digest username="ann", nonce="n"' } }),
    ])
    await seen.note('local', digest, SITE)
    await expect(seen.save('local', 'trc_1', SITE)).rejects.toMatchObject({ code: 'invalid_input' })
    await seen.save('local', 'trc_1', SITE, { password: 'typed' })
    expect(saved[0]!.credentials).toEqual({ username: 'ann', password: 'typed' })
    await seen.note('local', digest, SITE)
    seen.skip('trc_1')
    expect(await seen.offer('local', 'trc_1', SITE)).toBeNull()
  })
})
