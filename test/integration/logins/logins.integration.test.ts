import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { generateSecret } from 'otplib'
import { isServiceError } from '../../../src/shared/errors'
import type { StorageState } from '../../../src/shared/trace'
import { createCore, LOCAL_TENANT } from '../../../src/main/core'
import { databasePath } from '../../../src/main/config'
import { createStore } from '../../../src/main/store/store'
import { loginSecretName } from '../../../src/main/logins/siteLogins'
import { startOrdersSite } from '../../fixtures/sites/orders'
import { cookieOrdersTool, TEST_PASSPHRASE } from './loginHelpers'

const COOKIE_VALUE = 'cookie-value-at-rest-7f3a9c'
const PASSWORD = 'password-at-rest-51d2e8'

const stateWith = (host: string, value = COOKIE_VALUE): StorageState => ({
  cookies: [
    {
      name: 'parcel_session',
      value,
      domain: host.replace(/:\d+$/, ''),
      path: '/',
      expires: -1,
    },
  ],
  origins: [],
})

/** Every byte SQLite keeps for the database: the file and its WAL. */
const sqliteBytes = (home: string) =>
  Buffer.concat(
    [databasePath(home), `${databasePath(home)}-wal`]
      .filter((f) => existsSync(f))
      .map((f) => readFileSync(f)),
  )

describe('site logins', () => {
  const cleanups: Array<() => Promise<void> | void> = []
  afterEach(async () => {
    for (const clean of cleanups.splice(0).reverse()) await clean()
  })

  const newHome = () => {
    const home = mkdtempSync(join(tmpdir(), 'sitecall-logins-'))
    cleanups.push(() => rmSync(home, { recursive: true, force: true }))
    return home
  }
  const coreAt = async (home: string, passphrase: string | null, listen = false) => {
    const core = createCore({
      home,
      port: 0,
      headless: true,
      rendererDir: null,
      keychain: null,
      env: { ...process.env, SITECALL_PASSPHRASE: passphrase ?? undefined },
    })
    let closed = false
    const close = async () => {
      if (closed) return
      closed = true
      await core.close()
    }
    cleanups.push(close)
    const base = listen ? await core.listen() : ''
    return { core, base, close }
  }
  const ordersSite = async (totp: boolean) => {
    const site = await startOrdersSite({
      users: [
        {
          username: 'alice',
          password: PASSWORD,
          ...(totp ? { totpSecret: generateSecret() } : {}),
        },
      ],
    })
    cleanups.push(() => site.close())
    return site
  }

  it('keeps the storage state and the password only as ciphertext in the SQLite file', async () => {
    const home = newHome()
    const { core, close } = await coreAt(home, TEST_PASSPHRASE)
    await core.logins.save(LOCAL_TENANT, 'shop.test:8443', stateWith('shop.test:8443'), {
      credentials: { username: 'alice@shop.test', password: PASSWORD },
    })
    expect(core.vault.list(LOCAL_TENANT)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: loginSecretName('shop.test:8443', 'password'),
          hosts: ['shop.test:8443'],
        }),
      ]),
    )
    await close()
    const bytes = sqliteBytes(home)
    expect(bytes.includes(COOKIE_VALUE)).toBe(false)
    expect(bytes.includes(PASSWORD)).toBe(false)
    expect(bytes.includes('alice@shop.test')).toBe(false)

    const again = await coreAt(home, TEST_PASSPHRASE)
    const loaded = await again.core.logins.load(LOCAL_TENANT, 'shop.test:8443')
    expect(loaded.state?.cookies[0]?.value).toBe(COOKIE_VALUE)
    expect(await again.core.logins.credentials(LOCAL_TENANT, 'shop.test:8443')).toEqual({
      username: 'alice@shop.test',
      password: PASSWORD,
      totpSeed: null,
    })
  })

  it('seals a login saved in the clear before migration 008 and leaves no plaintext behind', async () => {
    const home = newHome()
    const store = createStore(databasePath(home))
    store.db
      .prepare(
        'INSERT INTO logins (tenant, site_host, storage_state, saved_at) VALUES (?, ?, ?, ?)',
      )
      .run(LOCAL_TENANT, 'old.test', JSON.stringify(stateWith('old.test')), 1)
    store.close()
    expect(sqliteBytes(home).includes(COOKIE_VALUE)).toBe(true)

    const { core, close } = await coreAt(home, TEST_PASSPHRASE)
    await core.logins.sealPlaintext()
    expect(core.store.logins.plaintext()).toEqual([])
    expect((await core.logins.load(LOCAL_TENANT, 'old.test')).state?.cookies[0]?.value).toBe(
      COOKIE_VALUE,
    )
    await close()
    expect(sqliteBytes(home).includes(COOKIE_VALUE)).toBe(false)
    const db = new Database(databasePath(home), { readonly: true })
    expect(db.prepare('SELECT storage_state FROM logins').get()).toEqual({ storage_state: null })
    db.close()
  })

  it('fails a run that needs a login sealed in a locked vault with session_or_permission saying to unlock', async () => {
    const home = newHome()
    const site = await ordersSite(false)
    const tool = cookieOrdersTool(site)
    const first = await coreAt(home, TEST_PASSPHRASE)
    first.core.store.tools.save(tool)
    await first.core.logins.save(LOCAL_TENANT, site.host, stateWith(site.host))
    await first.close()

    const { core } = await coreAt(home, null)
    const run = await core.engine.start(tool, {}, { tenant: LOCAL_TENANT }).done
    expect(run.status).toBe('failed')
    expect(run.error?.code).toBe('session_or_permission')
    expect(run.error?.message).toMatch(/unlock/i)
    expect(site.state.requests.filter((r) => r.path === '/api/orders')).toHaveLength(0)
  })

  it('fails mfa_required with signIn when the site asks a one-time code and no seed is saved', async () => {
    const site = await ordersSite(true)
    const tool = cookieOrdersTool(site)
    const { core, base } = await coreAt(newHome(), TEST_PASSPHRASE, true)
    core.store.tools.save(tool)
    // A login whose session the site no longer knows, with the password but no TOTP seed.
    await core.logins.save(LOCAL_TENANT, site.host, stateWith(site.host, 'long-gone-session'), {
      credentials: { username: 'alice', password: PASSWORD },
      loginUrl: `${site.url}/login`,
    })
    const run = await core.engine.start(tool, {}, { tenant: LOCAL_TENANT }).done
    expect(run.status).toBe('failed')
    expect(run.error?.code).toBe('mfa_required')
    expect(run.signIn?.url.startsWith(`${base}/signin/`)).toBe(true)
    // The password was accepted: the app reached the code page, and stopped there.
    expect(site.state.requests.some((r) => r.method === 'GET' && r.path === '/login/otp')).toBe(
      true,
    )
  })

  it('autofills a browse session: 422 no_login_form, 412 credential_required with a url, then signs in', async () => {
    const site = await ordersSite(false)
    const { core, base } = await coreAt(newHome(), TEST_PASSPHRASE, true)
    const codeOf = async (call: Promise<unknown>) =>
      call.then(
        () => null,
        (error: unknown) => (isServiceError(error) ? error.toBody() : { code: String(error) }),
      )

    const noForm = await core.browse.open(LOCAL_TENANT, { url: `${site.url}/api/orders` })
    expect(await codeOf(core.browse.autofill(LOCAL_TENANT, noForm.sessionId))).toMatchObject({
      code: 'no_login_form',
    })
    await core.browse.close(LOCAL_TENANT, noForm.sessionId)

    const session = await core.browse.open(LOCAL_TENANT, { url: `${site.url}/orders` })
    const missing = await codeOf(core.browse.autofill(LOCAL_TENANT, session.sessionId))
    expect(missing).toMatchObject({ code: 'credential_required' })
    expect(String((missing as { url?: string }).url).startsWith(`${base}/signin/`)).toBe(true)

    await core.logins.save(LOCAL_TENANT, site.host, stateWith(site.host, 'stale'), {
      credentials: { username: 'alice', password: PASSWORD },
    })
    const after = await core.browse.autofill(LOCAL_TENANT, session.sessionId)
    expect(after.url).toBe(`${site.url}/orders`)
    expect(after.text).toContain('alice')
    await core.browse.close(LOCAL_TENANT, session.sessionId)
  })
})
