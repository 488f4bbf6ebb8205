import type { Page } from 'playwright-core'
import type { AnswerKey, Workflow } from '../types'
import { getJson, namesIn, orThrow } from './answers'

/** The header's search box: a typeahead that asks the server as the person types. */
async function typeInSearch(page: Page, text: string): Promise<void> {
  const box = page.locator('#search-header-suggest')
  await box.click()
  await box.pressSequentially(text, { delay: 60 })
}

/** Waits until the typeahead's answer for `term` came and its suggestions list `name`. */
async function suggestionsFor(page: Page, term: string, name: string): Promise<void> {
  const path = `/-/verdaccio/data/search/${encodeURIComponent(term)}`
  await page.waitForResponse((r) => new URL(r.url()).pathname === path && r.ok())
  await page.getByRole('option').filter({ hasText: name }).first().waitFor()
}

/** The key of a typeahead search: `GET /-/verdaccio/data/search/<term>`, the term a path segment. */
function searchKey(recorded: string, changed: Array<[string, string]>): AnswerKey {
  // Each changed term with the package its answer must list.
  const expect = new Map(changed)
  return {
    target: { method: 'GET', path: `/-/verdaccio/data/search/${recorded}` },
    inputs: [{ recorded, changed: [changed[0]![0], changed[1]![0]] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const term = changed[0]![0]
      const path = `/-/verdaccio/data/search/${encodeURIComponent(term)}`
      const result = await getJson((p) => app.fetch(p, { session }), path)
      orThrow(await this.check(app, { status: 'succeeded', result }, session, [term]))
    },
    async check(_app, run, _session, used) {
      const want = expect.get(String(used[0]))
      const names = namesIn(run.result)
      return want && names.includes(want)
        ? null
        : `the answer lists [${names.join(', ')}], not ${want ?? '?'}`
    },
  }
}

/** Types a name into the header search and reads the suggestions (without opening one). */
export const searchPackages: Workflow = {
  id: 'search_packages',
  intent: 'search the npm registry for packages named lunar',
  rewordings: {
    terse: 'registry search lunar',
    chatty:
      'Can you look through our npm registry and tell me which packages have lunar in the name?',
    withoutValue: 'search the npm registry for packages by name',
  },
  startPath: '/',
  signedIn: false,
  async play(page) {
    await page.getByRole('link', { name: 'tidy-csv', exact: true }).first().waitFor()
    const answered = suggestionsFor(page, 'lunar', 'lunar-calendar')
    await typeInSearch(page, 'lunar')
    await answered
    await page.getByRole('option').filter({ hasText: 'lunar-phase' }).first().waitFor()
  },
  key: searchKey('lunar', [
    ['tidy', 'tidy-csv'],
    ['calendar', 'lunar-calendar'],
  ]),
}

/**
 * Types `lunar`, reads the suggestions, then narrows the term to `lunar-cal`: two searches, and
 * the tool is the second one (the typeahead asks for every settled prefix).
 */
export const refineSearch: Workflow = {
  id: 'refine_search',
  intent: 'search the npm registry for lunar-cal',
  rewordings: {
    terse: 'registry search lunar-cal',
    chatty:
      'I typed lunar but that was too broad, could you search the registry for lunar-cal instead?',
    withoutValue: 'narrow down a package search in the registry',
  },
  startPath: '/',
  signedIn: false,
  async play(page) {
    await page.getByRole('link', { name: 'tidy-csv', exact: true }).first().waitFor()
    const broad = suggestionsFor(page, 'lunar', 'lunar-phase')
    await typeInSearch(page, 'lunar')
    await broad
    const narrow = suggestionsFor(page, 'lunar-cal', 'lunar-calendar')
    await page.locator('#search-header-suggest').pressSequentially('-cal', { delay: 60 })
    await narrow
  },
  key: searchKey('lunar-cal', [
    ['tidy-c', 'tidy-csv'],
    ['lunar-ph', 'lunar-phase'],
  ]),
}
