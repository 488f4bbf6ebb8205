/**
 * Nagios workflows that only read: a host's status found with the menu's Quick Search box (typed),
 * and the list of services with problems (a menu link, nothing typed). Both answer with a
 * status.cgi page; the checks look for the seeded check outputs, which name their host.
 */
import type { Workflow } from '../../types'
import { CGI, HOSTS, LANDING_PATH, seededHost } from '../seed'
import { mustPass, pageText, resultText } from '../session'
import { MENU, clickMenu, openAnsweringPrompt, openSignedIn, quickSearch } from '../person'

const PROBLEMS_MENU = MENU.serviceProblems

/** What a host's status page must show: each of its services' names and check outputs. */
function hostPageProblem(text: string, host: string): string | null {
  for (const s of seededHost(host).services) {
    if (!text.includes(s.output)) return `the answer lacks ${host}'s ${s.name} output`
  }
  const others = HOSTS.filter((h) => h.name !== host && text.includes(` on ${h.name}`))
  return others.length ? `the answer shows other hosts too: ${others.map((h) => h.name)}` : null
}

/** Types db01 into Quick Search (after answering the login) and reads its services. */
export const searchHost: Workflow = {
  id: 'search_host',
  intent: 'show the status of the host db01 in Nagios',
  rewordings: {
    terse: 'nagios status db01',
    chatty:
      'db01 feels slow today, can you look up how that host and its services are doing in Nagios?',
    withoutValue: "look up one host's status in Nagios",
  },
  startPath: LANDING_PATH,
  signedIn: false,
  async play(page, app) {
    const n = await openAnsweringPrompt(page, app)
    await quickSearch(n, 'db01')
    await n.main.getByText('DISK CRITICAL').waitFor()
  },
  key: {
    // The box's form is a GET of status.cgi with navbarsearch=1 and host=<typed>.
    target: {
      method: 'GET',
      path: `${CGI}/status.cgi`,
      operation: { field: 'navbarsearch', value: '1' },
    },
    inputs: [{ recorded: 'db01', changed: ['web03', 'mail01'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const host = 'web03'
      const res = await app.fetch(`${CGI}/status.cgi?navbarsearch=1&host=${host}`, { session })
      const html = await res.text()
      if (res.status !== 200) throw new Error(`status.cgi answered ${res.status}`)
      mustPass(
        await searchHost.key.check(app, { status: 'succeeded', result: pageText(html) }, session, [
          host,
        ]),
      )
    },
    async check(_app, run, _session, used) {
      return hostPageProblem(resultText(run.result), String(used[0]))
    },
  },
}

/** Every seeded service that is not OK, as the Problems page lists them. */
const PROBLEMS = HOSTS.flatMap((h) => h.services.filter((s) => s.state !== 0))

/** Clicks Problems > Services in the menu and reads the list. */
export const serviceProblems: Workflow = {
  id: 'service_problems',
  intent: 'list the services with problems in Nagios',
  rewordings: {
    terse: 'nagios service problems',
    chatty:
      'I just got in, can you show me which services in Nagios are currently in warning or critical so I know what to look at first?',
    withoutValue: 'show the Nagios service problems',
  },
  startPath: LANDING_PATH,
  signedIn: true,
  async play(page, app) {
    const n = await openSignedIn(page, app)
    await clickMenu(n, 'Services', PROBLEMS_MENU, 'Service Status Details For All Hosts')
    await n.main.getByText('SMTP CRITICAL').waitFor()
  },
  key: {
    // Problems > Services: status.cgi?host=all&servicestatustypes=28 (4 WARNING + 8 UNKNOWN + 16
    // CRITICAL), nothing typed.
    target: {
      method: 'GET',
      path: `${CGI}/status.cgi`,
      operation: { field: 'servicestatustypes', value: '28' },
    },
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch(`${CGI}/status.cgi?host=all&servicestatustypes=28`, { session })
      const html = await res.text()
      if (res.status !== 200) throw new Error(`status.cgi answered ${res.status}`)
      mustPass(
        await serviceProblems.key.check(
          app,
          { status: 'succeeded', result: pageText(html) },
          session,
          [],
        ),
      )
    },
    async check(_app, run) {
      const text = resultText(run.result)
      const missing = PROBLEMS.filter((s) => !text.includes(s.output))
      if (missing.length)
        return `the answer lacks ${missing.length} problem(s): ${missing[0]!.output}`
      // An OK service in the answer: the list of all services, not of the problems.
      return text.includes('SSH OK') ? 'the answer lists services that are OK' : null
    },
  },
}
