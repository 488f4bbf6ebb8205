/**
 * Working tools, end to end, on real apps (issue 9 "Done when": CI starts at least three of the
 * apps and runs the working-tools check on them). For each app below, one fresh instance; every
 * workflow's stored recording and plain HAR is compiled against it, run through a real core's
 * engine with the answer key's changed values, and judged by the key's check. Each must work
 * wherever `test/apps/expected.json` says it does (`working`, written by
 * `npm run corpus:expect -- --live`).
 *
 * The apps are the ones CI can start cheaply and that each bring a kind the others lack: four
 * from npm (already in node_modules; MailDev: REST with ids picked from a list), DokuWiki (apt
 * `dokuwiki php-cli`, ~13 MB) and Monit (apt `monit`, ~1 MB: form actions behind HTTP Basic with
 * a CSRF cookie). One app runs at a time: they share 2 cores with the
 * other test files. An app that cannot run here is skipped with the reason, except when
 * SITECALL_TEST_APPS=1 (set by .ci/run, which installs what they need): then it fails.
 */
import { afterAll, beforeAll, describe, it } from 'vitest'
import type { StorageState } from '../../../src/shared/trace'
import { loadStoredWorkflows } from '../../apps/corpus'
import { byApp } from '../../apps/evaluate'
import { readExpected } from '../../apps/expect'
import type { RecordingPath } from '../../apps/store'
import type { AppInstance } from '../../apps/types'
import { checkWorking } from '../../apps/working'

const APPS = ['verdaccio', 'tiddlywiki', 'nodered', 'dokuwiki', 'maildev', 'monit']
const PATHS: RecordingPath[] = ['recording', 'har']
const MUST_RUN = process.env['SITECALL_TEST_APPS'] === '1'
const REFRESH = 'run `npm run corpus:expect -- --live` and commit test/apps/expected.json'

const entries = await loadStoredWorkflows(APPS)
const expected = readExpected()

for (const [name, group] of byApp(entries)) {
  const app = group[0]!.app
  const why = app.unavailable()
  describe(`${app.title} (${app.source}): working tools`, () => {
    if (why) {
      if (MUST_RUN)
        it('starts (SITECALL_TEST_APPS=1 says it must)', () => {
          throw new Error(`${name} cannot run here: ${why}`)
        })
      else it.skip(`skipped: ${why}`, () => {})
      return
    }
    let inst: AppInstance | undefined
    let session: StorageState
    // Starts take 2–5 s on a quiet machine and up to ~20 s on a loaded 2-core one. The instance
    // stops by itself after 10 minutes should this process die before afterAll.
    beforeAll(async () => {
      inst = await app.start({ lifetimeMs: 10 * 60_000 })
      session = await inst.signIn()
    }, 120_000)
    afterAll(async () => {
      await inst?.close()
    }, 60_000)

    // In the order corpus:expect ran them: the writes of one check may matter to the next, and
    // the recording's check uses the key's first changed value, the HAR's the second.
    for (const entry of group)
      for (const path of PATHS)
        it(`${entry.workflow.id} [${path}]`, { timeout: 120_000 }, async () => {
          const want = expected[entry.ref]?.[path]?.working
          if (want === undefined)
            throw new Error(`${entry.ref} [${path}] has no recorded working figure: ${REFRESH}`)
          const got = await checkWorking(entry, path, inst!, session)
          if (want && !got.working)
            throw new Error(`${entry.ref} [${path}] no longer works: ${got.detail}`)
          // An improvement does not fail: a live figure recorded on a loaded machine may be a
          // fluke, and the accuracy test already keeps the offline figures exact.
          if (!want && got.working)
            console.warn(`${entry.ref} [${path}] works now (expected.json says not): ${REFRESH}`)
        })
  })
}
