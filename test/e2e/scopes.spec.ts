import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { LOCAL_TENANT, type Core } from '../../src/main/core'
import { send, type ErrorAnswerBody } from '../fixtures/harness/http'
import { expectAccessible } from './axe'
import { coreAppEachTest, SHOTS } from './directoryApp'

let core: Core
let base: string

coreAppEachTest('scopes', (app) => ({ core, base } = app))

test('scopes are created, listed and deleted in the Connect page and over the API', async ({
  page,
}) => {
  const { key } = core.store.keys.create(
    { id: 'key_scopes', tenant: LOCAL_TENANT, label: 'e2e' },
    Date.now(),
  )
  await page.goto(`${base}/app/?token=${core.ownerToken}#/connect`)
  for (const slug of ['shop-only', 'notes-only']) {
    await page.getByTestId('scope-slug').fill(slug)
    await page.getByTestId('scope-apps').fill(`${slug}.example.com`)
    await page.getByTestId('scope-create').click()
    await expect(page.getByTestId('scope-row').filter({ hasText: `/mcp/${slug}` })).toBeVisible()
  }
  await expectAccessible(page, 'Connect, with two scopes')
  await page.screenshot({ path: join(SHOTS, 'ui-connect-scopes.png'), fullPage: true })

  // Deleting asks first; a dismissed question deletes nothing.
  page.once('dialog', (d) => void d.dismiss())
  await page.getByRole('button', { name: 'Delete the scope shop-only' }).click()
  await expect(page.getByTestId('scope-row')).toHaveCount(2)
  page.once('dialog', (d) => void d.accept())
  await page.getByRole('button', { name: 'Delete the scope shop-only' }).click()
  await expect(page.getByTestId('scope-row')).toHaveCount(1)
  await expect(page.getByTestId('scope-row')).toContainText('notes-only')
  expect(core.store.scopes.list(LOCAL_TENANT).map((s) => s.slug)).toEqual(['notes-only'])

  // The API: DELETE answers 204, then 404 unknown_scope; the MCP endpoint of the slug is gone.
  const deleted = await send(base, 'DELETE', '/api/v1/scopes/notes-only', { key })
  expect(deleted.status).toBe(204)
  const again = await send<ErrorAnswerBody>(base, 'DELETE', '/api/v1/scopes/notes-only', { key })
  expect(again.status).toBe(404)
  expect(again.body.error.code).toBe('unknown_scope')
  const listed = await send<{ scopes: unknown[] }>(base, 'GET', '/api/v1/scopes', { key })
  expect(listed.body.scopes).toEqual([])
  const mcp = await send<ErrorAnswerBody>(base, 'POST', '/mcp/notes-only', {
    key,
    headers: { accept: 'application/json, text/event-stream' },
    json: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  })
  expect(mcp.status).toBe(404)
  await page.reload()
  await expect(page.getByTestId('scope-row')).toHaveCount(0)
})
