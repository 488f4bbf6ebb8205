/**
 * Prometheus workflows on the server-rendered status pages of the classic UI: the page itself is
 * the answer (Go templates, no JSON call), opened from the navigation bar. Nothing is typed; the
 * clicks after the load (the Unhealthy filter, expanding an alert) only show and hide rows.
 */
import type { Workflow } from '../../types'
import { getText, mustPass, textOf } from '../answers'
import { openStatusPage } from '../person'

/** Null when `text` holds every one of `wanted`, else which ones it lacks (`what` names the page). */
function holdsAll(text: string, wanted: string[], what: string): string | null {
  const missing = wanted.filter((w) => !text.includes(w))
  return missing.length ? `${what} lacks ${missing.map((m) => JSON.stringify(m)).join(', ')}` : null
}

/** What the targets page says of the seeded targets: the retired one down, the others up. */
const TARGETS_PAGE = [
  'legacy-billing (0/1 up)',
  'connect: connection refused',
  'shop (1/1 up)',
  'warehouse (1/1 up)',
  'instance="billing-1"',
]

/** Status → Targets, then the Unhealthy filter: only the job with a target down stays listed. */
export const showDownTargets: Workflow = {
  id: 'show_down_targets',
  intent: 'which Prometheus scrape targets are down?',
  rewordings: {
    terse: 'prometheus targets down',
    chatty:
      'something looks off with our monitoring, could you check which scrape targets Prometheus cannot reach right now?',
    withoutValue: 'show the health of the scrape targets',
  },
  startPath: '/classic/graph',
  signedIn: false,
  async play(page) {
    await openStatusPage(page, 'Targets')
    await page.getByRole('heading', { name: 'Targets' }).waitFor()
    await page.locator('label').filter({ hasText: 'Unhealthy' }).click()
    await page.getByRole('link', { name: 'shop (1/1 up)' }).waitFor({ state: 'hidden' })
    await page.getByRole('link', { name: 'legacy-billing (0/1 up)' }).waitFor()
  },
  key: {
    target: { method: 'GET', path: '/classic/targets' },
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const result = await getText(app, '/classic/targets')
      mustPass(await showDownTargets.key.check(app, { status: 'succeeded', result }, session, []))
    },
    async check(_app, run) {
      return holdsAll(textOf(run.result), TARGETS_PAGE, 'the targets page')
    },
  },
}

/** What the alerts page says: two alerts firing (the hot dock, the billing target), one pending. */
const ALERTS_PAGE = [
  'Firing (2)',
  'Pending (1)',
  '<b>WarehouseTooHot</b> (1 active)',
  'room="dock"',
  '<b>ScrapeTargetDown</b> (1 active)',
  '<b>ShopCheckoutErrorsHigh</b> (1 active)',
]

/** Navigation bar → Alerts, then a click on the WarehouseTooHot row to see its firing alert. */
export const showAlerts: Workflow = {
  id: 'show_alerts',
  intent: 'show the alerts that are firing in Prometheus',
  rewordings: {
    terse: 'prometheus firing alerts',
    chatty:
      'is anything on fire? could you show me which Prometheus alerts are firing at the moment?',
    withoutValue: 'show the Prometheus alerts',
  },
  startPath: '/classic/graph',
  signedIn: false,
  async play(page) {
    await page.getByRole('link', { name: 'Alerts', exact: true }).click()
    await page.getByRole('heading', { name: 'Alerts' }).waitFor()
    await page.locator('tr.alert_header').filter({ hasText: 'WarehouseTooHot' }).click()
    await page.getByText('alertname="WarehouseTooHot"').first().waitFor()
  },
  key: {
    target: { method: 'GET', path: '/classic/alerts' },
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const result = await getText(app, '/classic/alerts')
      mustPass(await showAlerts.key.check(app, { status: 'succeeded', result }, session, []))
    },
    async check(_app, run) {
      return holdsAll(textOf(run.result), ALERTS_PAGE, 'the alerts page')
    },
  },
}

/** What the rules page lists: the three groups, the recording rule and every alert rule. */
const RULES_PAGE = [
  'id="shop"',
  'id="warehouse"',
  'id="targets"',
  '>region:shop_orders:sum</a>',
  '>ShopCheckoutErrorsHigh</a>',
  '>FreezerTooWarm</a>',
  '>ScrapeTargetDown</a>',
]

/** Status → Rules: every rule group with its rules, their health and last evaluation. */
export const showRules: Workflow = {
  id: 'show_rules',
  intent: 'show the recording and alerting rules Prometheus evaluates',
  rewordings: {
    terse: 'prometheus rules',
    chatty:
      'could you pull up the list of rules our Prometheus runs, recording rules and alerts both?',
    withoutValue: 'list the rules',
  },
  startPath: '/classic/graph',
  signedIn: false,
  async play(page) {
    await openStatusPage(page, 'Rules')
    await page.getByRole('link', { name: 'region:shop_orders:sum', exact: true }).waitFor()
  },
  key: {
    target: { method: 'GET', path: '/classic/rules' },
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const result = await getText(app, '/classic/rules')
      mustPass(await showRules.key.check(app, { status: 'succeeded', result }, session, []))
    },
    async check(_app, run) {
      return holdsAll(textOf(run.result), RULES_PAGE, 'the rules page')
    },
  },
}
