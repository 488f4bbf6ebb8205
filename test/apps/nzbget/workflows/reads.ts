/**
 * Workflows that only read. The web UI polls four reads every second, each a
 * `GET /jsonrpc/<method>` with its parameters as nameless query fields: `status`, `listgroups`
 * (the download list), `log?=<from id>&=0` and `history?=false` (false: without the hidden
 * entries). The search boxes filter in the page: no request carries what the person types.
 */
import type { RequestKey, Workflow } from '../../types'
import { openSignedIn, retype } from '../person'
import { groups, history, mustPass, read, resultText } from '../rpc'
import { HISTORY } from '../seed'
import { LISTGROUPS } from './queue'

/** `GET /jsonrpc/history` (`?=false`): the History tab's list. */
const HISTORY_READ: RequestKey = { method: 'GET', path: '/jsonrpc/history' }

/** Seeded downloads no workflow deletes: every list read must show them. */
const ALWAYS = ['Big Buck Bunny 2008 1080p BluRay x264', 'Ubuntu Noble Desktop amd64 ISO']

/** Opens the web UI signed in and waits for the download list: the list read of a page load. */
export const listDownloads: Workflow = {
  id: 'list_downloads',
  intent: 'list my downloads in NZBGet',
  rewordings: {
    terse: 'nzbget queue',
    chatty:
      "What's sitting in my NZBGet queue right now? Show me everything that's downloading or waiting.",
    withoutValue: 'show my download queue',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openSignedIn(page, app)
    await page.getByRole('link', { name: ALWAYS[0], exact: true }).waitFor()
  },
  key: {
    target: LISTGROUPS,
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const result = await read({ fetch: app.fetch, session }, 'listgroups')
      mustPass(await listDownloads.key.check(app, { status: 'succeeded', result }, session, []))
    },
    async check(app, run, session) {
      const text = resultText(run.result)
      if (!ALWAYS.every((name) => text.includes(name)))
        return `the result does not list ${ALWAYS.join(' and ')}`
      // Every download in the queue now (writes run before may have changed it).
      const missing = (await groups({ fetch: app.fetch, session }))
        .map((g) => g.NZBName)
        .filter((name) => !text.includes(name))
      return missing.length ? `the result misses ${missing.join(', ')}` : null
    },
  },
}

/**
 * History tab, types a word into "Search history": the tab shows the entries whose text holds
 * it. The filtering happens in the page over the `history` answer the UI polls, so the request
 * that answers is `GET /jsonrpc/history?=false` and the typed word is in no request.
 */
export const searchHistory: Workflow = {
  id: 'search_history',
  intent: 'search my NZBGet history for Laundromat',
  rewordings: {
    terse: 'nzbget history Laundromat',
    chatty:
      'Did that Laundromat download ever finish? Can you look it up in my NZBGet history and tell me how it went?',
    withoutValue: 'search the NZBGet download history',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openSignedIn(page, app)
    await page.locator('#HistoryTabLink').click()
    await page.locator('#HistoryTable_filter').waitFor()
    await retype(page.locator('#HistoryTable_filter'), 'Laundromat')
    await page
      .locator('#HistoryTable tbody tr')
      .getByRole('link', { name: 'Cosmos Laundromat 2015 1080p WEB-DL', exact: true })
      .waitFor()
    await page.getByText(/Showing records 1-1 from 1 filtered/).waitFor()
  },
  key: {
    target: HISTORY_READ,
    inputs: [{ recorded: 'Laundromat', changed: ['Caminandes', 'Mozart'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const word = 'Caminandes'
      const all = await history({ fetch: app.fetch, session })
      const result = all.filter((h) => h.Name.toLowerCase().includes(word.toLowerCase()))
      mustPass(await searchHistory.key.check(app, { status: 'succeeded', result }, session, [word]))
    },
    async check(_app, run, _session, used) {
      const word = String(used[0]).toLowerCase()
      const wanted = HISTORY.filter((h) => h.name.toLowerCase().includes(word))
      if (!wanted.length) return `no seeded history entry matches ${word}`
      const text = resultText(run.result)
      const missing = wanted.filter((h) => !text.includes(h.name))
      return missing.length
        ? `the result does not show ${missing.map((h) => h.name).join(', ')} from the history`
        : null
    },
  },
}
