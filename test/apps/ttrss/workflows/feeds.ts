/**
 * Subscribing, renaming and unsubscribing feeds from the main page. Subscribe (Actions →
 * Subscribe to feed...) posts `op=rpc&method=addfeed` with the URL and the category id picked in
 * the dialog's list; rename is the feed's edit dialog (Actions → Edit this feed...) saved with
 * `op=pref-feeds&method=editSave`, which sends every field of the form (URL, category, ...) next
 * to `id` and `title`; unsubscribe (Actions → Unsubscribe, confirmed) posts
 * `op=pref-feeds&method=remove&ids=<id>`. Feeds picked in the tree are named by id.
 */
import type { Workflow } from '../../types'
import {
  backendCall,
  CSRF_PAGE,
  FEED_TREE,
  feedNamed,
  feedTree,
  feedUrlOf,
  mustPass,
} from '../keys'
import { answerOf, mainReady, openFeed, pickAction } from '../person'
import { CATEGORIES, feedUrl } from '../seed'
import { backend } from '../session'

/** The subscribe dialog (`op=feeds&method=quickAddFeed`): it lists the categories and their ids. */
const SUBSCRIBE_DIALOG = backendCall('POST', 'feeds', 'quickAddFeed')
/** The feed edit dialog (`GET ?op=pref-feeds&method=editfeed&id=`): the form editSave sends. */
const EDIT_DIALOG = backendCall('GET', 'pref-feeds', 'editfeed')

/** Feed titles of the unsubscribed feed files, as tt-rss names them after a subscribe. */
const TITLE_OF_URL: Record<string, string> = {
  [feedUrl('cycling.xml')]: 'Cycling Routes',
  [feedUrl('chess.xml')]: 'Chess Corner',
  [feedUrl('photo.xml')]: 'Photo Walks',
}

/** Actions → Subscribe to feed..., types the URL, picks Local as category, Subscribe. */
export const subscribeFeed: Workflow = {
  id: 'subscribe_feed',
  intent: 'subscribe to the feed http://feeds.example/cycling.xml in the Local category',
  rewordings: {
    terse: 'subscribe http://feeds.example/cycling.xml into Local',
    chatty:
      'I found a cycling routes feed at http://feeds.example/cycling.xml, could you add it to my Local category?',
    withoutValue: 'subscribe to a new feed in one of my categories',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await mainReady(page)
    await answerOf(page, 'feeds', 'quickAddFeed', () => pickAction(page, 'Subscribe to feed...'))
    const dialog = page.locator('.dijitDialog', { hasText: 'Subscribe to Feed' })
    await dialog.locator('input[name=feed]').fill(feedUrl('cycling.xml'))
    const local = page.locator('#cat_menu').getByRole('option', { name: 'Local', exact: true })
    // The list opens on a click once dojo has set the dialog up; a click before that is lost.
    for (let tries = 0; !(await local.isVisible()) && tries < 10; tries++) {
      await dialog.locator('#cat').click()
      await local.waitFor({ timeout: 2000 }).catch(() => undefined)
    }
    // force: under the recorder the open list never counts as "stable" for Playwright.
    await local.click({ force: true })
    await dialog.locator('#cat', { hasText: 'Local' }).waitFor()
    await answerOf(page, 'rpc', 'addfeed', () =>
      dialog.getByRole('button', { name: 'Subscribe' }).click(),
    )
    await dialog.waitFor({ state: 'hidden' })
  },
  key: {
    target: backendCall('POST', 'rpc', 'addfeed'),
    inputs: [
      { recorded: feedUrl('cycling.xml'), changed: [feedUrl('chess.xml'), feedUrl('photo.xml')] },
      { recorded: 'Local', changed: ['Hobbies', 'Science'] },
    ],
    dependencies: [SUBSCRIBE_DIALOG, CSRF_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const used = [feedUrl('chess.xml'), 'Hobbies']
      await backend(app, session, {
        op: 'rpc',
        method: 'addfeed',
        feed: used[0]!,
        cat: String(CATEGORIES.indexOf(used[1]!) + 1),
        login: '',
        pass: '',
      })
      mustPass(
        await subscribeFeed.key.check(app, { status: 'succeeded', result: null }, session, used),
      )
    },
    async check(app, _run, session, used) {
      const url = String(used[0])
      const category = String(used[1])
      const tree = await feedTree(app, session)
      const feed = tree.find((e) => e.kind === 'feed' && e.name === TITLE_OF_URL[url])
      if (!feed) return `no feed "${TITLE_OF_URL[url]}" (${url}) is subscribed`
      if ((await feedUrlOf(app, session, feed.id)) !== url)
        return `the feed "${feed.name}" has another URL than ${url}`
      if (feed.category !== category)
        return `"${feed.name}" is in ${feed.category}, not ${category}`
      if (tree.some((e) => e.kind === 'feed' && e.name === 'Cycling Routes'))
        return 'the recorded feed (cycling.xml) was subscribed instead'
      return null
    },
  },
}

/** Clicks Film Club in the tree, Actions → Edit this feed..., types the new title, Save. */
export const renameFeed: Workflow = {
  id: 'rename_feed',
  intent: "rename the feed 'Film Club' to 'Cinema Notes'",
  rewordings: {
    terse: 'rename Film Club to Cinema Notes',
    chatty: "the Film Club feed is really about cinema in general, can you call it 'Cinema Notes'?",
    withoutValue: 'rename one of my feeds',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await mainReady(page)
    await openFeed(page, 'Hobbies', 'Film Club')
    await pickAction(page, 'Edit this feed...')
    const dialog = page.locator('.dijitDialog', { hasText: 'Edit Feed' })
    const title = dialog.locator('input[name=title]')
    await title.waitFor()
    await title.fill('Cinema Notes')
    await answerOf(page, 'pref-feeds', 'editSave', () =>
      dialog.getByRole('button', { name: 'Save', exact: true }).click(),
    )
    await page.locator('#feedTree .dijitTreeLabel', { hasText: 'Cinema Notes' }).waitFor()
  },
  key: {
    target: backendCall('POST', 'pref-feeds', 'editSave'),
    inputs: [
      { recorded: 'Film Club', changed: ['Museum Diary', 'Book Nook'] },
      { recorded: 'Cinema Notes', changed: ['Gallery Notes', 'Reading Corner'] },
    ],
    dependencies: [FEED_TREE, EDIT_DIALOG, CSRF_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const used = ['Museum Diary', 'Gallery Notes']
      const feed = await feedNamed(app, session, used[0]!)
      if (!feed) throw new Error(`no feed ${used[0]}`)
      await backend(app, session, {
        id: String(feed.id),
        op: 'pref-feeds',
        method: 'editSave',
        title: used[1]!,
        feed_url: await feedUrlOf(app, session, feed.id),
        cat_id: String(CATEGORIES.indexOf(feed.category) + 1),
        site_url: feedUrl('museum/'),
        feed_language: 'Simple',
        update_interval: '0',
        purge_interval: '0',
        auth_login: '',
        auth_pass: '',
        include_in_digest: 'on',
      })
      mustPass(
        await renameFeed.key.check(app, { status: 'succeeded', result: null }, session, used),
      )
    },
    async check(app, _run, session, used) {
      const [old, title] = used.map(String) as [string, string]
      const tree = await feedTree(app, session)
      const feed = tree.find((e) => e.kind === 'feed' && e.name === title)
      if (!feed) return `no feed is called "${title}"`
      if (tree.some((e) => e.kind === 'feed' && e.name === old)) return `"${old}" is still there`
      const file = { 'Museum Diary': 'museum.xml', 'Book Nook': 'books.xml' }[old]
      if (file && (await feedUrlOf(app, session, feed.id)) !== feedUrl(file))
        return `"${title}" no longer has the URL of ${old} (${feedUrl(file)})`
      const home = { 'Museum Diary': 'Local', 'Book Nook': 'Hobbies' }[old]
      if (home && feed.category !== home) return `"${title}" moved from ${home} to ${feed.category}`
      if (!tree.some((e) => e.kind === 'feed' && e.name === 'Film Club'))
        return 'the recorded feed "Film Club" was renamed instead'
      return null
    },
  },
}

/** Clicks Podcast Picks in the tree, Actions → Unsubscribe, and confirms. */
export const unsubscribeFeed: Workflow = {
  id: 'unsubscribe_feed',
  intent: "unsubscribe from the feed 'Podcast Picks'",
  rewordings: {
    terse: 'unsubscribe Podcast Picks',
    chatty: "I never listen to those shows, please drop the 'Podcast Picks' feed from my reader",
    withoutValue: 'unsubscribe from one of my feeds',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await mainReady(page)
    await openFeed(page, 'Uncategorized', 'Podcast Picks')
    page.once('dialog', (d) => void d.accept())
    // After the remove the page opens feed -5 in place of the feed that is gone.
    await answerOf(page, 'feeds', 'view', () =>
      answerOf(page, 'pref-feeds', 'remove', () => pickAction(page, 'Unsubscribe')),
    )
  },
  key: {
    target: backendCall('POST', 'pref-feeds', 'remove'),
    inputs: [{ recorded: 'Podcast Picks', changed: ['Running Log', 'Weather Watch'] }],
    dependencies: [FEED_TREE, CSRF_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const name = 'Running Log'
      const feed = await feedNamed(app, session, name)
      if (!feed) throw new Error(`no feed ${name}`)
      await backend(app, session, {
        op: 'pref-feeds',
        quiet: '1',
        method: 'remove',
        ids: String(feed.id),
      })
      mustPass(
        await unsubscribeFeed.key.check(app, { status: 'succeeded', result: null }, session, [
          name,
        ]),
      )
    },
    async check(app, _run, session, used) {
      const name = String(used[0])
      const feeds = (await feedTree(app, session)).filter((e) => e.kind === 'feed')
      if (feeds.some((e) => e.name === name)) return `"${name}" is still subscribed`
      if (!feeds.some((e) => e.name === 'Podcast Picks'))
        return 'the recorded feed "Podcast Picks" was unsubscribed instead'
      if (feeds.length < 10) return `more feeds than "${name}" were unsubscribed`
      return null
    },
  },
}
