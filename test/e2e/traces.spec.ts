import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test, type Page } from '@playwright/test'
import { directoryAppEachTest, SHOTS } from './directoryApp'
import { type Core } from '../../src/main/core'
import { type DirectorySite } from '../fixtures/sites/directory'
import { expectAccessible } from './axe'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

let site: DirectorySite
let core: Core
let base: string

directoryAppEachTest('traces', (app) => ({ site, core, base } = app))

/** Records one search of the directory through the app, as a person would, and stops. */
async function recordSearch(page: Page): Promise<void> {
  await page.goto(`${base}/app/?token=${core.ownerToken}`)
  await page.getByTestId('record-url').fill(`${site.url}/`)
  await page.getByTestId('record-intent').fill('search the AI tools directory by keyword')
  await page.getByTestId('record-start').click()
  await expect(page.getByTestId('record-stop')).toBeVisible()
  await expect.poll(() => core.recordings.current()?.sessionId ?? null).not.toBeNull()
  const recorded = core.recordings.recording(core.recordings.current()!.sessionId)!.page
  await recorded.getByLabel('Search AI tools').fill('writing')
  await recorded.getByRole('button', { name: 'Search' }).click()
  await expect(recorded.locator('#results li').first()).toBeVisible()
  await page.getByTestId('record-stop').click()
  await expect(page.getByTestId('candidate-review')).toBeVisible()
}

test('browses a recording’s requests and timeline, compiles one request, exports HAR and deletes it', async ({
  page,
}) => {
  await recordSearch(page)
  await page.getByTestId('nav-traces').click()
  const traceRow = page.getByTestId('trace-row')
  await expect(traceRow).toHaveCount(1)
  await expectAccessible(page, 'the trace list')
  await page.screenshot({ path: join(SHOTS, 'ui-traces.png'), fullPage: true })
  await traceRow.getByRole('link').click()

  // Requests: filter to fetch/XHR, search, open one.
  const rows = page.getByTestId('trace-exchange')
  await expect(rows.filter({ hasText: '/api/search' })).toHaveCount(1)
  const all = await rows.count()
  await page.getByTestId('exchange-filter').selectOption('fetch')
  await expect(rows.filter({ hasText: '/api/search' })).toHaveCount(1)
  expect(await rows.count()).toBeLessThan(all)
  await page.getByTestId('exchange-search').fill('SEARCH')
  await expect(rows).toHaveCount(1)
  // Keyboard: the row's button takes focus and Enter opens it.
  await rows.getByRole('button').focus()
  await page.keyboard.press('Enter')
  const detail = page.getByTestId('exchange-detail')
  await expect(detail).toContainText('POST')
  await expect(detail.getByLabel('request body')).toContainText('"query": "writing"')
  await expect(detail.getByLabel('response headers')).toContainText('content-type')
  await expectAccessible(page, 'a trace with a request open')
  await page.screenshot({ path: join(SHOTS, 'ui-trace-requests.png'), fullPage: true })

  // Timeline: the search request sits under what the person did just before it.
  await page.getByTestId('tab-timeline').click()
  const step = page.getByTestId('timeline-step').filter({ hasText: 'POST /api/search' })
  await expect(step).toHaveCount(1)
  await expect(step.locator('strong')).not.toHaveText('The start page loaded')
  await expectAccessible(page, 'a trace timeline')
  await page.screenshot({ path: join(SHOTS, 'ui-trace-timeline.png'), fullPage: true })

  // Export HAR: a HAR 1.2 file with every request of the trace.
  const download = page.waitForEvent('download')
  await page.getByTestId('export-har').click()
  const file = await (await download).path()
  const har = JSON.parse(readFileSync(file, 'utf8')) as {
    log: { version: string; entries: Array<{ request: { url: string } }> }
  }
  expect(har.log.version).toBe('1.2')
  expect(har.log.entries.length).toBe(all)
  expect(har.log.entries.some((e) => e.request.url.endsWith('/api/search'))).toBe(true)

  // Compile this request: a candidate made from exactly this exchange.
  const before = core.store.tools.list().length
  await detail.getByTestId('compile-exchange').click()
  await expect(page.getByTestId('candidate-review')).toBeVisible()
  expect(core.store.tools.list().length).toBe(before + 1)

  // Delete: gone from the list; the tools made from it stay.
  await page.getByTestId('nav-traces').click()
  await traceRow.getByRole('link').click()
  page.once('dialog', (dialog) => void dialog.accept())
  await page.getByTestId('delete-trace').click()
  await expect(page.getByText('No recordings yet')).toBeVisible()
  expect(core.store.traces.list()).toHaveLength(0)
  expect(core.store.tools.list().length).toBe(before + 1)
})

test('a HAR file picked on Record becomes a recording with a candidate', async ({ page }) => {
  await page.goto(`${base}/app/?token=${core.ownerToken}#/record`)
  await expect(page.getByTestId('har-drop')).toBeVisible()
  await expectAccessible(page, 'Record with the HAR drop zone')
  // Without an intent there is nothing to compile for: the page says so and imports nothing.
  await page.getByTestId('har-file').setInputFiles(join(root, 'test/fixtures/har/chrome.har'))
  await expect(page.getByTestId('har-drop').getByRole('alert')).toContainText('what the tool')
  expect(core.store.traces.list()).toHaveLength(0)

  await page.getByTestId('record-intent').fill('find red things')
  await page.getByTestId('har-file').setInputFiles(join(root, 'test/fixtures/har/chrome.har'))
  await expect(page.getByTestId('candidate-target')).toContainText('/api/search')
  const [trace] = core.store.traces.list()
  expect(trace).toMatchObject({ intent: 'find red things', exchangeCount: 5 })
  await page.getByTestId('nav-traces').click()
  await expect(page.getByTestId('trace-row')).toContainText('find red things')
})
