/**
 * Prometheus workflows on the graph page (`/classic/graph`), the part of the UI that reads the
 * JSON API: an instant query typed into the expression box (Console tab, `GET /api/v1/query`
 * with `time` = the moment of the click), two graphs (Graph tab, `GET /api/v1/query_range` with
 * `start`/`end`/`step`: one over the hour up to now, one over a past window the person picks),
 * and the metric-name menu the page fills on load.
 */
import type { Workflow } from '../../types'
import { getJson, jsonOf, mustPass, seriesIn } from '../answers'
import { enterExpression, execute, openGraphTab, setEnd, setRange } from '../person'
import { BACKFILL_END, ROOM_TEMPERATURES, SHOP_ORDERS, sitePowerAt } from '../seed'

/** The value of label `name` in a PromQL selector such as `m{region="eu"}`, or ''. */
function labelIn(expr: string, name: string): string {
  return new RegExp(`${name}="([^"]*)"`).exec(expr)?.[1] ?? ''
}

/** The query the person types, and the two a tool is called with instead. */
const ORDERS_EU = 'sum by (status) (shop_orders_total{region="eu"})'
const ORDERS_US = 'sum by (status) (shop_orders_total{region="us"})'
const ORDERS_APAC = 'sum by (status) (shop_orders_total{region="apac"})'

/**
 * Pastes a PromQL expression into the expression box and clicks Execute; the Console tab lists
 * one row per status. The request carries `time` = the browser's clock at the click, so a tool
 * run later must send its own moment (data of a fresh instance starts at its start).
 */
export const runQuery: Workflow = {
  id: 'run_query',
  intent: `run the PromQL query ${ORDERS_EU}`,
  rewordings: {
    terse: `promql ${ORDERS_EU}`,
    chatty: `could you run ${ORDERS_EU} in our Prometheus and tell me what it gives right now?`,
    withoutValue: 'run a PromQL query in Prometheus',
  },
  startPath: '/classic/graph',
  signedIn: false,
  async play(page) {
    await enterExpression(page, ORDERS_EU)
    await execute(page)
    const table = page.locator('.console_table')
    await table.getByText('{status="refunded"}').waitFor()
    await table.getByText('1284').waitFor()
  },
  key: {
    target: { method: 'GET', path: '/api/v1/query' },
    inputs: [{ recorded: ORDERS_EU, changed: [ORDERS_US, ORDERS_APAC] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const q = new URLSearchParams({ query: ORDERS_US, time: String(Date.now() / 1000) })
      const result = await getJson(app, `/api/v1/query?${q}`)
      mustPass(await runQuery.key.check(app, { status: 'succeeded', result }, session, [ORDERS_US]))
    },
    async check(_app, run, _session, used) {
      const region = labelIn(String(used[0]), 'region')
      const want = SHOP_ORDERS[region]
      if (!want) return `no expectation for the query ${String(used[0])}`
      const series = seriesIn(run.result, 'vector')
      if (!series) return 'the answer is not an instant vector'
      const got = Object.fromEntries(series.map((s) => [s.metric.status, Number(s.value?.[1])]))
      const ok =
        series.length === Object.keys(want).length &&
        Object.entries(want).every(([status, n]) => got[status] === n)
      return ok ? null : `the orders of ${region} by status read ${JSON.stringify(got)}`
    },
  },
}

const DOCK = 'warehouse_temperature_celsius{room="dock"}'
const FREEZER = 'warehouse_temperature_celsius{room="freezer"}'
const OFFICE = 'warehouse_temperature_celsius{room="office"}'

/** How far from the check's own clock the graph of "the last hour" may end, seconds. */
const NOW_SLACK_S = 600

/**
 * Opens the Graph tab, pastes an expression and clicks Execute: the default range (1h) ending
 * now, so `start`, `end` and `step` (range/250) are computed from the moment of the click. A tool
 * that replays the recorded window gets nothing: no instance holds data of that hour but the one
 * recorded.
 */
export const graphLastHour: Workflow = {
  id: 'graph_last_hour',
  intent: `graph ${DOCK} over the last hour`,
  rewordings: {
    terse: `graph ${DOCK} 1h`,
    chatty: `I'd like to see how ${DOCK} moved during the past hour, can you graph it for me?`,
    withoutValue: 'graph a metric over the last hour',
  },
  startPath: '/classic/graph',
  signedIn: false,
  async play(page) {
    await openGraphTab(page)
    await enterExpression(page, DOCK)
    await execute(page)
    await page.locator('.legend').getByText('dock').first().waitFor()
  },
  key: {
    target: { method: 'GET', path: '/api/v1/query_range' },
    inputs: [{ recorded: DOCK, changed: [FREEZER, OFFICE] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const end = Date.now() / 1000
      const q = new URLSearchParams({
        query: FREEZER,
        start: String(end - 3600),
        end: String(end),
        step: '14',
      })
      const result = await getJson(app, `/api/v1/query_range?${q}`)
      mustPass(
        await graphLastHour.key.check(app, { status: 'succeeded', result }, session, [FREEZER]),
      )
    },
    async check(_app, run, _session, used) {
      const room = labelIn(String(used[0]), 'room')
      const want = ROOM_TEMPERATURES[room]
      if (want === undefined) return `no expectation for ${String(used[0])}`
      const series = seriesIn(run.result, 'matrix')
      if (!series) return 'the answer is not a range of values (matrix)'
      if (series.length !== 1 || series[0]!.metric.room !== room)
        return `the graph holds ${series.length} series, not the one of room ${room}`
      const values = series[0]!.values ?? []
      const wrong = values.find(([, v]) => Number(v) !== want)
      if (wrong) return `the graph of ${room} reads ${wrong[1]} at ${wrong[0]}, not ${want}`
      // The hour before the run: the instance holds its exporters' hour before its start.
      const now = Date.now() / 1000
      const first = values[0]?.[0] ?? 0
      const last = values[values.length - 1]?.[0] ?? 0
      const spansTheHour =
        values.length >= 200 &&
        Math.abs(now - 3600 - first) <= NOW_SLACK_S &&
        Math.abs(now - last) <= NOW_SLACK_S
      return spansTheHour
        ? null
        : `the graph of ${room} has ${values.length} points from ${new Date(first * 1000).toISOString()} to ${new Date(last * 1000).toISOString()}, not the last hour`
    },
  },
}

const BERLIN = 'datacenter_power_kilowatts{site="berlin"}'
const PARIS = 'datacenter_power_kilowatts{site="paris"}'
const MADRID = 'datacenter_power_kilowatts{site="madrid"}'
/** The window the person picks: 6 hours up to 2026-01-15 12:00 UTC (the backfilled day). */
const WINDOW_RANGE = '6h'
const WINDOW_END = '2026-01-15 12:00'
const WINDOW_START_S = BACKFILL_END - 6 * 3600

/**
 * Opens the Graph tab, types the range `6h` and the end time 2026-01-15 12:00 (a day whose data
 * was backfilled), pastes an expression and clicks Execute: `start`/`end` are fixed by what the
 * person typed, so the answer is the same on every instance.
 */
export const graphPastWindow: Workflow = {
  id: 'graph_past_window',
  intent: `graph ${BERLIN} for the 6 hours up to ${WINDOW_END} UTC`,
  rewordings: {
    terse: `graph ${BERLIN} 6h until ${WINDOW_END}`,
    chatty: `what did ${BERLIN} look like on the morning of 15 January 2026? please graph the six hours up to ${WINDOW_END} UTC`,
    withoutValue: 'graph a metric over a past time window',
  },
  startPath: '/classic/graph',
  signedIn: false,
  async play(page) {
    await openGraphTab(page)
    await setRange(page, WINDOW_RANGE)
    await setEnd(page, WINDOW_END)
    await enterExpression(page, BERLIN)
    await execute(page)
    await page.locator('.legend').getByText('berlin').first().waitFor()
  },
  key: {
    target: { method: 'GET', path: '/api/v1/query_range' },
    inputs: [{ recorded: BERLIN, changed: [PARIS, MADRID] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const q = new URLSearchParams({
        query: PARIS,
        start: String(WINDOW_START_S),
        end: String(BACKFILL_END),
        step: '86',
      })
      const result = await getJson(app, `/api/v1/query_range?${q}`)
      mustPass(
        await graphPastWindow.key.check(app, { status: 'succeeded', result }, session, [PARIS]),
      )
    },
    async check(_app, run, _session, used) {
      const site = labelIn(String(used[0]), 'site')
      if (!site) return `no expectation for ${String(used[0])}`
      const series = seriesIn(run.result, 'matrix')
      if (!series) return 'the answer is not a range of values (matrix)'
      if (series.length !== 1 || series[0]!.metric.site !== site)
        return `the graph holds ${series.length} series, not the one of site ${site}`
      const values = series[0]!.values ?? []
      const first = values[0]?.[0]
      const last = values[values.length - 1]?.[0]
      if (first !== WINDOW_START_S || last === undefined || last < BACKFILL_END - 600)
        return `the graph spans ${first} to ${last}, not the 6 hours up to ${WINDOW_END}`
      const wrong = values.find(([t, v]) => Number(v) !== sitePowerAt(site, t))
      return wrong
        ? `the graph of ${site} reads ${wrong[1]} at ${wrong[0]}, not ${sitePowerAt(site, wrong[0])}`
        : null
    },
  },
}

/** Metric names the menu must offer: the exporters', the backfilled, the recorded, and `up`. */
const SEEDED_NAMES = [
  'datacenter_power_kilowatts',
  'region:shop_orders:sum',
  'shop_checkout_errors_ratio',
  'shop_open_carts',
  'shop_orders_total',
  'up',
  'warehouse_stock_items',
  'warehouse_temperature_celsius',
]

/**
 * Opens the graph page and looks through the "insert metric at cursor" menu, which the page
 * fills on load from `GET /api/v1/label/__name__/values`; nothing is typed.
 */
export const listMetricNames: Workflow = {
  id: 'list_metric_names',
  intent: 'list the names of all metrics Prometheus has',
  rewordings: {
    terse: 'prometheus metric names',
    chatty: 'which metrics does our Prometheus actually store? could you list their names for me?',
    withoutValue: 'show me what metrics there are',
  },
  startPath: '/classic/graph',
  signedIn: false,
  async play(page) {
    const menu = page.locator('select[name=insert_metric]').first()
    await menu
      .locator('option[value="warehouse_temperature_celsius"]')
      .waitFor({ state: 'attached' })
    // Picking a name puts it into the expression box at the cursor.
    await menu.selectOption('shop_open_carts')
    await page.waitForFunction(() =>
      document
        .querySelector<HTMLTextAreaElement>('textarea[name=expr]')
        ?.value.includes('shop_open_carts'),
    )
  },
  key: {
    target: { method: 'GET', path: '/api/v1/label/__name__/values' },
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const result = await getJson(app, '/api/v1/label/__name__/values')
      mustPass(await listMetricNames.key.check(app, { status: 'succeeded', result }, session, []))
    },
    async check(_app, run) {
      const json = jsonOf(run.result) as { data?: unknown } | null
      const names = Array.isArray(json?.data) ? (json.data as unknown[]).map(String) : []
      const missing = SEEDED_NAMES.filter((n) => !names.includes(n))
      return missing.length ? `the names lack ${missing.join(', ')}` : null
    },
  },
}
