import { join, resolve, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test, type Page } from '@playwright/test'
import type { Core } from '../../src/main/core'
import { coreAppEachTest, SHOTS } from './directoryApp'

// Issue 26 item 2.5: at 820 px the sidebar folds above the page and the trace view's panes
// stack instead of being crushed side by side; views load as their own chunks.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

let core: Core
let base: string

coreAppEachTest('narrow', (app) => ({ core, base } = app))

/** Nothing on the page is wider than the window (no sideways scrolling). */
async function fitsWidth(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)
}

test('at 820 px the sidebar folds above the page and a trace’s panes stack', async ({ page }) => {
  await page.setViewportSize({ width: 820, height: 1000 })
  await page.goto(`${base}/app/?token=${core.ownerToken}#/record`)
  await page.getByTestId('record-intent').fill('find red things')
  await page.getByTestId('har-file').setInputFiles(join(root, 'test/fixtures/har/chrome.har'))
  await expect(page.getByTestId('candidate-target')).toContainText('/api/search')
  const nav = (await page.locator('nav.sidebar').boundingBox())!
  const main = (await page.locator('main.content').boundingBox())!
  expect(nav.width).toBe(820)
  expect(main.y).toBeGreaterThanOrEqual(nav.y + nav.height)
  expect(await fitsWidth(page)).toBe(true)
  await page.screenshot({ path: join(SHOTS, 'ui-narrow-candidate-820.png'), fullPage: true })

  await page.getByTestId('nav-traces').click()
  await page.getByTestId('trace-row').getByRole('link').click()
  await page
    .getByTestId('trace-exchange')
    .filter({ hasText: '/api/search' })
    .getByRole('button')
    .click()
  const list = (await page.locator('.split > *').first().boundingBox())!
  const detail = (await page.getByTestId('exchange-detail').boundingBox())!
  // Stacked: the request's details below the list, each as wide as the page allows.
  expect(detail.y).toBeGreaterThanOrEqual(list.y + list.height)
  expect(detail.width).toBeGreaterThan(700)
  expect(await fitsWidth(page)).toBe(true)
  await page.screenshot({ path: join(SHOTS, 'ui-narrow-trace-820.png'), fullPage: true })

  await page.setViewportSize({ width: 1280, height: 1000 })
  const wide = (await page.locator('nav.sidebar').boundingBox())!
  expect(wide.width).toBeLessThan(250)
  await page.screenshot({ path: join(SHOTS, 'ui-trace-1280.png'), fullPage: true })
})
