/**
 * Shaarli workflows that only read. The list is the home page: a search is `GET /?searchterm=..`
 * (the header's form also sends an empty `searchtags`), a tag filter `GET /?searchtags=..`
 * (reached through `GET /add-tag/<tag>`, which redirects there, merging the tag into the search
 * of the page it was clicked on, taken from the Referer). The tag list is `GET /tags/list`.
 */
import type { Workflow } from '../../types'
import { escapeHtml, mustPass, resultText } from '../keys'
import { row, searchFor, signInFromHeader } from '../person'
import { bookmarkTitled } from '../seed'

/** What a list answer for one value must show (a row's link) and must not (a row it filters out). */
interface ListExpectation {
  shows: string
  hides: string
}

/**
 * True when a list answer links to a seeded bookmark: its row's `href` in the page's HTML (a
 * replay by hand), or a link of the page result a tool run gives (interface.md "Page result":
 * `{title, text, links: [{text, href}]}`, serialized as JSON).
 */
const linksTo = (text: string, title: string): boolean => {
  const url = bookmarkTitled(title).url
  return (
    text.includes(`href="${escapeHtml(url)}"`) || text.includes(`"href":${JSON.stringify(url)}`)
  )
}

/**
 * A list read's check: null when the page lists the bookmark `expected[value].shows` and not
 * `expected[value].hides` (so an unfiltered list does not pass), else what is wrong.
 */
function listHolds(
  result: unknown,
  expected: Record<string, ListExpectation>,
  used: string | number | boolean | undefined,
  what: string,
): string | null {
  const value = String(used)
  const want = expected[value]
  if (!want) return `no expectation for the ${what} ${value}`
  const text = resultText(result)
  if (!linksTo(text, want.shows)) return `the list for ${value} lacks "${want.shows}"`
  if (linksTo(text, want.hides))
    return `the list for ${value} also holds "${want.hides}": not filtered`
  return null
}

const SEARCH_EXPECT: Record<string, ListExpectation> = {
  postgres: { shows: 'PostgreSQL 16 Documentation', hides: 'Kubernetes Documentation' },
  kubernetes: { shows: 'Kubernetes Documentation', hides: 'PostgreSQL 16 Documentation' },
  interrail: { shows: 'Interrail pass planner', hides: 'Sourdough starter guide' },
}

/** Opens the search box, types a word, presses Enter and waits for the matching row. */
export const searchBookmarks: Workflow = {
  id: 'search_bookmarks',
  intent: 'search my bookmarks for postgres',
  rewordings: {
    terse: 'bookmarks: postgres',
    chatty: 'I saved a link about postgres a while ago, can you search my bookmarks for it?',
    withoutValue: 'search my bookmarks for a word',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await searchFor(page, 'postgres')
    await row(page, 'PostgreSQL 16 Documentation').waitFor()
  },
  key: {
    target: { method: 'GET', path: '/' },
    inputs: [{ recorded: 'postgres', changed: ['kubernetes', 'interrail'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const term = 'kubernetes'
      const res = await app.fetch(`/?searchterm=${term}&searchtags=`, { session })
      const html = await res.text()
      mustPass(await this.check(app, { status: 'succeeded', result: html }, session, [term]))
    },
    async check(_app, run, _session, used) {
      return listHolds(run.result, SEARCH_EXPECT, used[0], 'term')
    },
  },
}

const TAG_EXPECT: Record<string, ListExpectation> = {
  recipes: { shows: 'Sourdough starter guide', hides: 'Interrail pass planner' },
  travel: { shows: 'Interrail pass planner', hides: 'Sourdough starter guide' },
  python: { shows: 'Python Packaging User Guide', hides: 'Rust by Example' },
}

/** Clicks the tag `recipes` under the sourdough bookmark and waits for the filtered list. */
export const filterByTag: Workflow = {
  id: 'filter_by_tag',
  intent: 'show my bookmarks tagged recipes',
  rewordings: {
    terse: 'bookmarks tagged recipes',
    chatty: "what recipes have I bookmarked? show me everything with the tag 'recipes' please",
    withoutValue: 'list the bookmarks with a given tag',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await row(page, 'Sourdough starter guide')
      .getByRole('link', { name: 'recipes', exact: true })
      .click()
    await page.waitForURL(/searchtags=recipes/)
    await page.locator('.linklist-item').first().waitFor()
  },
  key: {
    target: { method: 'GET', path: '/' },
    inputs: [{ recorded: 'recipes', changed: ['travel', 'python'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const tag = 'travel'
      const res = await app.fetch(`/?searchtags=${tag}`, { session })
      const html = await res.text()
      mustPass(await this.check(app, { status: 'succeeded', result: html }, session, [tag]))
    },
    async check(_app, run, _session, used) {
      return listHolds(run.result, TAG_EXPECT, used[0], 'tag')
    },
  },
}

/**
 * Tags no workflow renames, adds or removes, with their seeded counts; `finance` is only on
 * private bookmarks, so it is listed only to the signed-in user.
 */
const STABLE_TAG_COUNTS: Record<string, number> = { finance: 3, database: 1, recipes: 1 }

/** The count the tag list shows next to `tag`, or null when the tag is not listed. */
function tagCount(html: string, tag: string): number | null {
  const item =
    new RegExp(`data-tag="${tag}"[\\s\\S]*?class="count">(\\d+)<`).exec(html) ??
    // The page result of a tool run reads the same row as a line "3 finance" (interface.md "Page result").
    new RegExp(`(?:^|\\\\n|\\n)(\\d+) ${tag}(?:\\\\n|\\n|$)`).exec(html)
  return item ? Number(item[1]) : null
}

/** Tag cloud in the header menu, then "Most used": every tag with its number of bookmarks. */
export const listTags: Workflow = {
  id: 'list_tags',
  intent: 'list all my tags with how many bookmarks each one has',
  rewordings: {
    terse: 'my tags and counts',
    chatty: 'which tags am I actually using in Shaarli, and how many bookmarks are under each?',
    withoutValue: 'list my tags',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await page
      .locator('.pure-menu-link', { hasText: /^Tag cloud$/ })
      .first()
      .click()
    await page.waitForURL(/\/tags\/cloud/)
    await page.getByRole('link', { name: 'Most used' }).first().click()
    await page.waitForURL(/\/tags\/list/)
    await page.locator('.tag-list-item[data-tag="finance"]').waitFor()
  },
  key: {
    target: { method: 'GET', path: '/tags/list' },
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch('/tags/list?sort=usage', { session })
      const html = await res.text()
      mustPass(await this.check(app, { status: 'succeeded', result: html }, session, []))
    },
    async check(_app, run) {
      const html = resultText(run.result)
      for (const [tag, count] of Object.entries(STABLE_TAG_COUNTS)) {
        const got = tagCount(html, tag)
        if (got !== count)
          return `the tag list shows ${tag} with ${got ?? 'no'} count, not ${count}`
      }
      return null
    },
  },
}

const PRIVATE_EXPECT: Record<string, ListExpectation> = {
  invoice: { shows: 'Invoice template for freelance work', hides: 'Mortgage calculator' },
  mortgage: { shows: 'Mortgage calculator', hides: 'Payslip folder' },
  payslip: { shows: 'Payslip folder', hides: 'Invoice template for freelance work' },
}

/**
 * Signed out on the list: signs in with the header's Login (Shaarli sends the person back to the
 * list, now with the private bookmarks), then searches for a word only a private bookmark holds.
 */
export const signInAndSearch: Workflow = {
  id: 'sign_in_and_search',
  intent: 'sign in to Shaarli and search my bookmarks, private ones too, for invoice',
  rewordings: {
    terse: 'my bookmarks incl. private: invoice',
    chatty:
      "I bookmarked a private invoice template at some point; can you log in and search my bookmarks for 'invoice'?",
    withoutValue: 'sign in and search my private bookmarks',
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await signInFromHeader(page, app)
    await searchFor(page, 'invoice')
    await row(page, 'Invoice template for freelance work').waitFor()
  },
  key: {
    target: { method: 'GET', path: '/' },
    inputs: [{ recorded: 'invoice', changed: ['mortgage', 'payslip'] }],
    // The tool runs with the saved login; no page must be read before the search.
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const term = 'mortgage'
      const res = await app.fetch(`/?searchterm=${term}&searchtags=`, { session })
      const html = await res.text()
      mustPass(await this.check(app, { status: 'succeeded', result: html }, session, [term]))
    },
    async check(_app, run, _session, used) {
      return listHolds(run.result, PRIVATE_EXPECT, used[0], 'term')
    },
  },
}
