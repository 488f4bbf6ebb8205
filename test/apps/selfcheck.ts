/**
 * Proves the answer keys of the real-app corpus by hand (issue 9: "an answer key written by
 * replaying the target by hand with a changed value — not by running the compiler"): a fresh
 * instance of each app, the user signed in by script, every key's `replayByHand`.
 *
 * Run: `npx tsx test/apps/selfcheck.ts [app ...]`. Exit 1 when any key fails.
 */
import { loadApps } from './registry'

async function main(): Promise<void> {
  let failed = 0
  for (const app of await loadApps(process.argv.slice(2))) {
    const why = app.unavailable()
    if (why) {
      console.log(`${app.name}: skipped (${why})`)
      continue
    }
    const started = Date.now()
    const inst = await app.start()
    console.log(`${app.name}: started in ${Date.now() - started} ms at ${inst.origin}`)
    try {
      for (const wf of app.workflows) {
        try {
          const session = await inst.signIn()
          await wf.key.replayByHand(inst, session)
          console.log(`  ok   ${wf.id}`)
        } catch (error) {
          failed++
          console.log(`  FAIL ${wf.id}: ${(error as Error).message}`)
        }
      }
    } finally {
      await inst.close()
    }
  }
  if (failed) process.exitCode = 1
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
