import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import type { Core } from '../../src/main/core'
import { createPgOwnerTokens } from '../../src/main/serverAccess'
import { createPgStore, type PgStore } from '../../src/main/store/postgres/pgStore'
import type { ToolSpec } from '../../src/shared/toolSpec'
import { send } from '../fixtures/harness/http'
import { makeSearchTool } from '../fixtures/harness/searchTool'
import { startDirectorySite, type DirectorySite } from '../fixtures/sites/directory'
import { pgUnavailable, startPgCluster, type PgCluster } from '../integration/store/pgCluster'
import { killServerNode, startServerNode, type ServerNode } from '../integration/server/serverNode'
import { expectAccessible } from './axe'
import { coreAppEachTest, SHOTS } from './directoryApp'

/**
 * Settings → "Link to a server" (issue 27 B) in the built UI against a real team server node on
 * a private PostgreSQL 15 cluster: refusals read with their code, a token link, Sync now, a
 * conflict's two versions side by side settled by "Keep the server's", Unlink asked first; and
 * an OAuth link approved in the server's consent page the app opened, after one cancelled.
 */
const skip = pgUnavailable()
test.skip(skip !== null, skip ?? '')

let cluster: PgCluster
let store: PgStore
let node: ServerNode
let site: DirectorySite
let owner: string
let core: Core
let base: string

test.beforeAll(async () => {
  test.setTimeout(180_000)
  cluster = await startPgCluster()
  const url = await cluster.createDatabase('synclink')
  store = createPgStore(url)
  owner = createPgOwnerTokens(store.pg, { clock: Date.now }).issue().token
  site = await startDirectorySite()
  node = await startServerNode(url, 'synclink_node')
})

test.afterAll(async () => {
  if (node) await killServerNode(node)
  store?.close()
  await site?.close()
  await cluster?.close()
})

coreAppEachTest('sync-link', async (app) => {
  ;({ core, base } = app)
  // The link's token is sealed by the vault where no keychain answers (as here).
  await core.vault.unlock('a passphrase for the link')
})

test('Link to a server: refusals by code, a token link, Sync now, a conflict side by side, Unlink', async ({
  page,
}) => {
  const { tool } = await makeSearchTool(core, site)
  await page.goto(`${base}/app/?token=${core.ownerToken}#/settings`)
  const section = page.getByTestId('sync')
  await expect(section.getByTestId('sync-link-form')).toBeVisible()
  await expectAccessible(page, 'Settings, not linked')
  await section.screenshot({ path: join(SHOTS, 'ui-sync-unlinked.png') })

  await page.getByTestId('sync-server-url').fill('http://sitecall.example.org')
  await page.getByTestId('sync-link').click()
  await expect(page.getByTestId('sync-error')).toContainText('invalid_server_url')
  await expect(page.getByTestId('sync-error')).toContainText('https')

  await page.getByTestId('sync-use-token').click()
  await page.getByTestId('sync-server-url').fill('http://127.0.0.1:9')
  await page.getByTestId('sync-token').fill(owner)
  await page.getByTestId('sync-link').click()
  await expect(page.getByTestId('sync-error')).toContainText('server_unreachable')
  await expect(page.getByTestId('sync-error')).toContainText('http://127.0.0.1:9 is out of reach')
  await section.screenshot({ path: join(SHOTS, 'ui-sync-error.png') })

  await page.getByTestId('sync-server-url').fill(node.base)
  await page.getByTestId('sync-link').click()
  await expect(page.getByTestId('sync-linked-server')).toHaveText(node.base)
  await expect(page.getByTestId('sync-error')).toHaveCount(0)
  await expect(page.getByTestId('sync-outbox')).toHaveText('1 change')
  await expect(page.getByTestId('sync-workspace')).toContainText('An owner token')
  await page.getByTestId('sync-now').click()
  await expect(page.getByTestId('sync-last')).toContainText('pushed 1, deleted 0; pulled 0')
  await expect(page.getByTestId('sync-outbox')).toHaveText('0 changes')
  expect(store.tools.get(tool.id)?.description).toBe(tool.description)
  await expectAccessible(page, 'Settings, linked')
  await section.screenshot({ path: join(SHOTS, 'ui-sync-linked.png') })

  // The server's version moves (another desktop's push), and this desktop edits the same tool.
  const { body } = await send<{ tools: Array<{ revision: number; tool: ToolSpec }> }>(
    node.base,
    'GET',
    '/v1/sync/tools?since=0',
    { key: owner },
  )
  const current = body.tools.find((t) => t.tool.id === tool.id)!
  const theirs: ToolSpec = {
    ...tool,
    description: 'Searches the directory of AI tools by keyword (edited on the laptop).',
    inputs: {
      ...tool.inputs,
      properties: {
        ...tool.inputs.properties,
        page: { ...tool.inputs.properties.page!, description: 'Which page of results' },
      },
    },
    updatedAt: tool.updatedAt + 2,
  }
  const put = await send(node.base, 'PUT', `/v1/sync/tools/${tool.id}`, {
    key: owner,
    headers: { 'idempotency-key': `e2e-${randomUUID()}` },
    json: { baseRevision: current.revision, tool: theirs },
  })
  expect(put.status).toBe(200)
  core.store.tools.save({
    ...tool,
    description: 'Finds AI tools by a word (edited here).',
    updatedAt: tool.updatedAt + 1,
  })
  await page.reload()
  await expect(page.getByTestId('sync-outbox')).toHaveText('1 change')
  await page.getByTestId('sync-now').click()
  const conflict = page.getByTestId('sync-conflict')
  await expect(conflict).toHaveCount(1)
  await expect(page.getByTestId('sync-conflict-count')).toHaveText('1')
  await expect(conflict.getByTestId('sync-diff-description')).toContainText('(edited here)')
  await expect(conflict.getByTestId('sync-diff-description')).toContainText(
    '(edited on the laptop)',
  )
  await expect(conflict.getByTestId('sync-diff-inputs')).toContainText(
    'page: integer — Which page of results',
  )
  await expect(conflict.getByTestId('sync-diff-name')).toHaveCount(0)
  await expectAccessible(page, 'Settings, a sync conflict')
  await section.screenshot({ path: join(SHOTS, 'ui-sync-conflict.png') })
  await page.emulateMedia({ colorScheme: 'dark' })
  await expectAccessible(page, 'Settings, a sync conflict, dark')
  await section.screenshot({ path: join(SHOTS, 'ui-sync-conflict-dark.png') })
  await page.emulateMedia({ colorScheme: 'light' })

  await conflict.getByTestId('sync-take-theirs').click()
  await expect(page.getByTestId('sync-conflict')).toHaveCount(0)
  await expect(page.getByTestId('sync-conflict-count')).toHaveText('0')
  expect(core.store.tools.get(tool.id)?.description).toBe(theirs.description)

  await page.getByTestId('sync-unlink').click()
  await page.getByTestId('sync-unlink-confirm').click()
  await expect(page.getByTestId('sync-link-form')).toBeVisible()
  expect(core.store.tools.get(tool.id)).not.toBeNull()
})

test('Link to a server by OAuth: the sign-in page opens, Cancel saves nothing, Approve links', async ({
  page,
}) => {
  await page.goto(`${base}/app/?token=${core.ownerToken}#/settings`)
  await page.getByTestId('sync-server-url').fill(node.base)
  const [first] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByTestId('sync-link').click(),
  ])
  await expect(page.getByTestId('sync-linking')).toContainText('Waiting for your approval')
  expect(new URL(first.url()).pathname).toBe('/oauth/authorize')
  await section(page).screenshot({ path: join(SHOTS, 'ui-sync-linking.png') })
  await first.close()
  await page.getByTestId('sync-cancel-link').click()
  await expect(page.getByTestId('sync-error')).toContainText('link_cancelled')
  await expect(page.getByTestId('sync-link-form')).toBeVisible()

  // The address typed stays after a cancel.
  await expect(page.getByTestId('sync-server-url')).toHaveValue(node.base)
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByTestId('sync-link').click(),
  ])
  // The person's browser is signed in to the server (here: its owner token in the query).
  await popup.goto(`${popup.url()}&token=${encodeURIComponent(owner)}`)
  await popup.getByRole('button', { name: /approve/i }).click()
  await expect(popup.locator('body')).toContainText('Sitecall is linked')
  await expect(page.getByTestId('sync-linked-server')).toHaveText(node.base)
  await expect(page.getByTestId('sync-workspace')).toContainText('Signed in through the browser')
  await expect(page.getByTestId('sync-error')).toHaveCount(0)
})

const section = (page: Page) => page.getByTestId('sync')
