/**
 * Dashboards and graphs. The dashboard page keeps everything in the browser until it is saved:
 * Save As asks for a name and POSTs the whole dashboard, as JSON in the form field `state`
 * (graphs with their targets, the time range), to `/dashboard/save/<name>`; the finder deletes
 * with a GET of `/dashboard/delete/<name>` (an Ajax call with a `_dc` cache buster) after a
 * confirmation. Changing a saved dashboard's time
 * range is done on the loaded dashboard (`/dashboard/load/<name>` answers its state) and saved
 * over it. A graph's menu applies functions to its target (the target becomes
 * `movingAverage(<metric>,10)`); Share stores an unsaved dashboard with POST
 * `/dashboard/create-temporary/` (the same `state` field), answered `{"name": "temporary-<n>"}`,
 * then saves it again under that name. (The graph menu's Short Direct URL is not used: in 1.1.8
 * it requests `/s` + the absolute render URL, `/shttp://...`, which graphite answers 404.)
 */
import type { Workflow } from '../../types'
import { DASHBOARDS } from '../seed'
import {
  dashboardNames,
  dashboardPath,
  dashboardState,
  dashboardUrl,
  graphTargets,
  mustPass,
} from '../keys'
import {
  addGraph,
  answered,
  answerPrompt,
  extWindow,
  openFinder,
  pickInFinder,
  toolbarMenu,
  windowButton,
} from '../person'

/** The seeded graphs of the dashboard `name`. */
function seededTargets(name: string): string[] {
  return DASHBOARDS.find(([n]) => n === name)?.[1] ?? []
}

/** A dashboard state as the page saves it: the graphs of `targets` over the last `hours`. */
function stateJson(name: string, targets: string[], hours: string): string {
  return JSON.stringify({
    name,
    timeConfig: {
      type: 'relative',
      relativeStartUnits: 'hours',
      relativeStartQuantity: hours,
      relativeUntilUnits: 'now',
      relativeUntilQuantity: '',
    },
    refreshConfig: { enabled: false, interval: 60000 },
    graphSize: { width: 400, height: 250 },
    defaultGraphParams: { from: `-${hours}hours`, until: 'now', width: 400, height: 250 },
    graphs: targets.map((t) => [
      `target=${t}`,
      { target: [t] },
      `/render?target=${encodeURIComponent(t)}&title=${encodeURIComponent(t)}`,
    ]),
  })
}

/** POSTs `state` to `/dashboard/save/<name>` as the page does. */
async function saveByHand(
  app: Parameters<Workflow['key']['replayByHand']>[0],
  name: string,
  state: string,
): Promise<void> {
  const res = await app.fetch(dashboardUrl('save', name), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
    body: new URLSearchParams({ state }),
  })
  const body = (await res.json()) as { success?: boolean; error?: string }
  if (!body.success) throw new Error(`save ${name} answered ${JSON.stringify(body)}`)
}

/** Adds the graph of servers.db02.disk.used, then Dashboard → Save As "Replica disk". */
export const saveDashboard: Workflow = {
  id: 'save_dashboard',
  intent: "save a Graphite dashboard called 'Replica disk' with a graph of servers.db02.disk.used",
  rewordings: {
    terse: 'new dashboard Replica disk: servers.db02.disk.used',
    chatty:
      "I keep looking up the replica's disk, could you save me a dashboard named 'Replica disk' graphing servers.db02.disk.used?",
    withoutValue: 'save a new dashboard with a graph of one metric',
  },
  startPath: '/dashboard/',
  signedIn: false,
  async play(page) {
    await addGraph(page, 'servers.db02.disk.', 'servers.db02.disk.used')
    await toolbarMenu(page, 'Dashboard', 'Save As')
    await answered(
      page,
      (r) => r.url().includes('/dashboard/save/'),
      () => answerPrompt(page, 'Save Dashboard', 'Replica disk'),
    )
    await page.locator('.x-panel-header-text', { hasText: 'Replica disk' }).first().waitFor()
  },
  key: {
    target: dashboardPath('POST', 'save'),
    inputs: [
      { recorded: 'Replica disk', changed: ['Search errors board', 'Checkout cpu board'] },
      {
        recorded: 'servers.db02.disk.used',
        changed: ['apps.search.errors', 'servers.web02.cpu.user'],
      },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      await saveByHand(
        app,
        'Search errors board',
        stateJson('Search errors board', ['apps.search.errors'], '2'),
      )
      mustPass(
        await saveDashboard.key.check(app, { status: 'succeeded', result: null }, session, [
          'Search errors board',
          'apps.search.errors',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const state = await dashboardState(app, String(used[0]))
      if (!state) return `there is no dashboard "${String(used[0])}"`
      const targets = graphTargets(state)
      if (!targets.includes(String(used[1])))
        return `"${String(used[0])}" graphs ${targets.join(', ')}, not ${String(used[1])}`
      if ((await dashboardNames(app)).includes('Replica disk'))
        return 'the recorded dashboard Replica disk was saved'
      return null
    },
  },
}

/** Dashboard → Finder, picks "Old capacity plan", Delete, Yes. */
export const deleteDashboard: Workflow = {
  id: 'delete_dashboard',
  intent: "delete the Graphite dashboard 'Old capacity plan'",
  rewordings: {
    terse: 'delete dashboard Old capacity plan',
    chatty: 'nobody looks at the Old capacity plan dashboard anymore, can you get rid of it?',
    withoutValue: 'delete one of the saved dashboards',
  },
  startPath: '/dashboard/',
  signedIn: false,
  async play(page) {
    await openFinder(page)
    await pickInFinder(page, 'Old capacity plan')
    await windowButton(page, 'Dashboard Finder', 'Delete')
    await answered(
      page,
      (r) => r.url().includes('/dashboard/delete/'),
      () => windowButton(page, 'Delete Dashboard', 'Yes'),
    )
    await extWindow(page, 'Dashboard Finder')
      .locator('dl', { hasText: 'Legacy mail queue' })
      .waitFor()
  },
  key: {
    target: dashboardPath('GET', 'delete'),
    inputs: [{ recorded: 'Old capacity plan', changed: ['Legacy mail queue', 'Summer load test'] }],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const res = await app.fetch(dashboardUrl('delete', 'Legacy mail queue'))
      await res.arrayBuffer()
      mustPass(
        await deleteDashboard.key.check(app, { status: 'succeeded', result: null }, session, [
          'Legacy mail queue',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const names = await dashboardNames(app)
      if (names.includes(String(used[0])))
        return `the dashboard "${String(used[0])}" is still there`
      if (!names.includes('Old capacity plan')) return 'the recorded Old capacity plan was deleted'
      if (!names.includes('Web overview')) return 'Web overview was deleted too'
      return null
    },
  },
}

/** Finder → opens "Web overview", Relative Time Range → 24 hours, Dashboard → Save. */
export const changeTimeRange: Workflow = {
  id: 'change_time_range',
  intent: "make the Graphite dashboard 'Web overview' show the last 24 hours",
  rewordings: {
    terse: 'Web overview dashboard: past 24 hours',
    chatty:
      'the Web overview dashboard only shows a few hours, can you set it to the last 24 hours and save it?',
    withoutValue: "change a saved dashboard's time range",
  },
  startPath: '/dashboard/',
  signedIn: false,
  async play(page) {
    await openFinder(page)
    await pickInFinder(page, 'Web overview')
    await answered(
      page,
      (r) => r.url().includes('/dashboard/load/'),
      () => windowButton(page, 'Dashboard Finder', 'Open'),
    )
    await page.locator('img.graph-img').first().waitFor()
    await page.locator('.x-toolbar button', { hasText: 'Relative Time Range' }).click()
    const win = extWindow(page, 'Select Relative Time Range')
    await win.locator('input.x-form-text').first().fill('24')
    await windowButton(page, 'Select Relative Time Range', 'Ok')
    await page.getByText('Now showing the past 24 hours').waitFor()
    await answered(
      page,
      (r) => r.url().includes('/dashboard/save/'),
      // Once a dashboard is open, its Save item names it.
      () => toolbarMenu(page, 'Dashboard', 'Save "Web overview"'),
    )
  },
  key: {
    target: dashboardPath('POST', 'save'),
    inputs: [
      { recorded: 'Web overview', changed: ['Database capacity', 'Checkout funnel'] },
      { recorded: '24', changed: ['12', '48'] },
    ],
    dependencies: [dashboardPath('GET', 'load')],
    mutating: true,
    async replayByHand(app, session) {
      const name = 'Database capacity'
      await saveByHand(app, name, stateJson(name, seededTargets(name), '12'))
      mustPass(
        await changeTimeRange.key.check(app, { status: 'succeeded', result: null }, session, [
          name,
          '12',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const name = String(used[0])
      const state = await dashboardState(app, name)
      if (!state) return `there is no dashboard "${name}"`
      const time = state.timeConfig
      if (time?.relativeStartQuantity !== String(used[1]) || time.relativeStartUnits !== 'hours')
        return `"${name}" shows ${time?.relativeStartQuantity} ${time?.relativeStartUnits}, not ${String(used[1])} hours`
      // The save carries the whole dashboard: the graphs must still be this dashboard's own.
      const targets = graphTargets(state).sort()
      const own = [...seededTargets(name)].sort()
      if (targets.join() !== own.join()) return `"${name}" now graphs ${targets.join(', ')}`
      const web = await dashboardState(app, 'Web overview')
      if (web?.timeConfig?.relativeStartQuantity === '24')
        return 'the recorded dashboard Web overview was changed'
      return null
    },
  },
}

/**
 * Adds the graph of servers.web01.cpu.user, applies Calculate → Moving Average over 10 points,
 * then Share: an unsaved dashboard is stored as `temporary-<n>` and its URL shown.
 */
export const shareGraph: Workflow = {
  id: 'share_graph',
  intent:
    'share a Graphite dashboard with a graph of the 10-point moving average of servers.web01.cpu.user',
  rewordings: {
    terse: 'share graph movingAverage(servers.web01.cpu.user,10)',
    chatty:
      "I want to paste a graph in chat: can you make a shareable dashboard of web01's user cpu smoothed with a 10-point moving average?",
    withoutValue: 'share a graph with a function applied',
  },
  startPath: '/dashboard/',
  signedIn: false,
  async play(page) {
    await addGraph(page, 'servers.web01.cpu.', 'servers.web01.cpu.user')
    await page.locator('img.graph-img').first().click()
    await page.locator('button', { hasText: /^Apply Function$/ }).click()
    await page.locator('.x-menu:visible .x-menu-item-text', { hasText: /^Calculate$/ }).hover()
    await page.locator('.x-menu:visible .x-menu-item-text', { hasText: /^Moving Average$/ }).click()
    await answered(
      page,
      (r) =>
        decodeURIComponent(r.url()).includes('target=movingAverage(servers.web01.cpu.user,10)'),
      () => answerPrompt(page, 'Input Required', '10'),
    )
    await answered(
      page,
      (r) => r.url().includes('/dashboard/save/'),
      () => page.locator('.x-toolbar button', { hasText: /^Share$/ }).click(),
    )
    await extWindow(page, 'Share Dashboard').waitFor()
  },
  key: {
    target: { method: 'POST', path: /^\/dashboard\/create-temporary\/?$/ },
    inputs: [
      {
        recorded: 'movingAverage(servers.web01.cpu.user,10)',
        changed: [
          'movingAverage(servers.db01.disk.used,5)',
          'movingAverage(apps.search.requests,30)',
        ],
      },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const target = 'movingAverage(servers.db01.disk.used,5)'
      const res = await app.fetch('/dashboard/create-temporary/', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
        body: new URLSearchParams({ state: stateJson('', [target], '2') }),
      })
      mustPass(
        await shareGraph.key.check(
          app,
          { status: 'succeeded', result: await res.json() },
          session,
          [target],
        ),
      )
    },
    async check(app, run, _session, used) {
      const text = typeof run.result === 'string' ? run.result : JSON.stringify(run.result)
      const name = /temporary-\d+/.exec(text)?.[0]
      if (!name) return `no shared dashboard name in ${text.slice(0, 200)}`
      const state = await dashboardState(app, name)
      if (!state) return `there is no dashboard "${name}"`
      const targets = graphTargets(state)
      if (!targets.includes(String(used[0])))
        return `"${name}" graphs ${targets.join(', ')}, not ${String(used[0])}`
      return null
    },
  },
}
