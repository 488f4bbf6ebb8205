import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { compileTrace } from '../../src/main/compiler'
import { LOCAL_TENANT, type Core } from '../../src/main/core'
import { startNotesSite, type NotesSite } from '../fixtures/sites/notes'
import { callTool } from '../fixtures/harness/http'
import { traceBuilder } from '../unit/compiler/traceBuilder'
import { expectAccessible } from './axe'
import { coreAppEachTest, SHOTS } from './directoryApp'

let core: Core
let base: string
let site: NotesSite

coreAppEachTest('run-detail', async (app) => {
  ;({ core, base } = app)
  site = await startNotesSite({ scheme: 'basic' })
})

test.afterEach(async () => {
  await site.close()
})

test('Runs: an opened run shows its inputs, each request it sent with status and timing, and its steps', async ({
  page,
}) => {
  // A notes search tool behind Basic auth, with its login saved. It was recorded with Basic, so
  // each run sends the saved user and password up front (d536e02): one request, answered 200.
  const trace = traceBuilder(site.url)
    .fill('basil', { name: 'q', label: 'Search notes' })
    .exchange('GET', '/api/notes?q=basil', { response: { query: 'basil', notes: [] } })
    .build('search my notes')
  trace.exchanges[0]!.requestHeaders.authorization = 'Basic x'
  const compiled = compileTrace(trace, { toolId: crypto.randomUUID(), now: Date.now() })
  if (!compiled.ok) throw new Error(compiled.explanation.reason)
  const tool = { ...compiled.candidate, status: 'verified' as const }
  core.store.tools.save(tool)
  await core.vault.unlock('a passphrase for the runs')
  await core.logins.saveHttpAuth(LOCAL_TENANT, site.host, site, `${site.url}/`)
  const { key } = core.store.keys.create(
    { id: 'key_runs', tenant: LOCAL_TENANT, label: 'runs' },
    Date.now(),
  )
  const input = Object.keys(tool.inputs.properties)[0]!
  const called = await callTool(base, key, tool, { [input]: 'train' })
  expect(called.body).toMatchObject({ status: 'succeeded' })

  await page.goto(`${base}/app/?token=${core.ownerToken}#/runs`)
  await page.getByTestId('run-row').getByRole('button').click()
  const detail = page.getByTestId('run-detail')
  await expect(detail.getByTestId('run-inputs')).toContainText(input)
  await expect(detail.getByTestId('run-inputs')).toContainText('train')
  const effects = detail.getByTestId('run-effect')
  await expect(effects).toHaveCount(1)
  await expect(effects.nth(0)).toContainText('/api/notes?q=train')
  await expect(effects.nth(0).locator('td').nth(3)).toHaveText('200')
  await expect(effects.nth(0).locator('td').nth(4)).toHaveText(/^\+\d+(\.\d)? (ms|s)$/)
  await expect(detail.getByTestId('run-steps')).toContainText('GET /api/notes?q=')
  await expect(detail.getByTestId('run-steps')).toContainText('target')
  await expectAccessible(page, 'Runs with a run’s requests and steps')
  await page.screenshot({ path: join(SHOTS, 'ui-run-detail.png'), fullPage: true })
})
