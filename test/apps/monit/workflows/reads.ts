/**
 * Monit workflows that only read: the home page (every service with its status), one service's
 * page picked in its list, and the log file, which the runtime page shows through a form post
 * (`POST /_viewlog` with the page's token).
 */
import type { Workflow } from '../../types'
import { mustPass, resultText } from '../keys'
import { openHomeSignedIn, openService, statusRow } from '../person'
import { HOST, PROGRAM_GROUP, SERVICES, seeded } from '../seed'
import { getText } from '../session'

/** The names of the seeded services `text` does not mention. */
function missingServices(text: string): string[] {
  return SERVICES.map((s) => s.name).filter((name) => !text.includes(name))
}

/** Opens the home page: every service, in one table per kind, nothing typed or picked. */
export const listServices: Workflow = {
  id: 'list_services',
  intent: 'list the services Monit is monitoring',
  rewordings: {
    terse: 'monit services',
    chatty:
      'Could you pull up everything Monit is keeping an eye on on this box, with how each one is doing?',
    withoutValue: "what is Monit watching and what's the status of each?",
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openHomeSignedIn(page, app)
    await page.getByRole('link', { name: 'nightly-backup', exact: true }).waitFor()
  },
  key: {
    target: { method: 'GET', path: '/' },
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const html = await getText(app, session, '/')
      mustPass(
        await listServices.key.check(app, { status: 'succeeded', result: html }, session, []),
      )
    },
    async check(_app, run) {
      const text = resultText(run.result)
      const missing = missingServices(text)
      return missing.length ? `the answer does not list ${missing.join(', ')}` : null
    },
  },
}

/**
 * Clicks a program check in the home page's Program table and reads its page: status, last exit
 * value and last output. The program is what the person picked.
 */
export const serviceStatus: Workflow = {
  id: 'service_status',
  intent: 'show the status of the nightly-backup check in Monit',
  rewordings: {
    terse: 'monit status nightly-backup',
    chatty:
      "Did last night's backup go through? Can you open the nightly-backup check in Monit and tell me its status and what it printed?",
    withoutValue: 'show the details of one of the Monit checks',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openHomeSignedIn(page, app)
    await openService(page, 'nightly-backup')
    await statusRow(page, 'Last output').getByText('backup finished').waitFor()
  },
  key: {
    target: { method: 'GET', path: /\/(?:nightly-backup|disk-usage|cert-expiry)/ },
    inputs: [{ recorded: 'nightly-backup', changed: ['disk-usage', 'cert-expiry'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const name = 'disk-usage'
      const html = await getText(app, session, `/${name}`)
      mustPass(
        await serviceStatus.key.check(app, { status: 'succeeded', result: html }, session, [name]),
      )
    },
    async check(_app, run, _session, used) {
      const name = String(used[0])
      const text = resultText(run.result)
      const output = seeded(name).program?.output
      if (!output) return `${name} is not a seeded program`
      if (!text.includes('Program status') || !text.includes(output))
        return `the answer is not ${name}'s page (no "${output}")`
      const others = PROGRAM_GROUP.filter(
        (n) => n !== name && text.includes(seeded(n).program!.output),
      )
      return others.length ? `the answer shows ${others.join(', ')} instead` : null
    },
  },
}

/** The lines every fresh instance's log holds (the rest has times and the temp dir in it). */
const LOG_LINES = [
  'Starting Monit 5.33.0 daemon with http interface',
  `'${HOST}' Monit 5.33.0 started`,
]

/**
 * Home page, the "running" link (the runtime page), then "View Monit logfile? Go": a form post of
 * the page's token to `/_viewlog`, which Monit answers 302 back to `/_viewlog`; the browser's
 * `GET /_viewlog` (no token needed) is the page with the log file in a text box.
 */
export const viewLog: Workflow = {
  id: 'view_log',
  intent: "show me Monit's log file",
  rewordings: {
    terse: 'monit log',
    chatty:
      "Something restarted overnight and I'd like to see what Monit logged about it, can you open its log file?",
    withoutValue: 'show the Monit log',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openHomeSignedIn(page, app)
    await page.getByRole('link', { name: 'running', exact: true }).click()
    await page.waitForURL((url) => url.pathname === '/_runtime')
    await page.getByRole('heading', { name: 'Monit runtime status' }).waitFor()
    const shown = page.waitForResponse(
      (res) => res.request().method() === 'GET' && new URL(res.url()).pathname === '/_viewlog',
    )
    const form = page.locator('form', { hasText: 'View Monit logfile?' })
    await form.getByRole('button', { name: 'Go' }).click()
    await shown
    await page.locator('textarea').filter({ hasText: LOG_LINES[0]! }).waitFor()
  },
  key: {
    // The page the browser shows. (The POST's 302 carries the same page in its body, as every
    // 302 of Monit's does, so a tool that posts the form with a token reads the log too.)
    target: { method: 'GET', path: '/_viewlog' },
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const html = await getText(app, session, '/_viewlog')
      mustPass(await viewLog.key.check(app, { status: 'succeeded', result: html }, session, []))
    },
    async check(_app, run) {
      const text = resultText(run.result)
      const missing = LOG_LINES.filter((line) => !text.includes(line))
      return missing.length ? `the answer is not Monit's log (no "${missing[0]}")` : null
    },
  },
}
