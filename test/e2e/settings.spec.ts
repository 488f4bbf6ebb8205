import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from '@playwright/test'
import { SHOTS } from './directoryApp'
import { createCore, LOCAL_TENANT, type Core } from '../../src/main/core'
import { startOrdersSite, type OrdersSite } from '../fixtures/sites/orders'
import { send } from '../fixtures/harness/http'
import { saveOrderToolAndLogin } from './orderTool'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const rendererDir = join(root, 'out/renderer')

let core: Core | null = null
let orders: OrdersSite | null = null
let home: string

/** A core whose vault has no keychain; `passphrase` opens it at start, else it starts locked. */
async function startCore(passphrase: string | null): Promise<string> {
  expect(existsSync(join(rendererDir, 'index.html')), 'run `npm run build:renderer` first').toBe(
    true,
  )
  home = mkdtempSync(join(tmpdir(), 'sitecall-settings-e2e-'))
  core = createCore({
    home,
    port: 0,
    headless: true,
    rendererDir,
    keychain: null,
    env: {
      SITECALL_KEYCHAIN: 'off',
      ...(passphrase ? { SITECALL_PASSPHRASE: passphrase } : {}),
      ...(process.env.SITECALL_CHROMIUM
        ? { SITECALL_CHROMIUM: process.env.SITECALL_CHROMIUM }
        : {}),
    },
  })
  return core.listen()
}

test.afterEach(async ({ page }) => {
  await page.close()
  await core?.close()
  await orders?.close()
  core = null
  orders = null
  rmSync(home, { recursive: true, force: true })
})

test('Secrets: a locked vault takes a first passphrase, then secrets are set with hosts and deleted', async ({
  page,
}) => {
  const base = await startCore(null)
  const value = 'correct horse battery staple 42'
  await page.goto(`${base}/app/?token=${core!.ownerToken}#/secrets`)
  await expect(page.getByTestId('vault-mode')).toHaveText('Locked')
  await expect(page.getByTestId('secret-save')).toBeDisabled()

  await page.getByTestId('vault-passphrase').fill('a long passphrase')
  await page.getByTestId('vault-passphrase-again').fill('a long passphrase')
  await page.getByTestId('vault-unlock').click()
  await expect(page.getByTestId('vault-mode')).toHaveText('Passphrase')
  await expect(page.getByTestId('vault-passphrase')).toHaveCount(0)

  const form = page.getByTestId('secret-form')
  await page.getByTestId('secret-name').fill('shop_password')
  await expect(page.getByTestId('secret-value')).toHaveAttribute('type', 'password')
  await page.getByTestId('secret-value').fill(value)
  // A pasted URL keeps only its host and port.
  await page
    .getByTestId('secret-hosts')
    .fill('shop.example.com, https://api.example.com:8443/login')
  await page.getByTestId('secret-save').click()
  const row = page.getByTestId('secret-row').filter({ hasText: 'shop_password' })
  await expect(row).toBeVisible()
  await expect(row.getByTestId('secret-hosts-cell')).toHaveText(
    'shop.example.comapi.example.com:8443',
  )
  await expect(page.getByTestId('secret-value')).toHaveValue('')
  await expect(form.locator('h2')).toHaveText('Add a secret')

  await page.getByTestId('secret-name').fill('api_token')
  await page.getByTestId('secret-value').fill('tok_123456789')
  await page.getByTestId('secret-hosts').fill('api.example.com')
  await page.getByTestId('secret-save').click()
  await expect(page.getByTestId('secret-row')).toHaveCount(2)
  await page.screenshot({ path: join(SHOTS, 'ui-secrets.png'), fullPage: true })

  // The value went to the vault and is shown nowhere: not on the page, not by the account API.
  expect(await page.content()).not.toContain(value)
  expect((await core!.vault.forRun(LOCAL_TENANT).resolve('shop_password'))?.value).toBe(value)
  const listed = await send<{ accounts: Array<{ name: string; hosts: string[] }> }>(
    base,
    'GET',
    '/v1/accounts',
    { key: core!.ownerToken },
  )
  expect(listed.body.accounts).toEqual([
    expect.objectContaining({ name: 'api_token', hosts: ['api.example.com'] }),
    expect.objectContaining({
      name: 'shop_password',
      hosts: ['shop.example.com', 'api.example.com:8443'],
    }),
  ])
  expect(JSON.stringify(listed.body)).not.toContain(value)

  await row.getByTestId('secret-delete').click()
  await row.getByTestId('secret-delete-confirm').click()
  await expect(page.getByTestId('secret-row')).toHaveCount(1)
  expect(core!.vault.list(LOCAL_TENANT).map((s) => s.name)).toEqual(['api_token'])
})

test('Logins: a saved login shows its site, state and last use; sign in again opens a browser; forget deletes it', async ({
  page,
}) => {
  const base = await startCore('settings e2e passphrase')
  orders = await startOrdersSite()
  await saveOrderToolAndLogin(core!, orders)
  await page.goto(`${base}/app/?token=${core!.ownerToken}#/logins`)
  const row = page.getByTestId('login-row').filter({ hasText: orders.host })
  await expect(row).toBeVisible()
  await expect(row.getByTestId('login-state')).toContainText('saved')
  await expect(row.getByTestId('login-last-used')).toHaveText('never')
  await page.screenshot({ path: join(SHOTS, 'ui-logins.png'), fullPage: true })

  await row.getByTestId('login-sign-in').click()
  const panel = page.getByTestId('sign-in-panel')
  await expect(panel).toContainText('in the browser below')
  await expect(row.getByTestId('login-sign-in')).toBeDisabled()
  await panel.getByRole('button', { name: 'Cancel' }).click()
  await expect(panel).not.toContainText('in the browser below')
  await expect(row.getByTestId('login-sign-in')).toBeEnabled()

  await row.getByTestId('login-forget').click()
  await row.getByTestId('login-forget-confirm').click()
  await expect(page.getByTestId('login-row')).toHaveCount(0)
  expect(core!.logins.list(LOCAL_TENANT)).toEqual([])
})
