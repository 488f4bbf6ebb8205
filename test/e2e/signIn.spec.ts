import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { generate, generateSecret } from 'otplib'
import { createCore, LOCAL_TENANT, type Core } from '../../src/main/core'
import { startOrdersSite, type OrdersSite } from '../fixtures/sites/orders'
import { cookieOrdersTool, postsTo, TEST_PASSPHRASE } from '../integration/logins/loginHelpers'

const SEED = generateSecret()
const PASSWORD = 'wonderland-2fa'

let site: OrdersSite
let core: Core
let base: string
let home: string
/** Added to the real time: the 30-minute rule of links is tested by moving it. */
let offsetMs = 0

test.beforeEach(async () => {
  offsetMs = 0
  home = mkdtempSync(join(tmpdir(), 'sitecall-e2e-signin-'))
  site = await startOrdersSite({
    users: [{ username: 'alice', password: PASSWORD, totpSecret: SEED }],
  })
  core = createCore({
    home,
    port: 0,
    headless: true,
    rendererDir: null,
    keychain: null,
    clock: () => Date.now() + offsetMs,
    env: { ...process.env, SITECALL_PASSPHRASE: TEST_PASSPHRASE },
  })
  base = await core.listen()
})

test.afterEach(async () => {
  await core.close()
  await site.close()
  rmSync(home, { recursive: true, force: true })
})

const run = async (toolId: string) => {
  const tool = core.store.tools.get(toolId)!
  return core.engine.start(tool, {}, { tenant: LOCAL_TENANT }).done
}

test('a tool on the orders site whose session expired signs in again with the saved password and TOTP and succeeds', async () => {
  const tool = cookieOrdersTool(site)
  core.store.tools.save(tool)

  // The person signs in in the sign-in browser, second factor included.
  const flow = await core.signIns.start(LOCAL_TENANT, { url: `${site.url}/login` })
  const page = core.signIns.page(flow.signInId)!
  await page.getByLabel('Username').fill('alice')
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL(/\/login\/otp$/)
  await page.getByLabel('One-time code').fill(await generate({ secret: SEED }))
  await page.getByRole('button', { name: 'Verify' }).click()
  const signedIn = await core.signIns.settled(flow.signInId)
  expect(signedIn).toMatchObject({
    status: 'signed_in',
    canSaveCredentials: true,
    username: 'alice',
    sawOneTimeCode: true,
  })
  const saved = await core.signIns.finish(LOCAL_TENANT, flow.signInId, {
    saveCredentials: true,
    totpSeed: `otpauth://totp/Parcel:alice?secret=${SEED}&issuer=Parcel`,
  })
  expect(saved.status).toBe('saved')
  expect(core.logins.list(LOCAL_TENANT)).toMatchObject([
    { host: site.host, hasPassword: true, hasTotp: true, loginUrl: `${site.url}/login` },
  ])

  expect((await run(tool.id)).status).toBe('succeeded')

  site.expireSessions()
  const passwordPosts = postsTo(site, '/login')
  const codePosts = postsTo(site, '/login/otp')
  const again = await run(tool.id)
  expect(again.status).toBe('succeeded')
  expect(again.result).toMatchObject({ orders: expect.any(Array) })
  // The site saw a fresh sign-in, password and code, made by the app itself.
  expect(postsTo(site, '/login')).toBe(passwordPosts + 1)
  expect(postsTo(site, '/login/otp')).toBe(codePosts + 1)
})

test('with no saved login the run carries signIn.url, and the link works once', async ({
  page,
}) => {
  const tool = cookieOrdersTool(site)
  core.store.tools.save(tool)
  const failed = await run(tool.id)
  expect(failed.status).toBe('failed')
  expect(failed.error?.code).toBe('session_or_permission')
  const url = failed.signIn!.url
  expect(url.startsWith(`${base}/signin/`)).toBe(true)

  // Opening the link starts the sign-in for the site; the page takes the values (headless here).
  await page.goto(url)
  await expect(page.getByRole('heading', { name: `Sign in to ${site.host}` })).toBeVisible()
  await expect(page.getByRole('status')).toHaveText('open')
  const form = page.locator('#submit')
  await form.getByRole('textbox', { name: 'Username' }).fill('alice')
  await form.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await form.getByLabel('One-time code').fill(await generate({ secret: SEED }))
  await form.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('status')).toHaveText('saved')
  expect((await run(tool.id)).status).toBe('succeeded')

  const second = await fetch(url)
  expect(second.status).toBe(409)
  expect(await second.json()).toMatchObject({ error: { code: 'request_closed' } })

  const fresh = core.signInLinks.mint(LOCAL_TENANT, site.host)
  offsetMs = 30 * 60_000 + 1
  const expired = await fetch(fresh)
  expect(expired.status).toBe(409)
  expect(await expired.json()).toMatchObject({ error: { code: 'request_closed' } })
})
