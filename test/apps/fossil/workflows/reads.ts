/**
 * Fossil workflows that only read: the site search (`GET /search?s=`), the timeline filtered by a
 * typed tag or branch (`GET /timeline?...&t=`), and the "All Tickets" report (`GET /rptview/1`).
 * All three are server-rendered HTML pages; the answer is the page.
 */
import type { Page } from 'playwright-core'
import type { Workflow } from '../../types'
import { getPage, mustPass, resultText } from '../keys'
import { TICKETS } from '../seed'

/**
 * A read's check: the result holds the text `want[value]` and none of `not[value]` (what an
 * unfiltered page would also show).
 */
function holds(
  result: unknown,
  value: string,
  want: Record<string, string>,
  not: Record<string, string> = {},
): string | null {
  const text = resultText(result)
  const expected = want[value]
  if (!expected) return `no expectation for ${JSON.stringify(value)}`
  if (!text.includes(expected)) return `the answer for ${value} does not show "${expected}"`
  const wrong = not[value]
  if (wrong && text.includes(wrong)) return `the answer for ${value} also shows "${wrong}"`
  return null
}

const SEARCH_HITS: Record<string, string> = {
  csv: 'Export to CSV drops the header row',
  galileo: 'Support Galileo satellites',
  installer: 'Installer fails on Debian 12',
}

/** Opens the site map menu (☰), picks Search, types a word and presses Enter. */
export const searchSite: Workflow = {
  id: 'search_site',
  intent: 'search the Orbit Tracker site for csv',
  rewordings: {
    terse: 'fossil search csv',
    chatty: 'Could you look through our Orbit Tracker repository and find everything about csv?',
    withoutValue: 'search the project site for a word',
  },
  startPath: '/home',
  signedIn: true,
  async play(page) {
    await page.locator('#hbbtn').click()
    await page.locator('#hbdrop').getByRole('link', { name: 'Search', exact: true }).click()
    await page.waitForURL('**/search')
    const box = page.locator('input[name=s]')
    await box.click()
    await box.pressSequentially('csv', { delay: 30 })
    await box.press('Enter')
    await page
      .locator('.searchResult')
      .getByRole('link', { name: /Export to CSV drops the header row/ })
      .waitFor()
  },
  key: {
    target: { method: 'GET', path: '/search' },
    inputs: [{ recorded: 'csv', changed: ['galileo', 'installer'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const used = ['galileo']
      const result = await getPage(app, session, `/search?s=${used[0]}&y=all`)
      mustPass(await this.check(app, { status: 'succeeded', result }, session, used))
    },
    async check(_app, run, _session, used) {
      return holds(run.result, String(used[0]), SEARCH_HITS)
    },
  },
}

/** The check-ins each tag filter shows, and one it must not show. */
const BRANCH_HITS: Record<string, string> = {
  'feature-csv-export': 'Write the station name into every exported row',
  'docs-refresh': 'Explain the stations.toml file',
  'release-1.0': 'Document the command line options',
}
const BRANCH_MISSES: Record<string, string> = {
  'feature-csv-export': 'Explain the stations.toml file',
  'docs-refresh': 'Write the station name into every exported row',
  'release-1.0': 'Start the CSV export of predicted passes',
}

/** Timeline, "Advanced", types the branch name into "Tag Filter" and presses Enter. */
export const branchTimeline: Workflow = {
  id: 'branch_timeline',
  intent: 'show the timeline of the feature-csv-export branch',
  rewordings: {
    terse: 'timeline feature-csv-export',
    chatty: "What's been going on in the feature-csv-export branch? Show me its check-ins please",
    withoutValue: 'show the check-ins of a branch',
  },
  startPath: '/home',
  signedIn: true,
  async play(page) {
    await page.locator('.mainmenu').getByRole('link', { name: 'Timeline' }).click()
    await page.waitForURL('**/timeline')
    await page.locator('.submenu').getByRole('link', { name: 'Advanced' }).click()
    await page.waitForURL(/advm=1/)
    const filter = page.locator('.submenu input[name=t]')
    await filter.click()
    await filter.pressSequentially('feature-csv-export', { delay: 30 })
    // The submenu's script submits the control form when the field changes.
    await filter.press('Enter')
    await page.waitForURL(/t=feature-csv-export/)
    await page.getByText('Write the station name into every exported row').waitFor()
  },
  key: {
    target: { method: 'GET', path: '/timeline' },
    inputs: [{ recorded: 'feature-csv-export', changed: ['docs-refresh', 'release-1.0'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const used = ['docs-refresh']
      const result = await getPage(app, session, `/timeline?y=ci&t=${used[0]}&ms=exact`)
      mustPass(await this.check(app, { status: 'succeeded', result }, session, used))
    },
    async check(_app, run, _session, used) {
      return holds(run.result, String(used[0]), BRANCH_HITS, BRANCH_MISSES)
    },
  },
}

/**
 * Tickets in the main menu (with search on, Fossil shows its ticket search there), Reports in
 * its submenu, then the "All Tickets" report.
 */
export async function openAllTickets(page: Page): Promise<void> {
  await page.locator('.mainmenu').getByRole('link', { name: 'Tickets' }).click()
  await page.locator('.submenu').getByRole('link', { name: 'Reports' }).click()
  await page.getByRole('link', { name: 'All Tickets' }).click()
  await page.waitForURL('**/rptview/1')
}

/** Opens the "All Tickets" report from the home page. */
export const listTickets: Workflow = {
  id: 'list_tickets',
  intent: 'list all tickets of the Orbit Tracker project',
  rewordings: {
    terse: 'all tickets',
    chatty: "Can you pull up every ticket we've got in the Orbit Tracker bug tracker?",
    withoutValue: 'show the ticket list',
  },
  startPath: '/home',
  signedIn: true,
  async play(page) {
    await openAllTickets(page)
    await page.getByText('Support Galileo satellites').waitFor()
  },
  key: {
    target: { method: 'GET', path: '/rptview/1' },
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const result = await getPage(app, session, '/rptview/1')
      mustPass(await this.check(app, { status: 'succeeded', result }, session, []))
    },
    async check(_app, run) {
      const text = resultText(run.result)
      const missing = TICKETS.filter((t) => !text.includes(t.title))
      return missing.length
        ? `the list misses ${missing.length} seeded tickets (${missing[0]!.title}...)`
        : null
    },
  },
}
