/**
 * The reads: the dashboard's metric completer, which POSTs the typed path to `/metrics/find/`
 * (`query=<path>&format=completer`) and lists the metrics and folders under it, and the
 * dashboard finder, which POSTs `query=<typed>` to `/dashboard/find/` and lists the saved dashboards
 * whose name holds the text.
 */
import type { Workflow } from '../../types'
import { resultText } from '../../match'
import { METRICS } from '../seed'
import { mustPass } from '../keys'
import { answered, extWindow, openFinder, typeMetricPath } from '../person'

/** The metric paths under `folder` (ending in a dot): what the completer must list. */
function metricsUnder(folder: string): string[] {
  return METRICS.filter((m) => m.startsWith(folder))
}

/** Types "servers.db01." into the dashboard's completer and reads the list. */
export const findMetrics: Workflow = {
  id: 'find_metrics',
  intent: 'show me which metrics Graphite has under servers.db01.',
  rewordings: {
    terse: 'metrics under servers.db01.',
    chatty:
      "I forgot what we collect for db01, can you list what's under servers.db01. in Graphite?",
    withoutValue: 'browse the metrics under one of the servers',
  },
  startPath: '/dashboard/',
  signedIn: false,
  async play(page) {
    await typeMetricPath(page, 'servers.db01.')
    await page.locator('.metric-result', { hasText: 'servers.db01.disk.' }).first().waitFor()
  },
  key: {
    target: { method: 'POST', path: '/metrics/find/' },
    inputs: [{ recorded: 'servers.db01.', changed: ['servers.web02.', 'apps.search.'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch('/metrics/find/', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
        body: 'query=servers.web02.&format=completer&automatic_variants=0',
      })
      mustPass(
        await findMetrics.key.check(
          app,
          { status: 'succeeded', result: await res.json() },
          session,
          ['servers.web02.'],
        ),
      )
    },
    async check(_app, run, _session, used) {
      const folder = String(used[0])
      const text = resultText(run.result)
      // The completer lists the next level: leaves by full path, folders as "path." prefixes.
      const children = new Set(
        metricsUnder(folder).map((m) => {
          const rest = m.slice(folder.length).split('.')
          return folder + rest[0] + (rest.length > 1 ? '.' : '')
        }),
      )
      for (const child of children) if (!text.includes(child)) return `"${child}" is not listed`
      if (text.includes('servers.db01.disk.')) return 'the recorded folder servers.db01. was listed'
      return null
    },
  },
}

/** Dashboard → Finder, types "capacity" into the filter and reads the list. */
export const findDashboards: Workflow = {
  id: 'find_dashboards',
  intent: "find the Graphite dashboards with 'capacity' in their name",
  rewordings: {
    terse: 'dashboards matching capacity',
    chatty: 'which of our saved dashboards have capacity in the name? I need to find one of them',
    withoutValue: 'search the saved dashboards by name',
  },
  startPath: '/dashboard/',
  signedIn: false,
  async play(page) {
    await openFinder(page)
    await answered(
      page,
      (r) => r.url().includes('/dashboard/find/') && r.request().postData() === 'query=capacity',
      () =>
        extWindow(page, 'Dashboard Finder')
          .locator('input.x-form-text')
          .pressSequentially('capacity', { delay: 40 }),
    )
    await extWindow(page, 'Dashboard Finder')
      .locator('dl', { hasText: 'Old capacity plan' })
      .waitFor()
  },
  key: {
    target: { method: 'POST', path: '/dashboard/find/' },
    inputs: [{ recorded: 'capacity', changed: ['web', 'funnel'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch('/dashboard/find/', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
        body: 'query=web',
      })
      mustPass(
        await findDashboards.key.check(
          app,
          { status: 'succeeded', result: await res.json() },
          session,
          ['web'],
        ),
      )
    },
    async check(_app, run, _session, used) {
      const text = resultText(run.result)
      const want: Record<string, string[]> = {
        web: ['Web overview', 'Web errors'],
        funnel: ['Checkout funnel'],
      }
      for (const name of want[String(used[0])] ?? [])
        if (!text.includes(name)) return `the dashboard "${name}" is not listed`
      if (text.includes('Database capacity')) return 'the recorded query (capacity) was listed'
      return null
    },
  },
}
