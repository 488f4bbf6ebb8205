/**
 * Records the real-app corpus (issue 9 "The corpus, rebuilt on apps you did not write"): for each
 * app, a fresh instance, each workflow played by its scripted person through Sitecall's own
 * recorder (actions + requests); then a second fresh instance, each workflow played again in a
 * plain Playwright context that writes a HAR (no actions), as a user's DevTools export would be.
 * Each recording must hold its answer key's target, or nothing is written for it.
 *
 * Run: `npm run corpus:record [-- app ...] [--workflow id]`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { requireChromium } from '../../src/main/recorder/chromium'
import { startRecording } from '../../src/main/recorder/traceRecorder'
import type { Har } from '../../src/main/recorder/har'
import type { StorageState } from '../../src/shared/trace'
import { launchChromium, playwrightState } from './browser'
import { exchangeMatches } from './match'
import { loadApps } from './registry'
import { writeStored } from './store'
import type { AppDefinition, AppInstance, Workflow } from './types'

async function recordWithRecorder(
  app: AppDefinition,
  inst: AppInstance,
  wf: Workflow,
): Promise<void> {
  const session = wf.signedIn ? await inst.signIn() : undefined
  const recording = await startRecording({
    chromiumPath: requireChromium(),
    url: `${inst.origin}${wf.startPath}`,
    intent: wf.intent,
    traceId: `trc_app_${app.name}_${wf.id}`,
    sessionId: `rec_${wf.id}`,
    headless: true,
    ...(session ? { storageState: session } : {}),
  })
  try {
    await wf.play(recording.page, inst)
  } catch (error) {
    await recording.stop()
    throw error
  }
  const trace = await recording.stop()
  if (!trace.exchanges.some((e) => exchangeMatches(e, wf.key.target)))
    throw new Error(`the recorded trace has no request matching the key's target`)
  if (JSON.stringify(trace).includes(inst.user.password))
    throw new Error('the recorded trace holds the typed password')
  console.log(
    `  recording ${wf.id}: ${trace.exchanges.length} exchanges, ${trace.actions.length} actions → ${writeStored(app.name, wf.id, 'recording', { origin: inst.origin, trace })}`,
  )
}

async function recordHar(app: AppDefinition, inst: AppInstance, wf: Workflow): Promise<void> {
  const session: StorageState | undefined = wf.signedIn ? await inst.signIn() : undefined
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-har-'))
  const harPath = join(dir, 'workflow.har')
  const browser = await launchChromium()
  try {
    const context = await browser.newContext({
      recordHar: { path: harPath, content: 'embed' },
      ...(session ? { storageState: playwrightState(session) } : {}),
    })
    const page = await context.newPage()
    // A start page behind HTTP Basic/Digest fails to load in a browser without credentials
    // (net::ERR_INVALID_AUTH_CREDENTIALS); the scripted person answers the login in `play`.
    await page
      .goto(`${inst.origin}${wf.startPath}`, { waitUntil: 'domcontentloaded' })
      .catch((error: Error) => {
        if (!/ERR_INVALID_AUTH_CREDENTIALS|401/.test(error.message)) throw error
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
    console.log(
      `  har ${wf.id}: ${har.log.entries.length} entries → ${writeStored(app.name, wf.id, 'har', { origin: inst.origin, har })}`,
    )
  } finally {
    await browser.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const only = args.includes('--workflow') ? args[args.indexOf('--workflow') + 1] : undefined
  const names = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--workflow')
  let failed = 0
  for (const app of await loadApps(names)) {
    const why = app.unavailable()
    if (why) {
      console.log(`${app.name}: skipped (${why})`)
      continue
    }
    const workflows = app.workflows.filter((w) => !only || w.id === only)
    for (const [label, record] of [
      ['recorder', recordWithRecorder],
      ['har', recordHar],
    ] as const) {
      console.log(`${app.name}: ${label} pass on a fresh instance`)
      const inst = await app.start()
      try {
        for (const wf of workflows) {
          try {
            await record(app, inst, wf)
          } catch (error) {
            failed++
            console.error(`  ${label} ${wf.id}: FAILED ${(error as Error).stack ?? String(error)}`)
          }
        }
      } finally {
        await inst.close()
      }
    }
  }
  if (failed) {
    console.error(`${failed} recording(s) failed`)
    process.exitCode = 1
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
