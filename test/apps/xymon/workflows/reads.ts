/**
 * Xymon workflows that only read, all on public pages (no login): Find host with a typed name
 * pattern, the event log of one host (typed), and the history of one test (picked by clicking
 * its status dot on the main view). Each answers with a CGI page; the checks look for the host
 * names the answer must and must not hold.
 */
import type { Workflow } from '../../types'
import { EVENTLOG, FINDHOST, HISTORY } from '../keys'
import { mainView, menu, retype } from '../person'
import { HOME_PATH, HOSTS, PROBLEMS, fqdn } from '../seed'
import { mustPass, pageText, resultText } from '../session'

/** The answer as text with `&amp;` decoded (raw HTML or the page's text both work). */
function answer(result: unknown): string {
  return resultText(result).replace(/&amp;/g, '&')
}

/** The seeded hosts whose name holds `pattern`. */
function matching(pattern: string): string[] {
  return HOSTS.map((h) => fqdn(h.short)).filter((name) => name.includes(pattern))
}

/** Administration > Find host; types "db" and presses Search: db01 and db02. */
export const findHosts: Workflow = {
  id: 'find_hosts',
  intent: 'find the hosts whose name contains "db" in Xymon',
  rewordings: {
    terse: 'xymon find host db',
    chatty:
      "I can never remember what we called the database boxes, can you search Xymon's host list for names with db in them?",
    withoutValue: 'search for hosts by name in Xymon',
  },
  startPath: HOME_PATH,
  signedIn: false,
  async play(page) {
    await mainView(page)
    await menu(page, 'Administration', 'Find host', 'Find host')
    await retype(page, 'host', 'db')
    // "Jump to page" (ticked) would open the first match's page instead of the list.
    await page.locator('input[name="jump"]').uncheck()
    await page.getByRole('button', { name: 'Search' }).click()
    await page.waitForURL(/findhost\.sh\?host=db/)
    await page.getByText('db02.example.net').first().waitFor()
  },
  key: {
    // The form is a GET of findhost.sh: host=<typed regex>, SUB=Search (and jump=on when "Jump
    // to page" is ticked, which opens the first match's page instead of the list).
    target: { method: 'GET', path: FINDHOST, operation: { field: 'SUB', value: 'Search' } },
    inputs: [{ recorded: 'db', changed: ['web', '01'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch(`${FINDHOST}?host=web&SUB=Search`)
      const html = await res.text()
      if (res.status !== 200) throw new Error(`findhost.sh answered ${res.status}`)
      mustPass(
        await findHosts.key.check(app, { status: 'succeeded', result: pageText(html) }, session, [
          'web',
        ]),
      )
    },
    async check(_app, run, _session, used) {
      const text = answer(run.result)
      const want = matching(String(used[0]))
      const missing = want.filter((h) => !text.includes(h))
      if (missing.length) return `the answer lacks ${missing.join(', ')}`
      const others = HOSTS.map((h) => fqdn(h.short)).filter(
        (h) => !want.includes(h) && text.includes(h),
      )
      return others.length ? `the answer lists other hosts too: ${others.join(', ')}` : null
    },
  },
}

/** Reports > Event log Report; types db01 into the host field and presses View log. */
export const eventLog: Workflow = {
  id: 'event_log',
  intent: 'show the Xymon event log for the host db01',
  rewordings: {
    terse: 'xymon events db01',
    chatty:
      'db01 has been flapping all morning I think, can you pull up what Xymon logged for that host recently?',
    withoutValue: "show one host's recent events in Xymon",
  },
  startPath: HOME_PATH,
  signedIn: false,
  async play(page) {
    await mainView(page)
    await menu(page, 'Reports', 'Event log Report', 'View log')
    await retype(page, 'HOSTMATCH', 'db01')
    await page.getByRole('button', { name: 'View log' }).click()
    await page.waitForURL(/eventlog\.sh\?.*HOSTMATCH=db01/)
    await page.getByText('events received').first().waitFor()
  },
  key: {
    // A GET of eventlog.sh with every field of the form (MAXTIME, FROMTIME, TOTIME, MAXCOUNT,
    // HOSTMATCH, ...) and Send=View log; empty fields mean "no filter" and the last 240 minutes.
    target: { method: 'GET', path: EVENTLOG, operation: { field: 'Send', value: 'View log' } },
    inputs: [{ recorded: 'db01', changed: ['web01', 'mail01'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch(
        `${EVENTLOG}?MAXTIME=&FROMTIME=&TOTIME=&MAXCOUNT=100&HOSTMATCH=web01&Send=View+log`,
      )
      const html = await res.text()
      if (res.status !== 200) throw new Error(`eventlog.sh answered ${res.status}`)
      mustPass(
        await eventLog.key.check(app, { status: 'succeeded', result: pageText(html) }, session, [
          'web01',
        ]),
      )
    },
    async check(_app, run, _session, used) {
      const text = answer(run.result)
      const host = fqdn(String(used[0]))
      if (!text.includes(host)) return `the answer holds no event of ${host}`
      const problem = PROBLEMS.find((p) => fqdn(p.host) === host)
      if (problem && !new RegExp(`${host}[\\s\\S]{0,400}\\b${problem.test}\\b`).test(text))
        return `the answer lacks ${host}'s ${problem.test} event`
      const others = HOSTS.map((h) => fqdn(h.short)).filter((h) => h !== host && text.includes(h))
      return others.length ? `the answer holds events of other hosts: ${others.join(', ')}` : null
    },
  },
}

/** Main view > web01's red http dot > HISTORY. */
export const testHistory: Workflow = {
  id: 'test_history',
  intent: 'show the history of the http test on web01 in Xymon',
  rewordings: {
    terse: 'xymon history web01 http',
    chatty:
      "web01's website check went red again, can you show me that test's history in Xymon so I can see how often it happens?",
    withoutValue: "show a test's history in Xymon",
  },
  startPath: HOME_PATH,
  signedIn: false,
  async play(page) {
    await mainView(page)
    await page
      .locator('a[href="/xymon-cgi/svcstatus.sh?HOST=web01.example.net&SERVICE=http"]')
      .click()
    await page.getByText('HTTP check failed').first().waitFor()
    await page.getByRole('button', { name: 'HISTORY' }).click()
    await page.waitForURL(/history\.sh\?HISTFILE=/)
    await page.getByText('summary').first().waitFor()
  },
  key: {
    // The status page's HISTORY button is a GET form: HISTFILE=<host>.<test>, ENTRIES=50, and the
    // host's IP and display name (both only shown).
    target: { method: 'GET', path: HISTORY },
    inputs: [
      {
        recorded: 'web01.example.net.http',
        changed: ['mail01.example.net.smtp', 'db01.example.net.disk'],
      },
    ],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch(
        `${HISTORY}?HISTFILE=mail01.example.net.smtp&ENTRIES=50&IP=10.0.0.31&DISPLAYNAME=mail01.example.net`,
      )
      const html = await res.text()
      if (res.status !== 200) throw new Error(`history.sh answered ${res.status}`)
      mustPass(
        await testHistory.key.check(app, { status: 'succeeded', result: html }, session, [
          'mail01.example.net.smtp',
        ]),
      )
    },
    async check(_app, run, _session, used) {
      const text = answer(run.result)
      const histfile = String(used[0])
      const dot = histfile.lastIndexOf('.')
      const [host, test] = [histfile.slice(0, dot), histfile.slice(dot + 1)]
      // Each event of the history links to its log: historylog.sh?HOST=<host>&SERVICE=<test>;
      // the page's heading (its text alone) says "History <host> - <test>".
      if (
        !text.includes(`historylog.sh?HOST=${host}&SERVICE=${test}&`) &&
        !new RegExp(`History\\s+${host.replace(/\./g, '\\.')}\\s+-\\s+${test}\\b`).test(text)
      )
        return `the answer is not the history of ${host}'s ${test}`
      const others = PROBLEMS.filter(
        (p) => fqdn(p.host) !== host && text.includes(`HOST=${fqdn(p.host)}&SERVICE=${p.test}`),
      )
      return others.length ? `the answer is the history of ${others[0]!.host} too` : null
    },
  },
}
