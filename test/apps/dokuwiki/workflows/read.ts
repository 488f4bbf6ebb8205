/** DokuWiki workflows that only read: a full-text search and opening a page from the sitemap. */
import type { Workflow } from '../../types'
import { mustPass, resultHolds } from '../keys'

/** For each term a search may be called with: a page id only that term's results list. */
const SEARCH_EXPECT: Record<string, string> = {
  budget: 'projects:budget_review',
  relaunch: 'projects:website_relaunch',
  chairs: 'meetings:2026-11-13',
}

/**
 * Types a word into the header's search box (the quick search asks `ajax.php call=qsearch` as the
 * person types), presses Enter and waits for the full-text results of `do=search`.
 */
export const searchPages: Workflow = {
  id: 'search_pages',
  intent: 'search the wiki for budget',
  rewordings: {
    terse: 'wiki search budget',
    chatty: 'could you look through our team wiki and find every page that mentions the budget?',
    withoutValue: 'search the wiki for a word',
  },
  startPath: '/doku.php?id=start',
  signedIn: true,
  async play(page) {
    const box = page.locator('#qsearch__in')
    await box.click()
    await box.pressSequentially('budget', { delay: 80 })
    // The quick search lists matching page names under the box before the person presses Enter.
    await page.locator('#qsearch__out').getByText('budget_review').waitFor()
    await box.press('Enter')
    await page.waitForURL(/do=search/)
    await page.locator('.search_results').getByText('budget_review').first().waitFor()
  },
  key: {
    target: { method: 'GET', path: '/doku.php', operation: { field: 'do', value: 'search' } },
    inputs: [{ recorded: 'budget', changed: ['relaunch', 'chairs'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const term = 'relaunch'
      const res = await app.fetch(`/doku.php?do=search&id=start&q=${term}`, { session })
      const html = await res.text()
      mustPass(
        await searchPages.key.check(app, { status: 'succeeded', result: html }, session, [term]),
      )
    },
    async check(_app, run, _session, used) {
      return resultHolds(
        run.result,
        SEARCH_EXPECT,
        used[0],
        'term',
        (want, value) => `the results do not list ${want} for ${value}`,
      )
    },
  },
}

/** For each page the open workflow may be called with: a phrase only that page's text holds. */
const PAGE_PHRASE: Record<string, string> = {
  'projects:office_move': 'We move to the third floor',
  'projects:budget_review': 'compares spending against the plan',
  'team:contacts': 'Grace Hopper: operations',
}

/**
 * Opens the sitemap (`do=index`), expands the `projects` namespace (`ajax.php call=index`) and
 * clicks the page, then waits for its heading.
 */
export const openPage: Workflow = {
  id: 'open_page',
  intent: 'open the wiki page projects:office_move',
  rewordings: {
    terse: 'show projects:office_move',
    chatty: "I'd like to read the projects:office_move page of our wiki, could you open it for me?",
    withoutValue: 'open a page of the wiki',
  },
  startPath: '/doku.php?id=start',
  signedIn: false,
  async play(page) {
    await page.getByRole('link', { name: 'Sitemap' }).first().click()
    await page.waitForURL(/do=index/)
    await page.getByRole('link', { name: 'projects', exact: true }).click()
    await page.getByRole('link', { name: 'office_move', exact: true }).click()
    await page.waitForURL(/id=projects:office_move/)
    await page.getByRole('heading', { name: 'Office move' }).waitFor()
  },
  key: {
    target: { method: 'GET', path: '/doku.php' },
    inputs: [
      { recorded: 'projects:office_move', changed: ['projects:budget_review', 'team:contacts'] },
    ],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const id = 'projects:budget_review'
      const res = await app.fetch(`/doku.php?id=${id}`, { session })
      const html = await res.text()
      mustPass(await openPage.key.check(app, { status: 'succeeded', result: html }, session, [id]))
    },
    async check(_app, run, _session, used) {
      return resultHolds(
        run.result,
        PAGE_PHRASE,
        used[0],
        'page',
        (_want, value) => `the answer does not show the text of ${value}`,
      )
    },
  },
}
