/**
 * HAProxy workflows that only read: the Scope box (a GET form: `/?scope=<text>`, proxies whose
 * name contains the text), and the links of the "Display option" list, whose options are
 * `;`-suffixes of the stats URI: `/;csv`, `/;json`, `/;up` (hide DOWN servers).
 */
import type { Workflow } from '../../types'
import { getText, mustPass, resultText } from '../keys'
import { clickDisplayLink, openStatsAnsweringPrompt, openStatsSignedIn, typeScope } from '../person'
import { BACKENDS, HEALTH_PATH } from '../seed'

/** Every seeded server's name. */
const ALL_SERVERS = BACKENDS.flatMap((b) => b.servers.map((s) => s.name))

/** `result` parsed when it is a string of JSON, else as it is. */
function parsedOrText(result: unknown): unknown {
  if (typeof result !== 'string') return result
  try {
    return JSON.parse(result) as unknown
  } catch {
    return result
  }
}

/** The names of the seeded servers `text` does not mention. */
function missingServers(text: string, servers: string[] = ALL_SERVERS): string[] {
  return servers.filter((name) => !new RegExp(`\\b${name}\\b`).test(text))
}

/**
 * Types a backend's name in the Scope box and presses Enter: the page then lists that backend
 * only. Starts not signed in: the person answers the Basic prompt first.
 */
export const scopeBackend: Workflow = {
  id: 'scope_backend',
  intent: 'show only the api_servers backend on the HAProxy stats page',
  rewordings: {
    terse: 'haproxy stats scope api_servers',
    chatty:
      'the HAProxy stats page is way too long, can you filter it down so I only see the api_servers backend and its servers?',
    withoutValue: 'show the HAProxy stats of just one backend',
  },
  startPath: HEALTH_PATH,
  signedIn: false,
  async play(page, app) {
    await openStatsAnsweringPrompt(page, app)
    await typeScope(page, 'api_servers')
    await page.getByRole('link', { name: 'api2', exact: true }).waitFor()
  },
  key: {
    target: { method: 'GET', path: '/' },
    inputs: [{ recorded: 'api_servers', changed: ['batch_workers', 'static_assets'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const scope = 'batch_workers'
      const html = await getText(app, session, `/?scope=${encodeURIComponent(scope)}`)
      mustPass(
        await scopeBackend.key.check(app, { status: 'succeeded', result: html }, session, [scope]),
      )
    },
    async check(_app, run, _session, used) {
      const scope = String(used[0])
      const backend = BACKENDS.find((b) => b.name === scope)
      if (!backend) return `no seeded backend ${scope}`
      const text = resultText(run.result)
      const missing = missingServers(
        text,
        backend.servers.map((s) => s.name),
      )
      if (missing.length) return `the answer does not list ${missing.join(', ')} of ${scope}`
      const others = BACKENDS.filter((b) => b.name !== scope && text.includes(b.name))
      return others.length
        ? `the answer also lists ${others.map((b) => b.name).join(', ')}: not scoped to ${scope}`
        : null
    },
  },
}

/** Clicks "CSV export": every proxy and server as CSV, nothing typed. */
export const exportCsv: Workflow = {
  id: 'export_csv',
  intent: 'export the HAProxy statistics as CSV',
  rewordings: {
    terse: 'haproxy stats csv',
    chatty:
      "I'd like to put the current HAProxy numbers into a spreadsheet, can you get me the stats page's CSV export?",
    withoutValue: 'download the HAProxy stats in a spreadsheet format',
  },
  startPath: HEALTH_PATH,
  signedIn: true,
  async play(page, app) {
    await openStatsSignedIn(page, app)
    await clickDisplayLink(page, 'CSV export', /\/;csv$/)
    await page.getByText('# pxname,svname').waitFor()
  },
  key: {
    target: { method: 'GET', path: '/;csv' },
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const csv = await getText(app, session, '/;csv')
      mustPass(await exportCsv.key.check(app, { status: 'succeeded', result: csv }, session, []))
    },
    async check(_app, run) {
      const text = resultText(run.result)
      if (!text.includes('pxname,svname')) return 'the answer is not the CSV export (no header)'
      const missing = missingServers(text)
      return missing.length ? `the CSV does not list ${missing.join(', ')}` : null
    },
  },
}

/** Clicks "JSON export": the same figures as typed JSON objects, nothing typed. */
export const exportJson: Workflow = {
  id: 'export_json',
  intent: 'get the HAProxy statistics as JSON',
  rewordings: {
    terse: 'haproxy stats json',
    chatty:
      'Could you pull the full HAProxy statistics for me in JSON format? I want to feed them into a script.',
    withoutValue: 'get the HAProxy stats in a machine-readable format',
  },
  startPath: HEALTH_PATH,
  signedIn: true,
  async play(page, app) {
    await openStatsSignedIn(page, app)
    await clickDisplayLink(page, 'JSON export', /\/;json$/)
    await page.getByText('"objType"').first().waitFor()
  },
  key: {
    target: { method: 'GET', path: '/;json' },
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const result = JSON.parse(await getText(app, session, '/;json')) as unknown
      mustPass(await exportJson.key.check(app, { status: 'succeeded', result }, session, []))
    },
    async check(_app, run) {
      // The JSON export as parsed data, or as its text when a run kept it a string.
      const text = resultText(parsedOrText(run.result))
      if (!text.includes('objType\nServer')) return 'the answer is not the JSON export'
      const missing = missingServers(text)
      return missing.length ? `the JSON does not list ${missing.join(', ')}` : null
    },
  },
}

/** Clicks "Hide 'DOWN' servers": the page without the servers that are DOWN or in MAINT. */
export const hideDownServers: Workflow = {
  id: 'hide_down_servers',
  intent: 'show the HAProxy stats without the servers that are down',
  rewordings: {
    terse: 'haproxy stats hide down',
    chatty:
      "there's a lot of red on the HAProxy stats page, can you show me just the servers that are actually up?",
    withoutValue: 'list the HAProxy servers that are up',
  },
  startPath: HEALTH_PATH,
  signedIn: true,
  async play(page, app) {
    await openStatsSignedIn(page, app)
    await clickDisplayLink(page, "Hide 'DOWN' servers", /\/;up$/)
    await page.getByRole('link', { name: 'Show all servers' }).waitFor()
  },
  key: {
    target: { method: 'GET', path: '/;up' },
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const html = await getText(app, session, '/;up')
      mustPass(
        await hideDownServers.key.check(app, { status: 'succeeded', result: html }, session, []),
      )
    },
    async check(_app, run) {
      const text = resultText(run.result)
      // api_legacy is DOWN from the start (its checks get 503); batch1 is never touched.
      if (/\bapi_legacy\b/.test(text)) return 'the answer still lists api_legacy, which is DOWN'
      return /\bbatch1\b/.test(text) ? null : 'the answer does not list batch1, which is UP'
    },
  },
}
