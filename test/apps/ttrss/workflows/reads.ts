/**
 * Reads in the main page: a search typed in the Search dialog, and the unread articles of a
 * feed picked in the tree. Both are `op=feeds&method=view` calls; the search adds `query`, the
 * feed is named by its id (`feed=2`), which a tool naming the feed must look up in the tree.
 */
import type { Workflow } from '../../types'
import { CSRF_PAGE, FEED_TREE, HEADLINES, mustPass, resultText } from '../keys'
import { answerOf, mainReady, openFeed, pickAction } from '../person'
import { feedId, SUBSCRIBED } from '../seed'
import { backend } from '../session'

/** Titles a search for each word must list (every seeded article whose title holds it). */
const SEARCH_HITS: Record<string, string[]> = {
  tomato: ['Saving tomato seeds for spring', 'Roasted tomato soup for cold evenings'],
  apple: ['Winter pruning of apple trees', 'Spiced apple cake'],
  meteor: ['Geminid meteor shower peaks in December'],
}

/** Opens All articles, then Actions → Search..., types the word and searches. */
export const searchArticles: Workflow = {
  id: 'search_articles',
  intent: 'search my feeds for articles about tomato',
  rewordings: {
    terse: 'search articles tomato',
    chatty: 'I remember reading something about tomatoes in one of my feeds, can you find it?',
    withoutValue: 'search my feed reader for a word',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await mainReady(page)
    await answerOf(page, 'feeds', 'view', () =>
      page.locator('#feedTree .dijitTreeLabel', { hasText: 'All articles' }).click(),
    )
    await pickAction(page, 'Search...')
    const query = page.locator('#searchDlg input[name=query]')
    await query.fill('tomato')
    await answerOf(page, 'feeds', 'view', () =>
      page.locator('#searchDlg').getByRole('button', { name: 'Search', exact: true }).click(),
    )
    await page
      .locator('#headlines-frame .title', { hasText: 'Saving tomato seeds for spring' })
      .waitFor()
  },
  key: {
    target: HEADLINES,
    inputs: [{ recorded: 'tomato', changed: ['apple', 'meteor'] }],
    dependencies: [CSRF_PAGE],
    mutating: false,
    async replayByHand(app, session) {
      const result = await backend(app, session, {
        op: 'feeds',
        method: 'view',
        feed: '-4',
        view_mode: 'adaptive',
        order_by: 'default',
        query: 'apple',
        search_language: 'Simple',
        cat: 'false',
      })
      mustPass(
        await searchArticles.key.check(app, { status: 'succeeded', result }, session, ['apple']),
      )
    },
    async check(_app, run, _session, used) {
      const text = resultText(run.result)
      const word = String(used[0])
      for (const title of SEARCH_HITS[word] ?? [])
        if (!text.includes(title)) return `the result does not list "${title}" (searched ${word})`
      if (text.includes('Roasted tomato soup for cold evenings'))
        return 'the result lists the recorded search (tomato) instead'
      return null
    },
  },
}

/** The seeded article titles of `feed`. */
function titlesOf(feed: string): string[] {
  return SUBSCRIBED.find((f) => f.title === feed)?.items.map((i) => i.title) ?? []
}

/** Unfolds Local in the tree and clicks City Transit News: its unread articles show. */
export const listFeedUnread: Workflow = {
  id: 'list_feed_unread',
  intent: 'show me the unread articles in City Transit News',
  rewordings: {
    terse: 'unread in City Transit News',
    chatty: "what's new in the City Transit News feed that I haven't read yet?",
    withoutValue: "list a feed's unread articles",
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await mainReady(page)
    await openFeed(page, 'Local', 'City Transit News')
    await page
      .locator('#headlines-frame .title', { hasText: 'Fare changes from January' })
      .waitFor()
  },
  key: {
    target: HEADLINES,
    inputs: [{ recorded: 'City Transit News', changed: ['Garden Notes', 'Tech Weekly'] }],
    dependencies: [FEED_TREE, CSRF_PAGE],
    mutating: false,
    async replayByHand(app, session) {
      const result = await backend(app, session, {
        op: 'feeds',
        method: 'view',
        feed: String(feedId('Garden Notes')),
        view_mode: 'adaptive',
        order_by: 'default',
        cat: 'false',
      })
      mustPass(
        await listFeedUnread.key.check(app, { status: 'succeeded', result }, session, [
          'Garden Notes',
        ]),
      )
    },
    async check(_app, run, _session, used) {
      const text = resultText(run.result)
      const feed = String(used[0])
      for (const title of titlesOf(feed))
        if (!text.includes(title)) return `the result does not list "${title}" of ${feed}`
      if (text.includes('Tram depot open day on Saturday'))
        return 'the result lists City Transit News (the recorded feed) instead'
      return null
    },
  },
}
