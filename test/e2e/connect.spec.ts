import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from '@playwright/test'
import { directoryAppEachTest, SHOTS } from './directoryApp'
import { type Core } from '../../src/main/core'
import type { ToolSpec } from '../../src/shared/toolSpec'
import { type DirectorySite } from '../fixtures/sites/directory'
import { makeSearchTool } from '../fixtures/harness/searchTool'
import { connectHttp } from '../integration/mcp/mcpClients'
import { expectAccessible } from './axe'

let site: DirectorySite
let core: Core
let base: string
let tool: ToolSpec

directoryAppEachTest('connect', async (app) => {
  ;({ site, core, base } = app)
  ;({ tool } = await makeSearchTool(core, site))
})

test('connects an agent with the VS Code config it shows, then revokes its key', async ({
  page,
}) => {
  await page.goto(`${base}/app/?token=${core.ownerToken}`)
  await page.getByTestId('nav-connect').click()
  await expect(page.getByRole('heading', { name: 'Connect an agent' })).toBeVisible()
  await expectAccessible(page, 'Connect, before a key')
  await page.getByTestId('connect-key-label').fill('vscode-agent')
  await page.getByTestId('connect-create-key').click()
  await expect(page.getByTestId('connect-key-ready')).toBeVisible()

  // The VS Code config, parsed as the editor would, is enough for the official MCP client.
  const text = await page.getByTestId('config-vscode').locator('pre').textContent()
  const config = JSON.parse(text!) as {
    servers: { sitecall: { type: string; url: string; headers: { Authorization: string } } }
  }
  expect(config.servers.sitecall.type).toBe('http')
  expect(config.servers.sitecall.url).toBe(`${base}/mcp`)
  const key = config.servers.sitecall.headers.Authorization.replace(/^Bearer /, '')
  expect(key).toMatch(/^svc_live_/)
  const cursor = JSON.parse(
    (await page.getByTestId('config-cursor').locator('pre').textContent())!,
  ) as { mcpServers: { sitecall: { url: string; headers: { Authorization: string } } } }
  expect(cursor.mcpServers.sitecall).toEqual({
    url: `${base}/mcp`,
    headers: { Authorization: `Bearer ${key}` },
  })
  const claude = JSON.parse(
    (await page.getByTestId('config-claude').locator('pre').textContent())!,
  ) as unknown
  // A command that runs as shown: this Node and this checkout's script by absolute path, on this
  // data dir (started that way in test/integration/mcp/mcpConfigs.integration.test.ts).
  expect(claude).toEqual({
    mcpServers: {
      sitecall: {
        command: process.execPath,
        args: [fileURLToPath(new URL('../../bin/sitecall.mjs', import.meta.url)), 'mcp'],
        env: { SITECALL_HOME: core.home },
      },
    },
  })
  await expect(page.getByTestId('config-stdio')).toContainText(`SITECALL_HOME=${core.home}`)
  const client = await connectHttp(base, { key })
  const listed = await client.listTools()
  expect(listed.tools.map((t) => t.name)).toContain(tool.name)
  await client.close()

  // The curl of the verified tool carries the key and the tool's call path.
  const curl = await page.getByTestId('connect-curl').textContent()
  expect(curl).toContain(`${base}/api/v1/sites/${tool.siteHost}/call/${tool.name}`)
  expect(curl).toContain(`Bearer ${key}`)
  await expect(page.getByTestId('connect-oauth')).toContainText(`${base}/oauth/clients`)

  await page.getByTestId('scope-slug').fill('directory-only')
  await page.getByTestId('scope-apps').fill(tool.siteHost)
  await page.getByTestId('scope-create').click()
  await expect(page.getByTestId('scope-row')).toContainText('/mcp/directory-only')
  await expectAccessible(page, 'Connect, with a key and a scope')
  await page.screenshot({ path: join(SHOTS, 'ui-connect.png'), fullPage: true })

  // Keys: the agent's key shows when it was last used, and revoking it cuts the agent off.
  await page.getByTestId('nav-keys').click()
  const row = page.getByTestId('key-row').filter({ hasText: 'vscode-agent' })
  await expect(row).not.toContainText('never')
  page.once('dialog', (dialog) => void dialog.accept())
  await row.getByTestId('key-revoke').click()
  await expect(row).toHaveClass(/revoked/)
  await expectAccessible(page, 'Keys with a revoked key')
  await page.screenshot({ path: join(SHOTS, 'ui-keys.png'), fullPage: true })
  await expect(connectHttp(base, { key })).rejects.toThrow()
})
