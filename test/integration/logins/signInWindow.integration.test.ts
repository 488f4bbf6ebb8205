import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  signInSiteCheck,
  startGuardProxy,
  type GuardProxy,
} from '../../../src/main/engine/guardProxy'
import { createSignInFlows, type SignInFlows } from '../../../src/main/logins/signInFlows'

// The person's own sign-in window (/signin links, the app's "Sign in") behind the guard proxy
// (issue 13 item 3): its site may be local, a redirect into another local app may not.

let site: Server
let other: Server
let sitePort: number
let otherPort: number
let otherHits = 0
let otherConnections = 0
let proxy: GuardProxy
let localSites: string[] = []
let flows: SignInFlows
let n = 0
const saved: unknown[][] = []

/** Starts a server on 127.0.0.1, port 0; it does not keep the process alive. */
async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  server.unref()
  return (server.address() as AddressInfo).port
}

beforeAll(async () => {
  other = createServer((_req, res) => {
    otherHits++
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>another local app</p>')
  })
  // Every connection counts, a TLS handshake that never makes a request too.
  other.on('connection', () => otherConnections++)
  otherPort = await listen(other)
  // The site being signed in to: a login form, and redirects out of it.
  site = createServer((req, res) => {
    if (req.url === '/to-other')
      res.writeHead(302, { location: `http://127.0.0.1:${otherPort}/admin` }).end()
    else if (req.url === '/to-other-tls')
      res.writeHead(302, { location: `https://127.0.0.1:${otherPort}/admin` }).end()
    else if (req.url === '/basic') {
      const expected = `Basic ${Buffer.from('alice:wonderland').toString('base64')}`
      if (req.headers.authorization === expected)
        res.writeHead(200, { 'content-type': 'text/html' }).end('<p>notes</p>')
      else res.writeHead(401, { 'www-authenticate': 'Basic realm="notes"' }).end()
    } else if (req.url === '/to-metadata')
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end()
    else
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<form method="post"><input name="username"><input type="password" name="password">')
  })
  sitePort = await listen(site)
  proxy = await startGuardProxy(async () => [])
  flows = createSignInFlows({
    logins: { get: () => null, save: async (...args: unknown[]) => void saved.push(args) } as never,
    chromiumPath: () => '/usr/bin/chromium',
    clock: () => Date.now(),
    ulid: () => `T${++n}`,
    headless: true,
    guardFor: async (_tenant, hosts, onDenied) =>
      proxy.settingsFor(signInSiteCheck(hosts, localSites), onDenied),
  })
})

afterEach(async () => {
  await flows.closeAll()
  localSites = []
  otherHits = 0
  otherConnections = 0
})

afterAll(async () => {
  await proxy.close()
  site.close()
  other.close()
})

describe('the sign-in window behind the guard proxy (issue 13 item 3)', () => {
  it('opens its own local site', async () => {
    const state = await flows.start('local', { host: `127.0.0.1:${sitePort}` })
    expect(state.status).toBe('open')
    expect(await flows.page(state.signInId)!.locator('input[type=password]').count()).toBe(1)
  })

  it('answers an HTTP Basic challenge of its site through the proxy', async () => {
    const started = await flows.start('local', { url: `http://127.0.0.1:${sitePort}/basic` })
    expect(started.authChallenge).toMatchObject({ scheme: 'basic', realm: 'notes' })
    const state = await flows.answerAuth('local', started.signInId, {
      username: 'alice',
      password: 'wonderland',
    })
    expect(state.status).toBe('saved')
    expect(saved.at(-1)?.[1]).toBe(`127.0.0.1:${sitePort}`)
  })

  it('refuses a redirect into another local port before connecting, and says so', async () => {
    const started = await flows.start('local', {
      url: `http://127.0.0.1:${sitePort}/to-other`,
    })
    const state = await flows.settled(started.signInId)
    expect(state.status).toBe('failed')
    expect(state.message).toContain(`127.0.0.1:${otherPort}`)
    expect(state.message).toContain('Local sites')
    expect(otherConnections).toBe(0)
  })

  it('refuses an HTTPS redirect into another local port (a tunnel) before connecting', async () => {
    const started = await flows.start('local', {
      url: `http://127.0.0.1:${sitePort}/to-other-tls`,
    })
    const state = await flows.settled(started.signInId)
    expect(state.status).toBe('failed')
    expect(state.message).toContain(`127.0.0.1:${otherPort}`)
    expect(otherConnections).toBe(0)
  })

  it('refuses a redirect to a cloud metadata address', async () => {
    const started = await flows.start('local', {
      url: `http://127.0.0.1:${sitePort}/to-metadata`,
    })
    const state = await flows.settled(started.signInId)
    expect(state.status).toBe('failed')
    expect(state.message).toContain('cloud metadata address')
  })

  it('follows a redirect to a local site the owner allowed', async () => {
    localSites = [`127.0.0.1:${otherPort}`]
    const state = await flows.start('local', { url: `http://127.0.0.1:${sitePort}/to-other` })
    expect(state.status).toBe('open')
    expect(otherHits).toBe(1)
    expect(await flows.page(state.signInId)!.textContent('p')).toBe('another local app')
  })
})

describe('the sign-in browser without a display (issue 26 item 2.1)', () => {
  it('is shown in the app: the state says so and the browser can be cast while signing in', async () => {
    const state = await flows.start('local', { host: `127.0.0.1:${sitePort}` })
    expect(state.view).toBe('screencast')
    expect(state.message).toContain('shown in the app')
    expect(state.message).not.toContain('window')
    const cast = flows.castTarget(state.signInId)
    expect(cast?.page.url()).toBe(`http://127.0.0.1:${sitePort}/`)
    await flows.cancel('local', state.signInId)
    expect(flows.castTarget(state.signInId)).toBeNull()
    expect(flows.castTarget('signin_unknown')).toBeNull()
  })

  it('ends at once with a plain sentence when nothing answers at the address', async () => {
    const closed = createServer()
    const port = await listen(closed)
    await new Promise((done) => closed.close(done))
    const state = await flows.settled(
      (await flows.start('local', { url: `http://127.0.0.1:${port}/login` })).signInId,
    )
    expect(state.status).toBe('failed')
    expect(state.message).toBe(
      `http://127.0.0.1:${port} cannot be reached: nothing answers there. Check the address and port, or that the site is running.`,
    )
    expect(flows.castTarget(state.signInId)).toBeNull()
  })
})

describe('signInSiteCheck', () => {
  it('names default ports either way, passes public addresses, never metadata', () => {
    const check = signInSiteCheck(['127.0.0.1:80', 'intranet.test'], ['169.254.169.254'])
    expect(check('http://127.0.0.1/', '127.0.0.1')).toBeNull()
    expect(check('http://127.0.0.1:81/', '127.0.0.1')).toContain('127.0.0.1:81')
    expect(check('https://intranet.test:443/', '10.0.0.5')).toBeNull()
    expect(check('https://intranet.test:8443/', '10.0.0.5')).toContain('intranet.test:8443')
    expect(check('https://example.com/', '93.184.215.14')).toBeNull()
    expect(check('http://169.254.169.254/', '169.254.169.254')).toContain('metadata')
  })
})
