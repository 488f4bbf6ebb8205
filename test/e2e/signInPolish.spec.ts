import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { compileTrace } from '../../src/main/compiler'
import { LOCAL_TENANT, type Core } from '../../src/main/core'
import type { Run } from '../../src/shared/run'
import { NOTES, startNotesSite, type NotesSite } from '../fixtures/sites/notes'
import { callTool } from '../fixtures/harness/http'
import { traceBuilder } from '../unit/compiler/traceBuilder'
import { expectAccessible } from './axe'
import { coreAppEachTest, SHOTS } from './directoryApp'

let core: Core
let base: string
let close: () => Promise<void> = async () => undefined

coreAppEachTest('signin-polish', async (app) => {
  ;({ core, base } = app)
  await core.vault.unlock('a passphrase for signing in')
})

test.afterEach(async () => {
  await close()
})

test('a run of a Basic-auth tool without a login links to a sign-in page that asks the site’s credentials', async ({
  page,
}) => {
  const site: NotesSite = await startNotesSite({ scheme: 'basic', password: 'link-pass-42' })
  close = () => site.close()
  const trace = traceBuilder(site.url)
    .fill('basil', { name: 'q', label: 'Search notes' })
    .exchange('GET', '/api/notes?q=basil', { response: { query: 'basil', notes: [] } })
    .build('search my notes')
  trace.exchanges[0]!.requestHeaders.authorization = 'Basic x'
  const compiled = compileTrace(trace, { toolId: crypto.randomUUID(), now: Date.now() })
  if (!compiled.ok) throw new Error(compiled.explanation.reason)
  const tool = { ...compiled.candidate, status: 'verified' as const }
  core.store.tools.save(tool)
  const { key } = core.store.keys.create(
    { id: 'key_link', tenant: LOCAL_TENANT, label: 'link' },
    Date.now(),
  )
  const input = Object.keys(tool.inputs.properties)[0]!
  const failed = (await callTool<Run>(base, key, tool, { [input]: 'lyon' })).body
  expect(failed).toMatchObject({ status: 'failed', error: { code: 'session_or_permission' } })
  expect(failed.signIn?.url).toBeTruthy()

  await page.goto(failed.signIn!.url)
  await expect(page.getByRole('heading', { name: `Sign in to ${site.host}` })).toBeVisible()
  await expect(page.locator('#message')).toContainText(
    `${site.host} asks for a username and password (HTTP Basic, realm "Notes")`,
  )
  await expectAccessible(page, 'the one-time sign-in page of a Basic-auth site')
  await page.screenshot({ path: join(SHOTS, 'ui-signin-http-auth.png'), fullPage: true })
  const form = page.locator('#submit')
  await form.getByRole('textbox', { name: 'Username' }).fill(site.username)
  await form.getByLabel('Password', { exact: true }).fill(site.password)
  await form.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.locator('#status')).toHaveText('saved')

  const again = (await callTool<Run>(base, key, tool, { [input]: 'lyon' })).body
  expect(again).toMatchObject({ status: 'succeeded', result: { notes: [NOTES[2]] } })
})

test('a sign-in’s browser closes as soon as the site is signed into; what to keep is chosen after', async () => {
  // The demo shop the core serves, and its public demo user.
  const flow = await core.signIns.start(LOCAL_TENANT, { url: `${base}/demo/orders/login` })
  const page = core.signIns.page(flow.signInId)!
  await page.getByLabel('Username').fill('alice')
  await page.getByLabel('Password').fill('wonderland')
  await page.getByRole('button', { name: 'Sign in' }).click()
  expect(await core.signIns.settled(flow.signInId)).toMatchObject({
    status: 'signed_in',
    canSaveCredentials: true,
  })
  await expect.poll(() => page.isClosed()).toBe(true)
  const saved = await core.signIns.finish(LOCAL_TENANT, flow.signInId, { saveCredentials: true })
  expect(saved.status).toBe('saved')
  expect(core.logins.list(LOCAL_TENANT)).toEqual([
    expect.objectContaining({ host: new URL(base).host, hasPassword: true }),
  ])
})
