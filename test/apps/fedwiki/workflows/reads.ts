/**
 * Reading the wiki: searching it from the footer's search box, and opening a page found by
 * typing part of its title. Search runs in the browser over the site index the client loads with
 * the first page (`GET /system/site-index.json`): no request carries the term. A page opens as
 * `GET /<slug>.json`.
 */
import type { Workflow } from '../../types'
import { mustPass, textOf } from '../keys'
import { searchAndOpen, shownPage } from '../person'
import { PAGES } from '../seed'

/** The term the person searches for, and the pages that hold it. */
const TERM = 'plot'
const FOUND = ['ada', 'meeting-notes']

/** Types "plot" in the search box and presses Enter: a result page lists both pages. */
export const searchPages: Workflow = {
  id: 'search_pages',
  intent: `search the wiki for "${TERM}"`,
  rewordings: {
    terse: `wiki search ${TERM}`,
    chatty: `can you look through our allotment wiki and find every page that mentions ${TERM}?`,
    withoutValue: 'search the wiki for a word',
  },
  startPath: '/view/welcome-visitors',
  signedIn: true,
  async play(page) {
    await shownPage(page, 'welcome-visitors')
    const box = page.locator('footer input.search')
    await box.pressSequentially(TERM, { delay: 40 })
    await box.press('Enter')
    const results = page.locator('.page', { hasText: `Search for '${TERM}'` })
    await results.locator('.item.reference', { hasText: 'Meeting Notes' }).waitFor()
  },
  key: {
    target: { method: 'GET', path: '/system/site-index.json' },
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch('/system/site-index.json', { session })
      if (!res.ok) throw new Error(`GET /system/site-index.json answered ${res.status}`)
      const result: unknown = await res.json()
      mustPass(await searchPages.key.check(app, { status: 'succeeded', result }, session, []))
    },
    async check(_app, run) {
      const found = pagesHolding(run.result, TERM)
      if (!found) return `the result is not a search index that says which pages hold "${TERM}"`
      const missing = FOUND.filter((slug) => !found.includes(slug))
      return missing.length ? `the index does not find ${TERM} on ${missing.join(', ')}` : null
    },
  },
}

/**
 * The slugs the site index (a serialized MiniSearch index: `documentIds`, and `index` as
 * `[term, {fieldId: {docId: count}}]` pairs) lists for `term` in any field, or null when `result`
 * is not such an index. The sitemap names every page too, but only with its first paragraph, so
 * it cannot say that Meeting Notes mentions "plot" in its second.
 */
function pagesHolding(result: unknown, term: string): string[] | null {
  let json: unknown = result
  if (typeof result === 'string') {
    try {
      json = JSON.parse(result)
    } catch {
      return null
    }
  }
  const index = json as {
    documentIds?: Record<string, string>
    index?: Array<[string, Record<string, Record<string, number>>]>
  } | null
  if (!index?.documentIds || !Array.isArray(index.index)) return null
  const entry = index.index.find((e) => Array.isArray(e) && e[0] === term)
  if (!entry) return []
  const docs = Object.values(entry[1]).flatMap((byDoc) => Object.keys(byDoc))
  return [...new Set(docs.map((d) => index.documentIds![d]!).filter(Boolean))]
}

/** Types "sourdough" in the search box and clicks the Sourdough Bread result. */
export const openPage: Workflow = {
  id: 'open_page',
  intent: 'open the Sourdough Bread page on the wiki',
  rewordings: {
    terse: 'show page sourdough-bread',
    chatty:
      "I can't remember what we wrote about the sourdough, could you pull up the Sourdough Bread page?",
    withoutValue: 'open a page of the wiki',
  },
  startPath: '/view/welcome-visitors',
  signedIn: true,
  async play(page) {
    const paper = await searchAndOpen(page, 'sourdough', 'Sourdough Bread', 'sourdough-bread')
    await paper.locator('.item', { hasText: 'rye flour' }).waitFor()
  },
  key: {
    target: { method: 'GET', path: /\/[a-z0-9-]+\.json/ },
    inputs: [{ recorded: 'sourdough-bread', changed: ['tool-shed', 'compost-heap'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch('/tool-shed.json', { session })
      if (!res.ok) throw new Error(`GET /tool-shed.json answered ${res.status}`)
      const result: unknown = await res.json()
      mustPass(
        await openPage.key.check(app, { status: 'succeeded', result }, session, ['tool-shed']),
      )
    },
    async check(_app, run, _session, used) {
      const page = PAGES.find((p) => p.slug === String(used[0]))!
      const text = textOf(run.result)
      if (!text.includes(page.title)) return `the result is not the page ${page.title}`
      if (!text.includes(page.story[0]!.text))
        return `the result lacks ${page.title}'s first paragraph`
      if (text.includes('rye flour')) return 'the result is the recorded page Sourdough Bread'
      return null
    },
  },
}
