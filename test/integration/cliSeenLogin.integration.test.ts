import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { databasePath } from '../../src/main/config'
import { createCore, LOCAL_TENANT } from '../../src/main/core'
import { createStore } from '../../src/main/store/store'
import type { LoginOffer } from '../../src/shared/appApi'
import { contactsHar, startContactsSite, type ContactsSite } from '../fixtures/sites/contacts'
import { startTasksSite, type TasksSite } from '../fixtures/sites/tasks'
import { startOwnChromium, type OwnChromium } from '../fixtures/harness/ownChromium'
import { TEST_VAULT_ENV } from './logins/loginHelpers'

const bin = join(import.meta.dirname, '../../bin/sitecall.mjs')
const INTENT = 'find the contact ada'
let dir: string
let contacts: ContactsSite
let harPath: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sitecall-cli-login-'))
  contacts = await startContactsSite()
  harPath = join(dir, 'contacts.har')
  writeFileSync(harPath, JSON.stringify(await contactsHar(contacts, 'ada')))
})
afterAll(async () => {
  await contacts.close()
  rmSync(dir, { recursive: true, force: true })
})

const newHome = () => mkdtempSync(join(dir, 'home-'))

/** Runs the CLI on `home` with the test vault's passphrase (or none: `locked`). */
function sitecall(args: string[], home: string, locked = false) {
  return spawnSync(process.execPath, [bin, ...args], {
    env: {
      ...process.env,
      SITECALL_HOME: home,
      ...(locked ? { SITECALL_KEYCHAIN: 'off', SITECALL_PASSPHRASE: '' } : TEST_VAULT_ENV),
    },
    encoding: 'utf8',
  })
}

/** The site logins a data dir holds (their hosts), read from its SQLite file. */
function savedHosts(home: string): string[] {
  const store = createStore(databasePath(home))
  try {
    return store.logins.list(LOCAL_TENANT).map((l) => l.siteHost)
  } finally {
    store.close()
  }
}

/** Runs the tool `id` of `home` with `value` for its one input, as the app's Verify does. */
async function runTool(home: string, id: string, value: string) {
  const core = createCore({
    home,
    rendererDir: null,
    keychain: null,
    env: { ...process.env, ...TEST_VAULT_ENV },
  })
  try {
    const tool = core.store.tools.get(id)!
    const [name] = Object.keys(tool.inputs.properties)
    return await core.handlers['tools.run']({ id, inputs: { [name!]: value } })
  } finally {
    await core.close()
  }
}

interface ImportJson {
  traceId: string
  candidate?: { id: string }
  login?: LoginOffer
}

describe('sitecall import-har and the login it shows', () => {
  it('says in one line that a login was seen and how to keep it, and keeps nothing without --save-login', () => {
    const home = newHome()
    const out = sitecall(['import-har', harPath, '--intent', INTENT, '--json'], home)
    expect(out.status, out.stderr).toBe(0)
    const answer = JSON.parse(out.stdout) as ImportJson
    expect(answer.login).toMatchObject({
      host: contacts.host,
      httpAuth: 'basic',
      username: contacts.username,
      saved: false,
    })
    const lines = out.stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(`A login to ${contacts.host} was used (user ${contacts.username}`)
    expect(lines[0]).toContain('add --save-login to import-har')
    expect(out.stdout + out.stderr).not.toContain(contacts.password)
    expect(savedHosts(home)).toEqual([])
    // compile stays free of side effects: it takes no --save-login.
    const compiled = sitecall(
      ['compile', '--har', harPath, '--intent', INTENT, '--save-login'],
      home,
    )
    expect(compiled.status).toBe(2)
  })

  it('saves it sealed with --save-login, and the imported tool then runs', async () => {
    const home = newHome()
    const out = sitecall(
      ['import-har', harPath, '--intent', INTENT, '--save-login', '--json'],
      home,
    )
    expect(out.status, out.stderr).toBe(0)
    const answer = JSON.parse(out.stdout) as ImportJson
    expect(answer.login).toMatchObject({ host: contacts.host, saved: true })
    expect(out.stderr).toContain(`Saved the login to ${contacts.host}`)
    expect(savedHosts(home)).toEqual([contacts.host])
    const bytes = readFileSync(databasePath(home))
    expect(bytes.includes(contacts.password)).toBe(false)

    const ran = await runTool(home, answer.candidate!.id, 'alan')
    expect(ran.status, JSON.stringify(ran.error)).toBe('succeeded')
    expect(JSON.stringify(ran.result)).toContain('Alan Turing')
  })

  it('keeps nothing when the vault is locked, and says so', () => {
    const home = newHome()
    const out = sitecall(['import-har', harPath, '--intent', INTENT, '--save-login'], home, true)
    expect(out.status, out.stderr).toBe(0)
    expect(out.stderr).toContain('was not saved: the vault is locked')
    expect(savedHosts(home)).toEqual([])
    expect(readFileSync(databasePath(home)).includes(contacts.password)).toBe(false)
  })
})

describe('sitecall record --cdp --save-login in a Chromium that is already signed in', () => {
  let tasks: TasksSite
  let own: OwnChromium | null = null
  let browser: Browser | null = null
  beforeAll(async () => {
    tasks = await startTasksSite()
    own = await startOwnChromium()
    browser = await chromium.connectOverCDP(own.endpoint)
  })
  afterAll(async () => {
    await browser?.close().catch(() => undefined)
    own?.close()
    await tasks.close()
  })

  it('offers and saves the session the person brought, and the recorded tool runs with it', async () => {
    // The person signed in earlier, in their own browser.
    const context = browser!.contexts()[0]!
    const before = await context.newPage()
    await before.goto(`${tasks.url}/`)
    await before.locator('#who').fill(tasks.username)
    await before.locator('#secret-word').fill(tasks.password)
    await before.getByRole('button', { name: 'Sign in' }).click()
    await before.locator('#q').waitFor()

    const home = newHome()
    const child = spawn(
      process.execPath,
      [
        bin,
        'record',
        '--url',
        `${tasks.url}/`,
        '--intent',
        'search my tasks for train',
        '--cdp',
        own!.endpoint,
        '--save-login',
        '--json',
      ],
      {
        env: { ...process.env, SITECALL_HOME: home, ...TEST_VAULT_ENV },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let stdout = ''
    let stderr = ''
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()))
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()))
    const exited = new Promise<number | null>((done) => child.once('exit', done))

    // The recording opens a tab of its own: the person searches there, already signed in.
    await expect
      .poll(
        () => context.pages().filter((p) => p !== before && p.url().startsWith(tasks.url)).length,
        {
          timeout: 30_000,
        },
      )
      .toBe(1)
    const tab = context.pages().find((p) => p !== before && p.url().startsWith(tasks.url))!
    await tab.locator('#q').fill('train')
    const searched = tab.waitForResponse((r) => r.url().endsWith('/rpc') && r.ok())
    await tab.getByRole('button', { name: 'Search' }).click()
    await searched
    await tab.locator('#results li').first().waitFor()
    child.kill('SIGINT')
    expect(await exited, stderr).toBe(0)

    const answer = JSON.parse(stdout) as ImportJson
    expect(answer.login).toMatchObject({ host: tasks.host, cookieCount: 1, saved: true })
    expect(stderr).toContain(`Saved the login to ${tasks.host}`)
    expect(savedHosts(home)).toEqual([tasks.host])
    // The person's browser is theirs: still running, still signed in.
    expect(browser!.isConnected()).toBe(true)

    const ran = await runTool(home, answer.candidate!.id, 'basil')
    expect(ran.status, JSON.stringify(ran.error)).toBe('succeeded')
    expect(JSON.stringify(ran.result)).toContain('Water the basil')
  }, 90_000)
})
