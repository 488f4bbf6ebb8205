import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { directoryAppEachTest, SHOTS } from './directoryApp'
import { LOCAL_TENANT, type Core } from '../../src/main/core'
import type { ToolSpec } from '../../src/shared/toolSpec'
import { type DirectorySite } from '../fixtures/sites/directory'
import { callTool } from '../fixtures/harness/http'
import { makeSearchTool } from '../fixtures/harness/searchTool'
import { expectAccessible } from './axe'

let site: DirectorySite
let core: Core
let base: string
let home: string
let tool: ToolSpec

directoryAppEachTest('workspace', async (app) => {
  ;({ home, site, core, base } = app)
  ;({ tool } = await makeSearchTool(core, site))
})

test('finds tools by intent with scores, lists runs with filters, shows usage and settings', async ({
  page,
}) => {
  const { key } = core.store.keys.create(
    { id: 'key_ws', tenant: LOCAL_TENANT, label: 'ws' },
    Date.now(),
  )
  expect((await callTool(base, key, tool, { query: 'image' })).status).toBe(200)
  expect((await callTool(base, key, tool, { query: 'writing', page: 'x' })).status).toBe(400)

  await page.goto(`${base}/app/?token=${core.ownerToken}#/tools`)
  await expect(page.getByTestId('tool-site').locator('h2')).toHaveText(tool.siteHost)
  await page.getByTestId('tool-search').fill('search the AI tools directory for writing tools')
  await page.getByTestId('tool-search-submit').click()
  const match = page.getByTestId('tool-match')
  await expect(match.first()).toContainText(tool.name)
  const score = Number(/score (\d\.\d\d)/.exec((await match.first().textContent())!)![1])
  expect(score).toBeGreaterThanOrEqual(0.9)
  await page.getByTestId('tool-search').fill('book a flight to Lisbon')
  await page.getByTestId('tool-search-submit').click()
  await expect(page.getByTestId('tool-search-none')).toBeVisible()
  await expectAccessible(page, 'Tools with a search')
  await page.screenshot({ path: join(SHOTS, 'ui-tools.png'), fullPage: true })

  await page.getByTestId('nav-runs').click()
  const rows = page.getByTestId('run-row')
  await expect(rows).toHaveCount(1)
  await page.getByTestId('runs-status').selectOption('failed')
  await expect(rows).toHaveCount(0)
  await page.getByTestId('runs-status').selectOption('succeeded')
  await page.getByTestId('runs-tool').selectOption(tool.id)
  await expect(rows).toHaveCount(1)
  await rows.getByRole('button').click()
  await expect(page.getByTestId('run-detail')).toContainText(tool.name)
  await expect(page.getByTestId('run-detail').getByTestId('run-status')).toHaveText('succeeded')
  await expectAccessible(page, 'Runs with a run open')
  await page.screenshot({ path: join(SHOTS, 'ui-runs.png'), fullPage: true })

  await page.getByTestId('nav-usage').click()
  const usage = core.store.ledger.usage(LOCAL_TENANT, Date.now())
  await expect(page.getByTestId('usage-stats')).toContainText(usage.balance.toLocaleString('en-US'))
  await expect(page.getByTestId('ledger-row').filter({ hasText: 'grant' })).toHaveCount(1)
  await expect(page.getByTestId('ledger-row').filter({ hasText: 'charge' })).toHaveCount(
    usage.charged,
  )
  await expectAccessible(page, 'Usage')
  await page.screenshot({ path: join(SHOTS, 'ui-usage.png'), fullPage: true })

  await page.getByTestId('nav-settings').click()
  await expect(page.getByTestId('settings-data-dir')).toHaveText(home)
  await expect(page.getByTestId('settings-chromium')).not.toHaveText('')
  await expectAccessible(page, 'Settings')
  await page.screenshot({ path: join(SHOTS, 'ui-settings.png'), fullPage: true })
})
