import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { LOCAL_TENANT, type Core } from '../../src/main/core'
import { NOTES, startNotesSite, type NotesSite } from '../fixtures/sites/notes'
import { expectAccessible } from './axe'
import { recordedPage, SHOTS, startCoreApp, stopApp } from './directoryApp'

let core: Core
let base: string
let home: string
let site: NotesSite

test.afterEach(async ({ page }) => {
  await stopApp({ home, core, base }, page)
  await site.close()
})

/** Every byte the core wrote in its data dir (the database, its WAL), as latin1 text. */
function dataDirBytes(): string {
  const files: string[] = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }))
      if (entry.isDirectory()) walk(join(dir, entry.name))
      else files.push(join(dir, entry.name))
  }
  walk(home)
  return files.map((f) => readFileSync(f).toString('latin1')).join('\n')
}

test('a Basic-auth site is recorded (the app asks its credentials), verified and called over REST', async ({
  page,
}) => {
  site = await startNotesSite({ scheme: 'basic', password: 'notes-pass-7731' })
  ;({ home, core, base } = await startCoreApp('basicauth'))
  await page.goto(`${base}/app/?token=${core.ownerToken}#/record`)
  await page.getByTestId('record-url').fill(`${site.url}/`)
  await page.getByTestId('record-intent').fill('search my notes')
  await page.getByTestId('record-start').click()

  // The site's challenge is asked in the app, not failed in a browser nobody sees.
  const prompt = page.getByTestId('http-auth-prompt')
  await expect(prompt).toContainText(`${site.host} asks you to sign in`)
  await expect(prompt.getByTestId('http-auth-realm')).toHaveText('“Notes”')
  // The login is sealed in the vault: a locked vault is opened right there first.
  await prompt.getByTestId('vault-passphrase').fill('a passphrase for the notes')
  await expectAccessible(page, 'the HTTP authentication prompt (vault locked)')
  await prompt.getByTestId('vault-unlock').click()
  await prompt.getByTestId('http-auth-username').fill(site.username)
  await prompt.getByTestId('http-auth-password').fill('not the password')
  await prompt.getByTestId('http-auth-submit').click()
  await expect(prompt.getByTestId('http-auth-refused')).toBeVisible()
  await expectAccessible(page, 'the HTTP authentication prompt (refused)')
  await page.screenshot({ path: join(SHOTS, 'ui-http-auth-prompt.png'), fullPage: true })
  await prompt.getByTestId('http-auth-password').fill(site.password)
  await prompt.getByTestId('http-auth-submit').click()
  await expect(prompt).toHaveCount(0)

  const recorded = await recordedPage(core)
  await recorded.getByLabel('Search notes').fill('basil')
  const searched = recorded.waitForResponse((r) => r.url().includes('/api/notes?q=basil'))
  await recorded.getByRole('button', { name: 'Search' }).click()
  expect((await searched).status()).toBe(200)
  await page.getByTestId('record-stop').click()
  await expect(page.getByTestId('candidate-review')).toBeVisible()

  // The tool binds to the saved login; no credential is in it, nor in clear in the data dir.
  const tool = core.store.tools.list()[0]!
  expect(tool.login?.httpAuth).toEqual({ scheme: 'basic' })
  const basic = Buffer.from(`${site.username}:${site.password}`).toString('base64')
  expect(JSON.stringify(tool)).not.toContain(site.password)
  expect(JSON.stringify(tool)).not.toContain(basic)
  const login = core.logins.list(LOCAL_TENANT).find((l) => l.host === site.host)
  expect(login).toMatchObject({ hasPassword: true })
  const stored = dataDirBytes()
  expect(stored).not.toContain(site.password)
  expect(stored).not.toContain(basic)

  await expect(page.getByTestId('tool-needs')).toHaveCount(0)
  await page.getByTestId('verify-button').click()
  await expect(page.getByTestId('run-status')).toHaveText('succeeded')
  expect(core.store.tools.get(tool.id)!.status).toBe('verified')

  const { key } = core.store.keys.create(
    { id: 'key_notes', tenant: LOCAL_TENANT, label: 'e2e' },
    Date.now(),
  )
  const input = Object.keys(tool.inputs.properties)[0]!
  const call = await fetch(`${base}/api/v1/sites/${tool.siteHost}/call/${tool.name}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ [input]: 'lyon' }),
  })
  expect(call.status).toBe(200)
  const run = (await call.json()) as { status: string; result: unknown }
  expect(run).toMatchObject({ status: 'succeeded', result: { notes: [NOTES[2]] } })
  expect(site.requests.at(-1)).toMatchObject({ path: '/api/notes?q=lyon', accepted: true })
})

test('credentials in a start URL answer a Digest challenge and are never stored or shown', async ({
  page,
}) => {
  site = await startNotesSite({ scheme: 'digest', username: 'bo', password: 'digest-pass-5521' })
  ;({ home, core, base } = await startCoreApp('digestauth'))
  await page.goto(`${base}/app/?token=${core.ownerToken}#/secrets`)
  await page.getByTestId('vault-passphrase').fill('a long passphrase')
  await page.getByTestId('vault-passphrase-again').fill('a long passphrase')
  await page.getByTestId('vault-unlock').click()
  await expect(page.getByTestId('vault-mode')).toHaveText('Passphrase')

  await page.goto(`${base}/app/?token=${core.ownerToken}#/record`)
  const withUserinfo = `http://bo:${site.password}@${site.host}/`
  await page.getByTestId('record-url').fill(withUserinfo)
  await page.getByTestId('record-intent').fill('search my notes')
  await page.getByTestId('record-start').click()
  await expect(page.getByTestId('record-stop')).toBeVisible()
  await expect(page.getByText(`started at ${site.url}/`)).toBeVisible()
  await expect(page.getByTestId('http-auth-prompt')).toHaveCount(0)
  expect(await page.content()).not.toContain(site.password)

  const recorded = await recordedPage(core)
  await recorded.getByLabel('Search notes').fill('garden')
  const searched = recorded.waitForResponse((r) => r.url().includes('/api/notes?q=garden'))
  await recorded.getByRole('button', { name: 'Search' }).click()
  expect((await searched).status()).toBe(200)
  await page.getByTestId('record-stop').click()
  await expect(page.getByTestId('candidate-review')).toBeVisible()
  expect(await page.content()).not.toContain(site.password)

  const tool = core.store.tools.list()[0]!
  expect(tool.login?.httpAuth).toEqual({ scheme: 'digest' })
  const trace = core.store.traces.get(tool.evidence.traceId)!
  expect(trace.startUrl).toBe(`${site.url}/`)
  expect(dataDirBytes()).not.toContain(site.password)
  await page.getByTestId('verify-button').click()
  await expect(page.getByTestId('run-status')).toHaveText('succeeded')
})

test('a sign-in to a Basic-auth site asks its credentials in the Logins view and closes its browser', async ({
  page,
}) => {
  site = await startNotesSite({ scheme: 'basic', password: 'sign-in-pass-90' })
  ;({ home, core, base } = await startCoreApp('basicsignin'))
  await core.vault.unlock('a passphrase for signing in')
  await page.goto(`${base}/app/?token=${core.ownerToken}#/logins`)
  await page.getByTestId('sign-in-url').fill(`${site.url}/`)
  await page.getByTestId('sign-in-start').click()
  const prompt = page.getByTestId('http-auth-prompt')
  await expect(prompt.getByTestId('http-auth-realm')).toHaveText('“Notes”')
  await expectAccessible(page, 'the HTTP authentication prompt of a sign-in')
  await page.screenshot({ path: join(SHOTS, 'ui-logins-http-auth.png'), fullPage: true })
  await prompt.getByTestId('http-auth-username').fill(site.username)
  await prompt.getByTestId('http-auth-password').fill(site.password)
  await prompt.getByTestId('http-auth-submit').click()
  await expect(page.getByTestId('sign-in-panel')).toContainText(
    `The login of ${site.host} is saved.`,
  )
  expect(core.logins.list(LOCAL_TENANT)).toEqual([
    expect.objectContaining({ host: site.host, hasPassword: true }),
  ])
  // The flow ended: its browser is closed.
  const signInId = (await page.evaluate(() => sessionStorage.getItem('sitecall.signInId'))) ?? null
  expect(signInId).toBeNull()
  expect(site.requests.filter((r) => r.accepted).length).toBeGreaterThan(0)
})

test('a site whose login is saved is recorded without being asked again', async ({ page }) => {
  site = await startNotesSite({ scheme: 'digest', password: 'saved-pass-313' })
  ;({ home, core, base } = await startCoreApp('savedauth'))
  await core.vault.unlock('a passphrase for the saved login')
  await core.logins.saveHttpAuth(LOCAL_TENANT, site.host, site, `${site.url}/`)
  await page.goto(`${base}/app/?token=${core.ownerToken}#/record`)
  await page.getByTestId('record-url').fill(`${site.url}/`)
  await page.getByTestId('record-intent').fill('search my notes')
  await page.getByTestId('record-start').click()
  await expect(page.getByTestId('record-stop')).toBeVisible()
  const recorded = await recordedPage(core)
  await expect(recorded.getByLabel('Search notes')).toBeVisible()
  await expect(page.getByTestId('http-auth-prompt')).toHaveCount(0)
  expect(site.requests.some((r) => r.path === '/' && r.accepted)).toBe(true)
})
