/**
 * ikiwiki workflows that only read: opening a page by following its link, and the recent changes
 * page. Both are static files ikiwiki compiled (`/<page>/index.html`), not CGI answers.
 */
import type { Workflow } from '../../types'
import { mustPass, renderedPage, resultText } from '../keys'
import { SEED_MESSAGES } from '../seed'

/** For each page the open workflow may be called with: a phrase only that page's text holds. */
const PAGE_PHRASE: Record<string, string> = {
  vendor_contacts: 'Paperline Ltd, call 555-0142',
  wifi_setup: 'The guest network is TeamGuest',
  holiday_calendar: 'closed from 24 December to 2 January',
}

/** From the front page, clicks the link to the vendor contacts page and waits for its text. */
export const openPage: Workflow = {
  id: 'open_page',
  intent: 'open the wiki page vendor_contacts',
  rewordings: {
    terse: 'show vendor_contacts',
    chatty: 'I need the vendor contacts page of our team wiki, vendor_contacts, can you open it?',
    withoutValue: 'open a page of the wiki',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await page.getByRole('link', { name: 'Vendor contacts' }).click()
    await page.waitForURL(/\/vendor_contacts\/$/)
    await page.getByText('Paperline Ltd').waitFor()
  },
  key: {
    // The page's compiled HTML: its path is the page name.
    target: { method: 'GET', path: /^\/(vendor_contacts|wifi_setup|holiday_calendar)\/$/ },
    inputs: [{ recorded: 'vendor_contacts', changed: ['wifi_setup', 'holiday_calendar'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const html = await renderedPage(app, 'wifi_setup')
      mustPass(
        await openPage.key.check(app, { status: 'succeeded', result: html }, session, [
          'wifi_setup',
        ]),
      )
    },
    async check(_app, run, _session, used) {
      const want = PAGE_PHRASE[String(used[0])]
      if (!want) return `no expectation for the page ${String(used[0])}`
      return resultText(run.result).includes(want) ? null : `the answer lacks "${want}"`
    },
  },
}

/** From the front page, clicks RecentChanges in the header and waits for the seeded changes. */
export const recentChanges: Workflow = {
  id: 'recent_changes',
  intent: 'show the recent changes of the wiki',
  rewordings: {
    terse: 'recent changes',
    chatty: 'what has been changed on our team wiki lately? show me the recent changes please',
    withoutValue: 'list what changed in the wiki',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await page.getByRole('link', { name: 'RecentChanges' }).click()
    await page.waitForURL(/\/recentchanges\/$/)
    await page.getByText(SEED_MESSAGES[0]!).first().waitFor()
  },
  key: {
    target: { method: 'GET', path: '/recentchanges/' },
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const html = await renderedPage(app, 'recentchanges')
      mustPass(
        await recentChanges.key.check(app, { status: 'succeeded', result: html }, session, []),
      )
    },
    async check(_app, run) {
      // The seeded commits, newest and oldest: the list shows their messages.
      const text = resultText(run.result)
      const missing = [SEED_MESSAGES[0]!, SEED_MESSAGES.at(-1)!].filter((m) => !text.includes(m))
      return missing.length ? `the answer does not list "${missing.join('", "')}"` : null
    },
  },
}
