import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test, type Page } from '@playwright/test'
import { SHOTS } from './directoryApp'
import { createCore, type Core } from '../../src/main/core'
import { searchRecords, startDirectorySite, type DirectorySite } from '../fixtures/sites/directory'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
// `npm run test:e2e` builds it first; the test drives the real bundle, not a dev server.
const rendererDir = join(root, 'out/renderer')

let site: DirectorySite
let core: Core
let base: string
let home: string

test.beforeEach(async () => {
  expect(existsSync(join(rendererDir, 'index.html')), 'run `npm run build:renderer` first').toBe(
    true,
  )
  home = mkdtempSync(join(tmpdir(), 'sitecall-ui-e2e-'))
  site = await startDirectorySite()
  core = createCore({ home, port: 0, headless: true, rendererDir })
  base = await core.listen()
})

test.afterEach(async ({ page }) => {
  // The UI's event stream holds a connection open, and the server's close waits for it.
  await page.close()
  await core.close()
  await site.close()
  rmSync(home, { recursive: true, force: true })
})

/** Waits for the session the UI started and returns the recorder's own page. */
async function recordedPage(): Promise<Page> {
  await expect.poll(() => core.recordings.current()?.sessionId ?? null).not.toBeNull()
  const sessionId = core.recordings.current()!.sessionId
  return core.recordings.recording(sessionId)!.page
}

/** Opens the web UI with the owner token and starts a recording of the directory site. */
async function startRecording(page: Page): Promise<Page> {
  await page.goto(`${base}/app/?token=${core.ownerToken}`)
  await expect(page.getByTestId('status-line')).toBeVisible()
  // The token leaves the visible URL once it is kept for the session.
  expect(page.url()).not.toContain(core.ownerToken)
  await page.getByTestId('nav-record').click()
  await page.getByTestId('record-url').fill(`${site.url}/`)
  await page.getByTestId('record-intent').fill('search the AI tools directory by keyword')
  await page.getByTestId('record-start').click()
  await expect(page.getByTestId('record-stop')).toBeVisible()
  return recordedPage()
}

/** The scripted person, in the recording browser: searches the directory for `query`. */
async function search(recorded: Page, query: string): Promise<void> {
  await recorded.getByLabel('Search AI tools').fill(query)
  await recorded.getByRole('button', { name: 'Search' }).click()
  const expected = searchRecords(site.records, { query, verified: false, page: 1, perPage: 12 })
  await expect(recorded.locator('#results li')).toHaveCount(expected.data.length)
}

test('records a search in the web UI, reviews and verifies the candidate, and runs the tool', async ({
  page,
}) => {
  const recorded = await startRecording(page)
  await search(recorded, 'writing')

  // The Record view lists the captured requests as they arrive.
  const searchRow = page.getByTestId('exchange-row').filter({ hasText: '/api/search' })
  await expect(searchRow.first()).toBeVisible()
  await expect(searchRow.first()).toContainText('POST')
  await page.screenshot({ path: join(SHOTS, 'ui-record.png'), fullPage: true })

  await page.getByTestId('record-stop').click()
  const review = page.getByTestId('candidate-review')
  await expect(review).toBeVisible()
  await expect(page.getByTestId('candidate-target')).toContainText('POST')
  await expect(page.getByTestId('candidate-target')).toContainText('/api/search')
  await expect(page.getByTestId('evidence-signals').locator('tr').first()).toBeVisible()
  const slot = page.getByTestId('slot-row').filter({ hasText: 'query' })
  await expect(slot).toContainText('p0')
  await expect(slot).toContainText('string')
  await expect(page.getByTestId('verify-rule')).toContainText('application/json')
  await expect(page.getByTestId('output-schema')).toContainText('list of object')
  await page.screenshot({ path: join(SHOTS, 'ui-candidate.png'), fullPage: true })

  await page.getByTestId('verify-button').click()
  await expect(page.getByTestId('run-status')).toHaveText('succeeded')
  await expect(page.getByTestId('verified-notice')).toBeVisible()
  await expect(review.locator('.badge').first()).toHaveText('verified')

  await page.getByTestId('nav-tools').click()
  const row = page.getByTestId('tool-row')
  await expect(row).toHaveCount(1)
  await expect(row).toContainText('verified')
  await row.locator('a').click()
  const form = page.getByTestId('run-form')
  await form.locator('input[name="query"]').fill('image')
  await page.getByTestId('run-button').click()
  await expect(page.getByTestId('run-status')).toHaveText('succeeded')
  const shown = JSON.parse((await page.getByTestId('run-result').textContent()) ?? 'null')
  const expected = searchRecords(site.records, {
    query: 'image',
    verified: false,
    page: 1,
    perPage: 12,
  })
  expect(expected.data.length).toBeGreaterThan(0)
  expect(shown).toEqual(expected)
  await page.screenshot({ path: join(SHOTS, 'ui-tool-run.png'), fullPage: true })
})

test('compiles an alternative request instead of the chosen one, from the review and the tool page', async ({
  page,
}) => {
  const recorded = await startRecording(page)
  // A first search with a prefix of the final query: the compiler's runner-up (a typeahead).
  await search(recorded, 'writ')
  await search(recorded, 'writing')
  await page.getByTestId('record-stop').click()

  const target = page.getByTestId('candidate-target')
  await expect(target).toContainText('"query":"writing"')
  const firstName = await page.getByTestId('candidate-review').locator('h2').textContent()
  const alternative = page
    .getByTestId('alternative-row')
    .filter({ hasText: '/api/search' })
    .filter({ hasText: 'prefix' })
  await expect(alternative).toHaveCount(1)
  await expect(alternative).toContainText('POST')
  await alternative.getByTestId('use-alternative').click()

  // The review now shows the candidate compiled from the earlier request.
  await expect(target).toContainText('"query":"writ"')
  await expect(page.getByTestId('replaced-notice')).toContainText(firstName!)
  await expect(page.getByTestId('candidate-review').locator('h2')).not.toHaveText(firstName!)
  await page.screenshot({ path: join(SHOTS, 'ui-alternative.png'), fullPage: true })
  // The earlier candidate can go; the new one stays.
  await page.getByTestId('replaced-notice').getByRole('button', { name: 'Delete it' }).click()
  await expect(page.getByTestId('replaced-notice')).toContainText('was deleted')
  expect(core.store.tools.list().map((t) => t.name)).not.toContain(firstName)

  // From the tool page of that candidate, switch back to the full query.
  await page.getByRole('link', { name: 'Open tool page' }).click()
  const pageOfSwitched = page.url()
  await expect(target).toContainText('"query":"writ"')
  const back = page.getByTestId('alternative-row').filter({ hasText: '/api/search' })
  await back.first().getByTestId('use-alternative').click()
  await expect(page).not.toHaveURL(pageOfSwitched)
  await expect(target).toContainText('"query":"writing"')
  await expect(page.getByTestId('replaced-notice')).toBeVisible()
  await expect(page.getByTestId('slot-row').filter({ hasText: 'query' })).toContainText('p0')
})

test('shows empty states, and an error banner for a tool that does not exist', async ({ page }) => {
  await page.goto(`${base}/app/?token=${core.ownerToken}#/tools`)
  await expect(page.getByText('No tools yet')).toBeVisible()
  await page.goto(`${base}/app/#/tools/no-such-tool`)
  const banner = page.getByTestId('error-banner')
  await expect(banner).toContainText('not_found')
  await expect(page.getByText('This tool could not be loaded')).toBeVisible()
  await page.screenshot({ path: join(SHOTS, 'ui-error.png'), fullPage: true })
  await banner.getByRole('button', { name: 'Dismiss' }).click()
  await expect(banner).toHaveCount(0)
  await page.getByTestId('nav-keys').click()
  await expect(page.getByText('No keys yet')).toBeVisible()
})
