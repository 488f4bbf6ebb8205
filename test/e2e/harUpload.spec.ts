import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from '@playwright/test'
import type { Core } from '../../src/main/core'
import { expectAccessible } from './axe'
import { coreAppEachTest, SHOTS } from './directoryApp'

// Issue 26 item 2.2: a HAR far over the old 5 MB refusal is streamed to the service with its
// progress shown, the limit (200 MB) is said on Record, and the import compiles as before.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

let core: Core
let base: string

coreAppEachTest('har-upload', (app) => ({ core, base } = app))

/** The chrome fixture HAR with a script entry of `bytes` in front (DevTools keeps them all). */
function bigHar(bytes: number): Buffer {
  const har = JSON.parse(readFileSync(join(root, 'test/fixtures/har/chrome.har'), 'utf8')) as {
    log: { entries: Array<Record<string, unknown> & { response: Record<string, unknown> }> }
  }
  const first = har.log.entries[0]!
  har.log.entries.unshift({
    ...first,
    request: { ...(first.request as object), url: 'https://shop.example/assets/app.js' },
    response: {
      ...first.response,
      status: 200,
      redirectURL: '',
      content: { size: bytes, mimeType: 'text/javascript', text: 'x'.repeat(bytes) },
    },
  })
  return Buffer.from(JSON.stringify(har))
}

test('a 30 MB HAR is sent with its progress shown and becomes a recording with a candidate', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.goto(`${base}/app/?token=${core.ownerToken}#/record`)
  await expect(page.getByTestId('har-drop')).toContainText('up to 200 MB')
  await page.getByTestId('record-intent').fill('find red things')

  // The import is held once the file is sent, so the page can be seen between the two.
  let release!: () => void
  const held = new Promise<void>((done) => (release = done))
  await page.route('**/app-api/recorder.importHar', async (route) => {
    await held
    await route.continue()
  })
  const file = bigHar(30 * 1024 * 1024)
  await page.getByTestId('har-file').setInputFiles({
    name: 'shop.har',
    mimeType: 'application/json',
    buffer: file,
  })
  const progress = page.getByTestId('har-progress')
  // 30 MB through the page, the socket and the disk: slow on a busy machine.
  await expect(progress).toContainText(
    `Sent shop.har (${(file.length / 1024 / 1024).toFixed(1)} MB); reading and compiling it…`,
    { timeout: 60_000 },
  )
  await expect(progress.getByRole('progressbar')).toHaveAttribute('value', String(file.length))
  await expectAccessible(page, 'Record, a HAR file sent')
  await page.screenshot({ path: join(SHOTS, 'ui-har-upload-1280.png'), fullPage: true })
  await page.setViewportSize({ width: 820, height: 900 })
  await page.screenshot({ path: join(SHOTS, 'ui-har-upload-820.png'), fullPage: true })
  release()

  await expect(page.getByTestId('candidate-target')).toContainText('/api/search', {
    timeout: 60_000,
  })
  expect(core.store.traces.list()).toEqual([
    expect.objectContaining({ intent: 'find red things', exchangeCount: 6 }),
  ])
})
