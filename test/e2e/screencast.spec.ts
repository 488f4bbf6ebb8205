import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import type { Page as RecordedPage } from 'playwright-core'
import { expectAccessible } from './axe'
import { recordedPage, SHOTS, startDirectoryApp, stopApp, type DirectoryApp } from './directoryApp'

const INTENT = 'search the AI tools directory by keyword'

let app: DirectoryApp

// The paste test copies in the app and pastes into the picture through the system clipboard.
test.use({ permissions: ['clipboard-read', 'clipboard-write'] })

test.beforeEach(async () => {
  app = await startDirectoryApp('screencast')
})

test.afterEach(async ({ page }) => {
  await stopApp(app, page)
})

/** Starts a recording from the Record view; the core runs Chromium headless (no display). */
async function startRecording(page: Page): Promise<RecordedPage> {
  await page.goto(`${app.base}/app/?token=${app.core.ownerToken}#/record`)
  await page.getByTestId('record-url').fill(`${app.site.url}/`)
  await page.getByTestId('record-intent').fill(INTENT)
  await page.getByTestId('record-start').click()
  await expect(page.getByTestId('screencast-view')).toHaveAttribute('data-status', 'live')
  await expect(page.locator('.sc-frame')).toBeVisible()
  return recordedPage(app.core)
}

/**
 * Where on the app's page a person sees a point of the recorded page: the picture shows the
 * whole viewport scaled into its box. The recorded page only tells where its element is, as the
 * person's eyes would; every click and key goes through the view.
 */
async function onPicture(page: Page, recorded: RecordedPage, selector: string) {
  const target = (await recorded.locator(selector).boundingBox())!
  const picture = (await page.locator('.sc-frame').boundingBox())!
  const viewport = recorded.viewportSize()!
  return {
    x: picture.x + ((target.x + target.width / 2) * picture.width) / viewport.width,
    y: picture.y + ((target.y + target.height / 2) * picture.height) / viewport.height,
  }
}

test('a person records through the in-page view: clicks, types and scrolls in the screencast', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1100, height: 1000 })
  await page.goto(`${app.base}/app/?token=${app.core.ownerToken}#/record`)
  await expect(page.getByTestId('record-start')).toBeVisible()
  await expectAccessible(page, 'Record, idle')
  await page.screenshot({ path: join(SHOTS, 'ui-record-screencast-idle.png'), fullPage: true })

  const recorded = await startRecording(page)
  await expect(page.getByTestId('screencast-url')).toHaveValue(`${app.site.url}/`)
  await expect(page.getByTestId('screencast-back')).toBeDisabled()
  // The picture is scaled: the 1280 px wide page is shown narrower than that.
  const picture = (await page.locator('.sc-frame').boundingBox())!
  expect(picture.width).toBeLessThan(recorded.viewportSize()!.width)

  // Click the search box in the picture, type, press Enter: the site searches.
  const box = await onPicture(page, recorded, '#q')
  await page.mouse.click(box.x, box.y)
  await expect(page.getByTestId('screencast-view')).toBeFocused()
  await page.keyboard.type('draft')
  await expect(recorded.locator('#q')).toHaveValue('draft')
  // A double click selects the word, and typing replaces it.
  await page.mouse.dblclick(box.x, box.y)
  await expect
    .poll(() =>
      recorded
        .locator('#q')
        .evaluate((el: HTMLInputElement) => [el.selectionStart, el.selectionEnd]),
    )
    .toEqual([0, 5])
  await page.keyboard.type('writing')
  await expect(recorded.locator('#q')).toHaveValue('writing')
  await page.keyboard.press('Enter')
  await expect(recorded.locator('#results li')).toHaveCount(12)
  await expect(page.getByTestId('exchange-row').filter({ hasText: '/api/search' })).toHaveCount(1)

  // The wheel over the picture scrolls the page, and the picture follows.
  await page.mouse.move(box.x, box.y + 200)
  await page.mouse.wheel(0, 400)
  await expect.poll(() => recorded.evaluate(() => window.scrollY)).toBeGreaterThan(0)
  await expectAccessible(page, 'Record, recording in the in-page view')
  await page.screenshot({ path: join(SHOTS, 'ui-record-screencast-recording.png'), fullPage: true })

  // F6 leaves the picture for the address bar, as in a browser.
  await page.locator('.sc-frame').click({ position: { x: 5, y: 5 } })
  await page.keyboard.press('F6')
  await expect(page.getByTestId('screencast-url')).toBeFocused()

  const sessionId = app.core.recordings.current()!.sessionId
  await page.getByTestId('record-stop').click()
  await expect(page.getByTestId('candidate-target')).toContainText('/api/search')
  const result = await app.core.recordings.finished(sessionId)
  const trace = app.core.store.traces.get(result.traceId)!
  const search = trace.exchanges.find((e) => e.url.endsWith('/api/search'))!
  expect(search.method).toBe('POST')
  expect(JSON.parse(search.requestBody!.text)).toMatchObject({ query: 'writing' })
  expect(trace.actions.map((a) => a.kind)).toEqual(expect.arrayContaining(['click', 'fill']))
  expect(result.candidate?.inputs.required).toEqual(['query'])
})

test('the address bar goes to a typed address, back and forward, and refuses others', async ({
  page,
}) => {
  const recorded = await startRecording(page)
  // A reload of the app's tab finds the running recording and opens its view again.
  await page.reload()
  await expect(page.getByTestId('screencast-view')).toHaveAttribute('data-status', 'live')
  await expect(page.locator('.sc-frame')).toBeVisible()
  const url = page.getByTestId('screencast-url')
  await url.fill(`${app.site.url}/search?query=image`)
  await url.press('Enter')
  await expect(url).toHaveValue(`${app.site.url}/search?query=image`)
  await expect(recorded.locator('#results li').first()).toBeVisible()
  await page.getByTestId('screencast-back').click()
  await expect(url).toHaveValue(`${app.site.url}/`)
  // Back has arrived (a Forward sent while it loads would race it, as in any browser).
  await expect.poll(() => recorded.url()).toBe(`${app.site.url}/`)
  await expect(page.getByTestId('screencast-view')).toHaveAttribute('data-loading', 'false')
  await expect(page.getByTestId('screencast-forward')).toBeEnabled()
  await page.getByTestId('screencast-forward').click()
  await expect(url).toHaveValue(`${app.site.url}/search?query=image`)

  // A paste into the picture types the clipboard's text: copy in the bar, paste over a word.
  await url.fill('code')
  await url.selectText()
  await page.keyboard.press('Control+C')
  await url.press('Escape')
  const field = await onPicture(page, recorded, '#q')
  await page.mouse.dblclick(field.x, field.y)
  await page.keyboard.press('Control+V')
  await expect(recorded.locator('#q')).toHaveValue('code')

  await url.fill('file:///etc/passwd')
  await url.press('Enter')
  await expect(page.getByTestId('screencast-problem')).toContainText('not an http or https')
  expect(recorded.url()).toBe(`${app.site.url}/search?query=image`)

  // A page that has not answered yet: the view says it is loading until it does.
  const held: ServerResponse[] = []
  const slow = createServer((_req, res) => void held.push(res))
  await new Promise<void>((done) => slow.listen(0, '127.0.0.1', done))
  const slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/`
  try {
    await url.fill(slowUrl)
    await url.press('Enter')
    await expect(page.getByTestId('screencast-view')).toHaveAttribute('data-loading', 'true')
    await expect(page.locator('.sc-state')).toHaveText('Loading…')
    // The bar shows where the tab is going, as a browser's does.
    await expect(url).toHaveValue(slowUrl)
    await expectAccessible(page, 'Record, the recorded page loading')
    await page.screenshot({ path: join(SHOTS, 'ui-record-screencast-loading.png'), fullPage: true })
    await expect.poll(() => held.length).toBeGreaterThan(0)
    held[0]!.writeHead(200, { 'content-type': 'text/html' }).end('<title>Slow</title><h1>Late</h1>')
    await expect(page.getByTestId('screencast-view')).toHaveAttribute('data-loading', 'false')
    await expect(url).toHaveValue(slowUrl)
  } finally {
    slow.closeAllConnections()
    slow.close()
  }
})

test('the view says so when the recording browser goes away', async ({ page }) => {
  const recorded = await startRecording(page)
  // The browser ends on its own (a crash, the person quitting it): no Stop was pressed.
  const cdp = await recorded.context().newCDPSession(recorded)
  await cdp.send('Browser.close').catch(() => undefined)
  await expect(page.getByTestId('record-browser-gone')).toBeVisible()
  await expect(page.getByTestId('screencast')).toHaveCount(0)
  await expectAccessible(page, 'Record, after the recording browser went away')
  await page.screenshot({ path: join(SHOTS, 'ui-record-screencast-gone.png'), fullPage: true })
})
