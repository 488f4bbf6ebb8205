/**
 * Records the recorder pass of Radicale's workflows, which the shared `test/apps/record.ts`
 * refuses. Radicale's web UI opens every XMLHttpRequest with the user name and password its
 * login form holds (`xhr.open(method, url, true, user, password)`), so Chromium reports each of
 * those requests with the credentials as the URL's userinfo
 * (`http://alice:<password>@127.0.0.1:<port>/alice/`); record.ts's guard ("the recorded trace
 * holds the typed password") searches the whole trace, URLs included, and fails every workflow.
 * Sitecall's store treats URL userinfo as a credential and seals it at rest
 * (`src/main/store/traceCredentials.ts`), like `Authorization` values.
 *
 * This script does what that pass does (a fresh instance, each workflow played through
 * Sitecall's recorder, the key's target required, the trace stored as recorded), except that the
 * password guard looks at the trace with the userinfo taken out of its URLs: it still refuses a
 * trace whose actions, bodies or headers hold the typed password.
 *
 * Run after `npm run corpus:record -- radicale` (which writes the HARs; its recorder pass fails
 * on the guard): `npx tsx test/apps/radicale/recordTraces.ts [--workflow id]`.
 */
import { requireChromium } from '../../../src/main/recorder/chromium'
import { startRecording } from '../../../src/main/recorder/traceRecorder'
import { withoutUserinfo } from '../../../src/shared/httpChallenge'
import type { Trace } from '../../../src/shared/trace'
import { exchangeMatches } from '../match'
import { writeStored } from '../store'
import type { AppInstance, Workflow } from '../types'
import { app } from './index'

/** The trace with the userinfo taken out of every exchange's URL and page URL. */
function withoutUrlCredentials(trace: Trace): Trace {
  return {
    ...trace,
    exchanges: trace.exchanges.map((e) => ({
      ...e,
      url: withoutUserinfo(e.url),
      pageUrl: withoutUserinfo(e.pageUrl),
    })),
  }
}

/** Records one workflow through Sitecall's recorder on `inst` and stores the trace. */
async function recordTrace(inst: AppInstance, wf: Workflow): Promise<void> {
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
  if (JSON.stringify(withoutUrlCredentials(trace)).includes(inst.user.password))
    throw new Error('the recorded trace holds the typed password outside URL userinfo')
  const file = writeStored(app.name, wf.id, 'recording', { origin: inst.origin, trace })
  console.log(
    `  recording ${wf.id}: ${trace.exchanges.length} exchanges, ${trace.actions.length} actions → ${file}`,
  )
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const only = args.includes('--workflow') ? args[args.indexOf('--workflow') + 1] : undefined
  const why = app.unavailable()
  if (why) throw new Error(why)
  console.log(`${app.name}: recorder pass on a fresh instance`)
  const inst = await app.start()
  let failed = 0
  try {
    for (const wf of app.workflows.filter((w) => !only || w.id === only)) {
      try {
        await recordTrace(inst, wf)
      } catch (error) {
        failed++
        console.error(`  recorder ${wf.id}: FAILED ${(error as Error).stack ?? String(error)}`)
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
