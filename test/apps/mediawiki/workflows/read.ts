/** The read workflows: the search box's suggestions and the list of pages by prefix. */
import type { Workflow } from '../../types'
import { resultText } from '../http'
import { focusSearchBox } from '../person'

const MAIN = '/index.php/Main_Page'

/** Titles the seed has under each prefix the keys use (see seed.ts). */
const TITLES_BY_PREFIX: Record<string, string[]> = {
  Lunar: ['Lunar Calendar', 'Lunar Eclipse'],
  Garden: ['Garden Plan', 'Garden Tools'],
  Kitchen: ['Kitchen Rota', 'Kitchen Supplies'],
  Bicycle: ['Bicycle Repair', 'Bicycle Routes'],
  Holiday: ['Holiday Schedule'],
  Onboarding: ['Onboarding Guide'],
}

/** A read's check: every seeded title under `prefix` is in the result. */
function titlesIn(result: unknown, prefix: string): string | null {
  const text = resultText(result)
  const missing = (TITLES_BY_PREFIX[prefix] ?? []).filter((t) => !text.includes(t))
  return missing.length ? `the result lacks ${missing.join(', ')}` : null
}

/**
 * Types into the header's search box; the typeahead asks api.php?action=opensearch at each
 * keystroke and the person reads the suggestions.
 */
export const searchPages: Workflow = {
  id: 'search_pages',
  intent: 'search the wiki for pages whose title starts with Lunar',
  rewordings: {
    terse: 'wiki title search Lunar',
    chatty: 'could you look up which pages on our wiki have titles beginning with "Lunar"?',
    withoutValue: 'search the wiki for pages by the start of their title',
  },
  startPath: MAIN,
  signedIn: true,
  async play(page) {
    const box = await focusSearchBox(page)
    await box.pressSequentially('Lunar', { delay: 80 })
    await page.locator('.suggestions-result', { hasText: 'Lunar Eclipse' }).waitFor()
  },
  key: {
    target: {
      method: 'GET',
      path: '/api.php',
      operation: { field: 'action', value: 'opensearch' },
    },
    inputs: [{ recorded: 'Lunar', changed: ['Garden', 'Kitchen'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch(
        '/api.php?action=opensearch&format=json&formatversion=2&search=Garden&namespace=0&limit=10',
        { session },
      )
      const problem = await this.check(
        app,
        { status: 'succeeded', result: await res.json() },
        session,
        ['Garden'],
      )
      if (problem) throw new Error(problem)
    },
    async check(_app, run, _session, used) {
      return titlesIn(run.result, String(used[0]))
    },
  },
}

/**
 * Opens Special pages from the sidebar, then "All pages with prefix", types a prefix and
 * submits the form (a GET of /index.php/Special:PrefixIndex?prefix=...).
 */
export const listPagesByPrefix: Workflow = {
  id: 'list_pages_by_prefix',
  intent: 'list all pages whose names start with Bicycle',
  rewordings: {
    terse: 'pages with prefix Bicycle',
    chatty: 'I need a list of every wiki page whose name begins with "Bicycle", please',
    withoutValue: 'list the wiki pages that start with a given prefix',
  },
  startPath: MAIN,
  signedIn: true,
  async play(page) {
    await page.waitForLoadState('load')
    await page.locator('#t-specialpages a').click()
    await page.getByRole('link', { name: 'All pages with prefix' }).click()
    const prefix = page.locator('input[name="prefix"]')
    await prefix.click()
    await prefix.pressSequentially('Bicycle', { delay: 40 })
    await page.locator('#mw-content-text').getByRole('button', { name: 'Show' }).click()
    await page.locator('.mw-prefixindex-list', { hasText: 'Bicycle Routes' }).waitFor()
  },
  key: {
    target: { method: 'GET', path: '/index.php/Special:PrefixIndex' },
    inputs: [{ recorded: 'Bicycle', changed: ['Holiday', 'Onboarding'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch('/index.php/Special:PrefixIndex?prefix=Holiday&namespace=0', {
        session,
      })
      const html = await res.text()
      const problem = await this.check(app, { status: 'succeeded', result: html }, session, [
        'Holiday',
      ])
      if (problem) throw new Error(problem)
      if (html.includes('Bicycle Repair')) throw new Error('the list is not filtered by the prefix')
    },
    async check(_app, run, _session, used) {
      return titlesIn(run.result, String(used[0]))
    },
  },
}
