/**
 * Records the plain HAR of Syncthing's signed-out workflows, which the shared
 * `test/apps/record.ts` cannot: its HAR pass opens the start page with `page.goto` before the
 * workflow plays, and against Syncthing 1.19 that first load is the GUI's HTTP Basic challenge,
 * which Chromium without credentials cancels, so `page.goto` rejects with
 * `net::ERR_INVALID_AUTH_CREDENTIALS` and the workflow never plays. This script does what that
 * pass does (a fresh instance, a plain Playwright context writing a HAR, the workflow's `play`,
 * the key's target required in the HAR), except that the first load may meet the login: the
 * person then answers it in `play` (see `answerLogin` in `person.ts`).
 *
 * Run after `npm run corpus:record -- syncthing`: `npx tsx test/apps/syncthing/recordSignedOutHar.ts`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Har } from '../../../src/main/recorder/har'
import { launchChromium } from '../browser'
import { exchangeMatches } from '../match'
import { writeStored } from '../store'
import type { AppInstance, Workflow } from '../types'
import { app } from './index'

/** Records one signed-out workflow's HAR on `inst` and stores it; throws when it went wrong. */
async function recordHar(inst: AppInstance, wf: Workflow): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-har-'))
  const harPath = join(dir, 'workflow.har')
  const browser = await launchChromium()
  try {
    const context = await browser.newContext({ recordHar: { path: harPath, content: 'embed' } })
    const page = await context.newPage()
    await page
      .goto(`${inst.origin}${wf.startPath}`, { waitUntil: 'domcontentloaded' })
      .catch((error: Error) => {
        // The login the person answers next; anything else is a real failure.
        if (!error.message.includes('ERR_INVALID_AUTH_CREDENTIALS')) throw error
      })
    await wf.play(page, inst)
    await context.close()
    const har = JSON.parse(readFileSync(harPath, 'utf8')) as Har
    const found = har.log.entries.some((entry) =>
      exchangeMatches(
        {
          method: entry.request.method,
          url: entry.request.url,
          requestBody: entry.request.postData?.text
            ? { text: entry.request.postData.text, encoding: 'utf8' }
            : null,
        } as never,
        wf.key.target,
      ),
    )
    if (!found) throw new Error(`the HAR has no request matching the key's target`)
    const file = writeStored(app.name, wf.id, 'har', { origin: inst.origin, har })
    console.log(`  har ${wf.id}: ${har.log.entries.length} entries → ${file}`)
  } finally {
    await browser.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

async function main(): Promise<void> {
  const why = app.unavailable()
  if (why) throw new Error(why)
  console.log(`${app.name}: har pass of the signed-out workflows on a fresh instance`)
  const inst = await app.start()
  let failed = 0
  try {
    for (const wf of app.workflows.filter((w) => !w.signedIn)) {
      try {
        await recordHar(inst, wf)
      } catch (error) {
        failed++
        console.error(`  har ${wf.id}: FAILED ${(error as Error).stack ?? String(error)}`)
      }
    }
  } finally {
    await inst.close()
  }
  if (failed) process.exitCode = 1
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
