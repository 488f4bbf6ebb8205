import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { databasePath } from '../../../src/main/config'
import { createCore, LOCAL_TENANT, type Core } from '../../../src/main/core'
import { exportHar, importHar, type Har } from '../../../src/main/recorder/har'
import type { RecordingResult } from '../../../src/shared/appApi'
import type { Run } from '../../../src/shared/run'
import { startContactsSite, type ContactsSite } from '../../fixtures/sites/contacts'
import { startOwnChromium } from '../../fixtures/harness/ownChromium'
import { startNotesSite } from '../../fixtures/sites/notes'
import { startTasksSite, type TasksSite } from '../../fixtures/sites/tasks'
import { signInLinkHost, TEST_PASSPHRASE } from './loginHelpers'

/** Every byte SQLite keeps for the database: the file and its WAL. */
const sqliteBytes = (home: string) =>
  Buffer.concat(
    [databasePath(home), `${databasePath(home)}-wal`]
      .filter((f) => existsSync(f))
      .map((f) => readFileSync(f)),
  )

const basic = (user: string, password: string) =>
  Buffer.from(`${user}:${password}`, 'utf8').toString('base64')

describe('logins seen are logins kept (issue 24 item E)', () => {
  const cleanups: Array<() => Promise<void> | void> = []
  afterEach(async () => {
    for (const clean of cleanups.splice(0).reverse()) await clean()
  })

  /** A headless core in a fresh home; its vault opened with the test passphrase unless `locked`. */
  const newCore = async (locked = false) => {
    const home = mkdtempSync(join(tmpdir(), 'sitecall-seen-logins-'))
    const core = createCore({ home, port: 0, headless: true, rendererDir: null, keychain: null })
    if (!locked) expect((await core.vault.unlock(TEST_PASSPHRASE)).mode).toBe('passphrase')
    const base = await core.listen()
    let closed = false
    const close = async () => {
      if (closed) return
      closed = true
      await core.close()
    }
    cleanups.push(() => rmSync(home, { recursive: true, force: true }), close)
    return { core, home, base, close }
  }
  const tasksSite = async () => {
    const site = await startTasksSite()
    cleanups.push(() => site.close())
    return site
  }
  const contactsSite = async () => {
    const site = await startContactsSite()
    cleanups.push(() => site.close())
    return site
  }

  /** The person signs in on the tasks page (a JSON-RPC login form) and searches; then Stop. */
  async function recordTasks(core: Core, site: TasksSite): Promise<RecordingResult> {
    const state = await core.handlers['recorder.start']({
      url: `${site.url}/`,
      intent: 'search my tasks for basil',
    })
    const page = core.recordings.recording(state.sessionId)!.page
    await page.locator('#who').fill(site.username)
    await page.locator('#secret-word').pressSequentially(site.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.locator('#q').waitFor()
    await page.locator('#q').fill('basil')
    const searched = page.waitForResponse((r) => r.url().endsWith('/rpc') && r.ok())
    await page.getByRole('button', { name: 'Search' }).click()
    await searched
    await page.locator('#results li').first().waitFor()
    return core.handlers['recorder.stop']({ sessionId: state.sessionId })
  }

  /** The person signs in on the contacts page (its script sends HTTP Basic) and finds Ada. */
  async function recordContacts(core: Core, site: ContactsSite): Promise<RecordingResult> {
    const state = await core.handlers['recorder.start']({
      url: `${site.url}/`,
      intent: 'find a contact by name',
    })
    const page = core.recordings.recording(state.sessionId)!.page
    await page.locator('#user').fill(site.username)
    await page.locator('#password').fill(site.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.locator('#q').waitFor()
    await page.locator('#q').fill('ada')
    const found = page.waitForResponse((r) => r.url().includes('/api/contacts?q=ada'))
    await page.getByRole('button', { name: 'Find' }).click()
    await found
    return core.handlers['recorder.stop']({ sessionId: state.sessionId })
  }

  /** Runs a tool with `value` for its one input, whatever the compiler named it. */
  const run = (core: Core, id: string, value: string): Promise<Run> => {
    const names = Object.keys(core.store.tools.get(id)!.inputs.properties)
    expect(names).toHaveLength(1)
    return core.handlers['tools.run']({ id, inputs: { [names[0]!]: value } })
  }

  it('offers the cookie login of a sign-in form at Stop, keeps the typed password out of the trace, and runs with it once saved', async () => {
    const { core, home, base } = await newCore()
    const site = await tasksSite()
    const result = await recordTasks(core, site)
    const tool = result.candidate!
    expect(tool, JSON.stringify(result.explanation)).toBeTruthy()
    expect(tool.siteHost).toBe(site.host)

    // The password went as a positional JSON-RPC parameter: it is nowhere in the stored trace.
    const login = site.calls.find((c) => c.method === 'auth.login')!
    expect(login.body).toContain(site.password)
    const stored = core.store.traces.get(result.traceId)!
    const sent = stored.exchanges.find((e) => e.requestBody?.text.includes('auth.login'))!
    expect(JSON.parse(sent.requestBody!.text).params).toEqual([site.username, '[sitecall:secret]'])
    expect(JSON.stringify(stored)).not.toContain(site.password)

    // Stop offers the login; nothing is saved until the person says so.
    expect(result.login).toMatchObject({
      host: site.host,
      cookieCount: 1,
      username: site.username,
      httpAuth: null,
      saved: false,
    })
    expect(core.logins.list(LOCAL_TENANT)).toEqual([])
    const without = await run(core, tool.id, 'train')
    expect(without.status).toBe('failed')
    expect(without.error?.code).toBe('session_or_permission')
    expect(signInLinkHost(core, base, without.signIn?.url)).toBe(site.host)

    const offer = await core.handlers['logins.offer']({ traceId: result.traceId, host: site.host })
    expect(offer).toMatchObject({ cookieCount: 1, saved: false })
    const saved = await core.handlers['logins.saveFromTrace']({
      traceId: result.traceId,
      host: site.host,
    })
    expect(saved.saved).toBe(true)
    const record = core.store.logins.get(LOCAL_TENANT, site.host)!
    const sid = (await core.logins.load(LOCAL_TENANT, site.host)).state!.cookies[0]!.value
    expect(record.sealedState!.includes(sid)).toBe(false)

    const ran = await run(core, tool.id, 'train')
    expect(ran.status, JSON.stringify(ran.error)).toBe('succeeded')
    expect(JSON.stringify(ran.result)).toContain('Book the train to Lyon')
    expect(site.calls.at(-1)).toMatchObject({ method: 'tasks.search', signedIn: true })

    await core.close()
    const bytes = sqliteBytes(home)
    expect(bytes.includes(site.password)).toBe(false)
    expect(bytes.includes(sid)).toBe(false)
  })

  it('offers the Basic login a page sent at Stop, and the tool sends it up front once saved', async () => {
    const { core, home, base } = await newCore()
    const site = await contactsSite()
    const result = await recordContacts(core, site)
    const tool = result.candidate!
    expect(tool, JSON.stringify(result.explanation)).toBeTruthy()
    expect(tool.login?.httpAuth).toEqual({ scheme: 'basic' })
    expect(result.login).toMatchObject({
      host: site.host,
      httpAuth: 'basic',
      username: site.username,
      needsPassword: false,
      saved: false,
    })

    // Without the login the site answers 401 (no challenge): the missing login, with a link.
    const without = await run(core, tool.id, 'alan')
    expect(without.error?.code).toBe('session_or_permission')
    expect(signInLinkHost(core, base, without.signIn?.url)).toBe(site.host)

    await core.handlers['logins.saveFromTrace']({ traceId: result.traceId, host: site.host })
    expect(core.logins.get(LOCAL_TENANT, site.host)).toMatchObject({ hasPassword: true })
    const asked = site.requests.length
    const ran = await run(core, tool.id, 'alan')
    expect(ran.status, JSON.stringify(ran.error)).toBe('succeeded')
    expect(JSON.stringify(ran.result)).toContain('Alan Turing')
    // One request, accepted: Basic went with it, no challenge needed.
    expect(site.requests.slice(asked)).toEqual([
      expect.objectContaining({ accepted: true, authorization: true }),
    ])

    await core.close()
    const bytes = sqliteBytes(home)
    expect(bytes.includes(site.password)).toBe(false)
    expect(bytes.includes(basic(site.username, site.password))).toBe(false)
  })

  it('asks nothing more for a Basic login the person answered in the app while recording', async () => {
    const { core } = await newCore()
    const site = await startNotesSite()
    cleanups.push(() => site.close())
    const state = await core.handlers['recorder.start']({
      url: `${site.url}/`,
      intent: 'search my notes',
    })
    expect(state.authChallenge).toMatchObject({ host: site.host, scheme: 'basic' })
    await core.handlers['recorder.answerAuth']({
      sessionId: state.sessionId,
      username: site.username,
      password: site.password,
    })
    const page = core.recordings.recording(state.sessionId)!.page
    await page.locator('#q').fill('basil')
    const searched = page.waitForResponse((r) => r.url().includes('/api/notes?q=basil'))
    await page.getByRole('button', { name: 'Search' }).click()
    await searched
    const result = await core.handlers['recorder.stop']({ sessionId: state.sessionId })
    expect(result.login).toMatchObject({
      host: site.host,
      httpAuth: 'basic',
      username: site.username,
      saved: true,
      replaces: false,
    })
  })

  it('offers the Basic login an attached Chromium already answered with, and the tool runs with it', async () => {
    const { core } = await newCore()
    const site = await startNotesSite()
    cleanups.push(() => site.close())
    const own = await startOwnChromium()
    cleanups.push(() => own.close())
    // The person signed in to the site in their own browser before: it answers by itself now.
    const browser = await chromium.connectOverCDP(own.endpoint)
    cleanups.push(() => browser.close().catch(() => undefined))
    const earlier = new URL(`${site.url}/`)
    earlier.username = site.username
    earlier.password = encodeURIComponent(site.password)
    await (await browser.contexts()[0]!.newPage()).goto(earlier.href)

    const state = await core.handlers['recorder.start']({
      url: `${site.url}/`,
      intent: 'search my notes',
      cdpEndpoint: own.endpoint,
    })
    expect(state.authChallenge ?? null).toBeNull()
    const page = core.recordings.recording(state.sessionId)!.page
    await page.locator('#q').fill('basil')
    const searched = page.waitForResponse((r) => r.url().includes('/api/notes?q=basil'))
    await page.getByRole('button', { name: 'Search' }).click()
    await searched
    const result = await core.handlers['recorder.stop']({ sessionId: state.sessionId })
    expect(result.login).toMatchObject({
      host: site.host,
      httpAuth: 'basic',
      username: site.username,
      saved: false,
    })
    await core.handlers['logins.saveFromTrace']({ traceId: result.traceId, host: site.host })
    const ran = await run(core, result.candidate!.id, 'lyon')
    expect(ran.status, JSON.stringify(ran.error)).toBe('succeeded')
    expect(site.requests.at(-1)).toMatchObject({ path: '/api/notes?q=lyon', accepted: true })
  })

  it('holds the login of a recording made while the vault was locked, and saves it once unlocked', async () => {
    const { core, home } = await newCore(true)
    const site = await tasksSite()
    const result = await recordTasks(core, site)
    expect(result.login).toMatchObject({ host: site.host, cookieCount: 1 })
    const save = () =>
      core.handlers['logins.saveFromTrace']({ traceId: result.traceId, host: site.host })
    await expect(save()).rejects.toMatchObject({ code: 'unavailable' })
    expect(core.store.logins.get(LOCAL_TENANT, site.host)).toBeNull()
    await core.vault.unlock(TEST_PASSPHRASE)
    expect(await save()).toMatchObject({ saved: true })
    const ran = await run(core, result.candidate!.id, 'basil')
    expect(ran.status, JSON.stringify(ran.error)).toBe('succeeded')
    await core.close()
    expect(sqliteBytes(home).includes(site.password)).toBe(false)
  })

  it('offers the Basic login a HAR shows at import, and a tool from a HAR without cookies fails session_or_permission, not drift', async () => {
    // A HAR of the contacts workflow as DevTools exports it, credentials included.
    const recorder = await newCore()
    const contacts = await contactsSite()
    const recorded = await recordContacts(recorder.core, contacts)
    const har = exportHar(recorder.core.store.traces.get(recorded.traceId)!, { version: 'test' })
    expect(JSON.stringify(har)).toContain(basic(contacts.username, contacts.password))

    const { core, base } = await newCore()
    const imported = await core.handlers['recorder.importHar']({
      har: JSON.stringify(har),
      intent: 'find a contact by name',
    })
    expect(imported.login).toMatchObject({
      host: contacts.host,
      httpAuth: 'basic',
      username: contacts.username,
      saved: false,
    })
    await core.handlers['logins.saveFromTrace']({ traceId: imported.traceId, host: contacts.host })
    const ran = await run(core, imported.candidate!.id, 'grace')
    expect(ran.status, JSON.stringify(ran.error)).toBe('succeeded')

    // The tasks workflow as a "sanitized" HAR (Chrome's default export: no cookies): the tool
    // binds no login, and without one the site refuses in-band. That is a missing login.
    const tasks = await tasksSite()
    const tasksRecorded = await recordTasks(recorder.core, tasks)
    const sanitized = exportHar(recorder.core.store.traces.get(tasksRecorded.traceId)!, {
      version: 'test',
    }) as Har
    for (const entry of sanitized.log.entries) {
      entry.request.headers = entry.request.headers.filter((h) => !/^cookie$/i.test(h.name))
      entry.request.cookies = []
      entry.response.headers = entry.response.headers.filter((h) => !/^set-cookie$/i.test(h.name))
      entry.response.cookies = []
    }
    expect(
      importHar(JSON.stringify(sanitized), { traceId: 'trc_x', intent: 'x', now: 0 }),
    ).toBeTruthy()
    const blind = await core.handlers['recorder.importHar']({
      har: JSON.stringify(sanitized),
      intent: 'search my tasks for basil',
    })
    expect(blind.login ?? null).toBeNull()
    const refused = await run(core, blind.candidate!.id, 'basil')
    expect(refused.status).toBe('failed')
    expect(refused.error?.code).toBe('session_or_permission')
    expect(refused.error?.message).toContain('Not authenticated')
    expect(signInLinkHost(core, base, refused.signIn?.url)).toBe(tasks.host)
  })
})
