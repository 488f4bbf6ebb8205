import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { directoryAppEachTest, SHOTS } from './directoryApp'
import { type Core } from '../../src/main/core'
import type { ToolSpec } from '../../src/shared/toolSpec'
import { type DirectorySite } from '../fixtures/sites/directory'
import { makeSearchTool } from '../fixtures/harness/searchTool'
import { expectAccessible } from './axe'

let site: DirectorySite
let core: Core
let base: string
let tool: ToolSpec

directoryAppEachTest('edit', async (app) => {
  ;({ site, core, base } = app)
  ;({ tool } = await makeSearchTool(core, site))
})

test('renames a tool and edits an input, then verifies the new version', async ({ page }) => {
  await page.goto(`${base}/app/?token=${core.ownerToken}#/tools/${tool.id}`)
  await expect(page.getByRole('heading', { name: tool.name })).toBeVisible()
  await page.getByTestId('edit-button').click()
  const editor = page.getByTestId('tool-editor')
  await expect(editor).toBeVisible()
  await expectAccessible(page, 'the tool editor')

  await page.getByTestId('edit-name').fill('local__find_ai_tools')
  await page.getByTestId('edit-description').fill('Finds AI tools by keyword.')
  const query = page
    .getByTestId('edit-input')
    .filter({ has: page.locator('code', { hasText: 'p0' }) })
  await query.getByTestId('edit-input-name').fill('keyword')
  await query.getByTestId('edit-input-default').fill('image')
  await page.getByTestId('edit-add-header').click()
  await page.getByLabel('Header name').last().fill('X-Client')
  await page.getByLabel('Value of header X-Client').fill('sitecall-e2e')
  await page.screenshot({ path: join(SHOTS, 'ui-tool-edit.png'), fullPage: true })
  await page.getByTestId('edit-save').click()

  await expect(page.getByTestId('edit-saved')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'local__find_ai_tools', level: 1 })).toBeVisible()
  const review = page.getByTestId('candidate-review')
  await expect(review.locator('.badge').first()).toHaveText('candidate')
  await expect(page.getByTestId('slot-row').filter({ hasText: 'keyword' })).toContainText('"image"')
  const saved = core.store.tools.get(tool.id)!
  expect(saved.status).toBe('candidate')
  expect(saved.steps.at(-1)!.request.headers['X-Client']).toBe('sitecall-e2e')
  await expectAccessible(page, 'an edited candidate')

  // The form starts from the new default; verifying sends it with the new header.
  await expect(page.locator('input[name="keyword"]')).toHaveValue('image')
  await page.getByTestId('verify-button').click()
  await expect(page.getByTestId('run-status')).toHaveText('succeeded')
  await expect(page.getByTestId('verified-notice')).toContainText('/call/local__find_ai_tools')
  const sent = site.requests.filter((r) => r.path.startsWith('/api/search')).at(-1)!
  expect(sent.headers['x-client']).toBe('sitecall-e2e')
  expect(JSON.parse(sent.body)).toMatchObject({ query: 'image' })
  expect(core.store.tools.get(tool.id)!.status).toBe('verified')
})

test('shows why an edit cannot be saved and keeps the tool as it was', async ({ page }) => {
  await page.goto(`${base}/app/?token=${core.ownerToken}#/tools/${tool.id}`)
  await page.getByTestId('edit-button').click()
  await page.getByTestId('edit-add-header').click()
  await page.getByLabel('Header name').last().fill('Authorization')
  await page.getByLabel('Value of header Authorization').fill('Bearer {{secret:MISSING}}')
  await page.getByTestId('edit-save').click()
  await expect(page.getByTestId('error-banner')).toContainText('MISSING')
  await expect(page.getByTestId('tool-editor')).toBeVisible()
  expect(core.store.tools.get(tool.id)).toEqual(tool)
  await expectAccessible(page, 'a refused edit')
})

test('offers to replace the earlier tool when the same workflow is recorded again', async ({
  page,
}) => {
  const name = core.store.tools.uniqueName(tool.siteHost, tool.name)
  const again: ToolSpec = {
    ...structuredClone(tool),
    id: crypto.randomUUID(),
    name,
    capabilityId: `${tool.siteHost}/${name}`,
    status: 'candidate',
    createdAt: tool.createdAt + 1,
  }
  core.store.tools.save(again)
  await page.goto(`${base}/app/?token=${core.ownerToken}#/tools/${again.id}`)
  const offer = page.getByTestId('replace-offer')
  await expect(offer).toContainText(tool.name)
  await expectAccessible(page, 'the replace offer')
  await page.screenshot({ path: join(SHOTS, 'ui-replace-offer.png'), fullPage: true })
  await page.getByTestId('replace-button').click()
  await expect(offer).toHaveCount(0)
  await expect(page.getByRole('heading', { name: tool.name, level: 1 })).toBeVisible()
  expect(core.store.tools.get(tool.id)).toBeNull()
  expect(core.store.tools.get(again.id)!.name).toBe(tool.name)
})
