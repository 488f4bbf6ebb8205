import type { Workflow } from '../types'
import { search, waitForFirstSync } from './person'
import { orThrow } from './tiddlers'

/** What the person types into the sidebar search. */
const TERM = 'Recipe'
/** The titles the search lists for {@link TERM}. */
const FOUND = ['Recipe Lentil Soup', 'Recipe Pancakes']

/** The titles in an answer of `GET /recipes/default/tiddlers.json` (a list of skinny tiddlers). */
function titlesIn(result: unknown): string[] {
  const text = typeof result === 'string' ? result : JSON.stringify(result ?? null)
  return FOUND.filter((title) => text.includes(title))
}

/**
 * Searches the wiki from the sidebar. TiddlyWiki searches the tiddlers it already holds in the
 * page: no request carries the term. The only server answer the result can come from is the list
 * of all tiddlers the client read on load, so the key has no input and its target is that list.
 */
export const searchTiddlers: Workflow = {
  id: 'search_tiddlers',
  intent: `search the wiki for ${TERM}`,
  rewordings: {
    terse: `wiki search ${TERM}`,
    chatty: `I'd like to find every tiddler in our wiki that mentions ${TERM}, please`,
    withoutValue: 'search the wiki for a word',
  },
  startPath: '/',
  signedIn: false,
  async play(page) {
    await waitForFirstSync(page)
    const results = await search(page, TERM, FOUND[0]!)
    await results.getByRole('link', { name: FOUND[1]!, exact: true }).first().waitFor()
  },
  key: {
    target: { method: 'GET', path: '/recipes/default/tiddlers.json' },
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch('/recipes/default/tiddlers.json', { session })
      if (!res.ok) throw new Error(`GET /recipes/default/tiddlers.json answered ${res.status}`)
      const result: unknown = await res.json()
      orThrow(await this.check(app, { status: 'succeeded', result }, session, []))
    },
    async check(_app, run) {
      const found = titlesIn(run.result)
      return found.length === FOUND.length
        ? null
        : `the result lists ${found.length} of the ${FOUND.length} ${TERM} tiddlers`
    },
  },
}
