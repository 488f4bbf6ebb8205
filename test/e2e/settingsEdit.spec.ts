import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import type { Core } from '../../src/main/core'
import { expectAccessible } from './axe'
import { coreAppEachTest, SHOTS } from './directoryApp'

let core: Core
let base: string
let home: string

coreAppEachTest('settings-edit', (app) => ({ home, core, base } = app))

const settingsFile = () => JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8')) as unknown

test('Settings: the Chromium path and result retention are checked, saved and shown in use', async ({
  page,
}) => {
  await page.goto(`${base}/app/?token=${core.ownerToken}#/settings`)
  await expect(page.getByTestId('settings-data-dir')).toHaveText(home)
  await expectAccessible(page, 'Settings')

  const path = page.getByTestId('settings-chromium-path')
  await path.fill('chromium')
  await page.getByTestId('settings-chromium-save').click()
  await expect(page.getByTestId('settings-chromium-error')).toContainText('give the full path')
  await expect(path).toHaveAttribute('aria-invalid', 'true')
  await path.fill(join(home, 'sitecall.db'))
  await page.getByTestId('settings-chromium-save').click()
  await expect(page.getByTestId('settings-chromium-error')).toContainText('not executable')
  await expectAccessible(page, 'Settings, a refused Chromium path')
  await page.screenshot({ path: join(SHOTS, 'ui-settings-error.png'), fullPage: true })

  await path.fill('/usr/bin/chromium')
  await page.getByTestId('settings-chromium-save').click()
  await expect(page.getByTestId('settings-chromium-saved')).toBeVisible()
  await expect(page.getByTestId('settings-chromium')).toHaveText('/usr/bin/chromium')
  expect(settingsFile()).toEqual({ chromiumPath: '/usr/bin/chromium' })

  await page.getByTestId('settings-retention-days').fill('0')
  await page.getByTestId('settings-retention-save').click()
  await expect(page.getByTestId('settings-retention-error')).toContainText(
    'Result retention days must be a whole number from 1 to 3650',
  )
  await page.getByTestId('settings-retention-days').fill('14')
  await page.getByTestId('settings-retention-mb').fill('256')
  await page.getByTestId('settings-retention-save').click()
  await expect(page.getByTestId('settings-retention-saved')).toBeVisible()
  expect(settingsFile()).toEqual({
    chromiumPath: '/usr/bin/chromium',
    resultRetention: { days: 14, maxMB: 256 },
  })
  await page.screenshot({ path: join(SHOTS, 'ui-settings.png'), fullPage: true })

  // What was saved is what the page shows after a reload.
  await page.reload()
  await expect(page.getByTestId('settings-retention-days')).toHaveValue('14')
  await expect(page.getByTestId('settings-chromium-path')).toHaveValue('/usr/bin/chromium')
})
