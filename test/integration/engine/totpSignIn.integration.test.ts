import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generateSecret, verifySync } from 'otplib'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { createCore, LOCAL_TENANT, type Core } from '../../../src/main/core'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { SECRET_PLACEHOLDER } from '../../../src/shared/trace'
import { saveTestLogin, TEST_VAULT_ENV } from '../logins/loginHelpers'
import { traceBuilder } from '../../unit/compiler/traceBuilder'

/**
 * A site whose sign-in asks a TOTP second factor (RFC 6238), as Redmine's does: POST /login
 * checks the password and opens a pending session in the cookie, redirecting to the code page
 * (`/login/2fa`, a path the engine reads as "the site asks a second factor");
 * POST /login/2fa/verify checks the code of that session's user, once per time step.
 */
const SEED = generateSecret()
const PASSWORD = 'robin-secret-2'
let server: Server
let origin = ''
const pending = new Map<string, string>()
const codesSeen: string[] = []
const signedIn: string[] = []
let counter = 0

const tokenPage = (token: string) =>
  `<html><head><meta name="csrf-token" content="${token}"></head><body><form><input name="twofa_code"></form></body></html>`

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString()))
    req.on('end', () => {
      const sid = /sid=([\w-]+)/.exec(req.headers.cookie ?? '')?.[1] ?? ''
      const form = new URLSearchParams(body)
      const url = new URL(req.url ?? '/', 'http://x')
      if (req.method === 'GET' && (url.pathname === '/login' || url.pathname === '/login/2fa')) {
        const fresh = sid || `s${++counter}`
        res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': `sid=${fresh}; Path=/` })
        res.end(tokenPage(`tok-${fresh}-csrf`))
        return
      }
      if (req.method === 'POST' && url.pathname === '/login') {
        const ok =
          form.get('authenticity_token') === `tok-${sid}-csrf` &&
          form.get('username')?.toLowerCase() === 'rlee' &&
          form.get('password') === PASSWORD
        if (ok) pending.set(sid, 'rlee')
        res.writeHead(ok ? 302 : 200, ok ? { location: '/login/2fa' } : {}).end()
        return
      }
      if (req.method === 'POST' && url.pathname === '/login/2fa/verify') {
        const code = form.get('twofa_code') ?? ''
        codesSeen.push(code)
        const ok =
          pending.has(sid) &&
          form.get('authenticity_token') === `tok-${sid}-csrf` &&
          // One step of tolerance, as sites allow: the run may cross a step boundary.
          verifySync({ secret: SEED, token: code, epochTolerance: 30 }).valid
        if (ok) signedIn.push(pending.get(sid)!)
        res.writeHead(302, { location: ok ? '/' : '/login/2fa' }).end()
        return
      }
      res.writeHead(404).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

/** The person's recording on this site: a code that is long dead when the tool runs. */
function compiledTool(): ToolSpec {
  const trace = traceBuilder(origin)
    .exchange('GET', '/login', {
      mime: 'text/html',
      type: 'document',
      responseText: tokenPage('tok-s0-csrf'),
    })
    .fill('rlee', { name: 'username', label: 'Login' })
    .fill(null, { name: 'password', label: 'Password', secret: true })
    .submit()
    .exchange('POST', '/login', {
      form: `authenticity_token=tok-s0-csrf&username=rlee&password=${encodeURIComponent(SECRET_PLACEHOLDER)}`,
      status: 302,
      type: 'document',
      mime: 'text/html',
    })
    .exchange('GET', '/login/2fa', {
      mime: 'text/html',
      type: 'document',
      responseText: tokenPage('tok-s0-code'),
    })
    .fill('123456', { name: 'twofa_code', label: 'Code' })
    .submit()
    .exchange('POST', '/login/2fa/verify', {
      form: 'authenticity_token=tok-s0-code&twofa_code=123456',
      status: 302,
      type: 'document',
      mime: 'text/html',
    })
    .build('log in as rlee with the code from my authenticator app')
  trace.exchanges[1]!.responseHeaders.location = `${origin}/login/2fa`
  trace.exchanges[3]!.responseHeaders.location = `${origin}/`
  const result = compileTrace(trace, {
    toolId: '00000000-0000-4000-8000-0000000000ac',
    now: Date.UTC(2026, 10, 25),
  })
  if (!result.ok) throw new Error(result.explanation.reason)
  return result.candidate
}

let home = ''
let core: Core

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'sitecall-totp-'))
  core = createCore({
    home,
    port: 0,
    rendererDir: null,
    keychain: null,
    env: { ...process.env, ...TEST_VAULT_ENV },
  })
})

afterEach(async () => {
  await core.close()
  rmSync(home, { recursive: true, force: true })
})

async function run(tool: ToolSpec, totpSeed: string | null) {
  const state = { cookies: [], origins: [] }
  await saveTestLogin(core, LOCAL_TENANT, tool.siteHost, state)
  await core.logins.save(LOCAL_TENANT, tool.siteHost, state, {
    credentials: { username: 'rlee', password: PASSWORD },
    ...(totpSeed ? { totpSeed } : {}),
  })
  core.store.tools.save(tool)
  const user = Object.entries(tool.inputs.properties).find(([, p]) => p.default === 'rlee')![0]
  return core.engine.start(tool, { [user]: 'RLEE' }, { tenant: LOCAL_TENANT, mayAsk: false }).done
}

describe('a sign-in tool with a TOTP second factor', () => {
  it('signs in with the saved password and a code made from the saved seed at run time', async () => {
    const before = signedIn.length
    const done = await run(compiledTool(), SEED)
    expect(done.status).toBe('succeeded')
    expect(signedIn.slice(before)).toEqual(['rlee'])
    const code = codesSeen[codesSeen.length - 1]!
    expect(code).toMatch(/^\d{6}$/)
    expect(code).not.toBe('123456')
  })

  it('sends no code at all when the login has no TOTP seed saved', async () => {
    const seen = codesSeen.length
    const done = await run(compiledTool(), null)
    expect(done.status).not.toBe('succeeded')
    expect(done.error?.code).toBe('mfa_required')
    expect(codesSeen.length).toBe(seen)
  })
})
