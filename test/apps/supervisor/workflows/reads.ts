/**
 * Supervisor workflows that only read: the status page (every program with its state), and one
 * program's tail page, opened by clicking its name in the table.
 */
import type { Workflow } from '../../types'
import { mustPass, resultText } from '../keys'
import { openHomeSignedIn, openTail, programRow } from '../person'
import { NAMESPECS, TAIL_SET, seeded } from '../seed'
import { getText } from '../session'

/** Opens the status page: every program in one table, nothing typed or picked. */
export const listPrograms: Workflow = {
  id: 'list_programs',
  intent: 'list the programs Supervisor manages and their state',
  rewordings: {
    terse: 'supervisor programs',
    chatty:
      "Can you pull up Supervisor's status page and tell me which programs it runs on this box and whether each one is up?",
    withoutValue: 'what is Supervisor running right now?',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openHomeSignedIn(page, app)
    await programRow(page, 'batch:mailer').waitFor()
  },
  key: {
    target: { method: 'GET', path: '/' },
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const html = await getText(app, session, '/')
      mustPass(
        await listPrograms.key.check(app, { status: 'succeeded', result: html }, session, []),
      )
    },
    async check(_app, run) {
      const text = resultText(run.result)
      const missing = NAMESPECS.filter((spec) => !text.includes(spec))
      if (missing.length) return `the answer does not list ${missing.join(', ')}`
      return /\brunning\b/i.test(text) && /\bstopped\b/i.test(text)
        ? null
        : 'the answer shows no program states'
    },
  },
}

/**
 * Clicks a program's name in the status table: its tail page (the last 1024 bytes of its stdout
 * log, `GET /tail.html?processname=<name>`) opens in a new tab. The program is what the person
 * picked.
 */
export const tailLog: Workflow = {
  id: 'tail_log',
  intent: 'show the log of the nightly-backup program in Supervisor',
  rewordings: {
    terse: 'tail nightly-backup',
    chatty:
      "Did last night's backup go through? Could you open the nightly-backup program's output in Supervisor and show me what it printed?",
    withoutValue: 'show the output log of one of the Supervisor programs',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openHomeSignedIn(page, app)
    await openTail(page, 'nightly-backup', seeded('nightly-backup').lines[1]!)
  },
  key: {
    target: { method: 'GET', path: '/tail.html' },
    inputs: [{ recorded: 'nightly-backup', changed: ['disk-report', 'cert-check'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const spec = 'disk-report'
      const html = await getText(app, session, `/tail.html?processname=${spec}`)
      mustPass(await tailLog.key.check(app, { status: 'succeeded', result: html }, session, [spec]))
    },
    async check(_app, run, _session, used) {
      const spec = String(used[0])
      const text = resultText(run.result)
      const lines = seeded(spec).lines
      const missing = lines.filter((line) => !text.includes(line))
      if (missing.length) return `the answer is not ${spec}'s log (no "${missing[0]}")`
      const others = TAIL_SET.filter(
        (other) => other !== spec && seeded(other).lines.some((line) => text.includes(line)),
      )
      return others.length ? `the answer shows ${others.join(', ')}'s log too` : null
    },
  },
}
