/**
 * Reading the torrent list. The list is `web.update_ui(keys, filter_dict)`, which the UI sends
 * on load and again every two seconds with the filters the sidebar has selected: the answer
 * holds `torrents` (by info hash, each with its name and state), the sidebar's `filters` with
 * counts and the status bar's `stats`.
 */
import type { RequestKey, Workflow } from '../../types'
import { call, mustPass, resultText, torrents } from '../rpc'
import { row, waitForList } from '../ui'

/** `POST /json` calling `web.update_ui`: the list, as the UI polls it. */
export const UPDATE_UI: RequestKey = {
  method: 'POST',
  path: '/json',
  operation: { field: 'method', value: 'web.update_ui' },
}

/** The columns the torrent list asks for (Deluge.Keys.Grid), enough for a replay. */
const GRID_KEYS = ['queue', 'name', 'total_wanted', 'state', 'progress', 'eta', 'ratio']

/** Seeded torrents no workflow ever pauses, resumes or removes: every list must show them. */
const ALWAYS = ['ubuntu-24.04-desktop-amd64.iso', 'kali-linux-2024.2-installer-amd64.iso']

/** Opens the web UI signed in and waits for the list: the list read on page load. */
export const listTorrents: Workflow = {
  id: 'list_torrents',
  intent: 'list my torrents in Deluge',
  rewordings: {
    terse: 'deluge torrents',
    chatty: "What's in my Deluge right now? Show me all the torrents I've got.",
    withoutValue: 'show all my torrents',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await waitForList(page)
    await waitForList(page, ALWAYS[1])
  },
  key: {
    target: UPDATE_UI,
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const result = await call(app, session, 'web.update_ui', [GRID_KEYS, {}])
      mustPass(await listTorrents.key.check(app, { status: 'succeeded', result }, session, []))
    },
    async check(app, run, session) {
      const text = resultText(run.result)
      const now = await torrents(app, session)
      const missing = Object.values(now)
        .map((t) => t.name)
        .filter((name) => !text.includes(name))
      if (!ALWAYS.every((name) => text.includes(name)))
        return `the result does not list ${ALWAYS.join(' and ')}`
      return missing.length ? `the result misses ${missing.join(', ')}` : null
    },
  },
}

/**
 * Clicks "Paused" in the sidebar's States panel: the list is asked again with
 * `{"state": "Paused"}` as filter_dict, and shows only the paused torrents.
 */
export const filterByState: Workflow = {
  id: 'filter_by_state',
  intent: 'show only my Paused torrents',
  rewordings: {
    terse: 'paused torrents',
    chatty: 'Can you pull up just the torrents that are sitting there Paused in Deluge?',
    withoutValue: 'filter my torrents by their state',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await waitForList(page)
    await page.locator('.x-deluge-filter', { hasText: /^Paused \(\d+\)$/ }).click()
    // The list keeps only the paused rows: a downloading one goes, a paused one stays.
    await row(page, 'ubuntu-24.04-desktop-amd64.iso').waitFor({ state: 'detached' })
    await waitForList(page, 'kali-linux-2024.2-installer-amd64.iso')
  },
  key: {
    target: UPDATE_UI,
    inputs: [{ recorded: 'Paused', changed: ['Seeding', 'Downloading'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const state = 'Seeding'
      const result = await call(app, session, 'web.update_ui', [GRID_KEYS, { state }])
      mustPass(
        await filterByState.key.check(app, { status: 'succeeded', result }, session, [state]),
      )
    },
    async check(app, run, session, used) {
      const state = String(used[0])
      const text = resultText(run.result)
      const all = Object.values(await torrents(app, session))
      const wanted = all.filter((t) => t.state === state).map((t) => t.name)
      const others = all.filter((t) => t.state !== state).map((t) => t.name)
      if (!wanted.length) return `no torrent is ${state} now: nothing to compare`
      const missing = wanted.filter((name) => !text.includes(name))
      if (missing.length) return `the result misses the ${state} torrents ${missing.join(', ')}`
      const extra = others.filter((name) => text.includes(name))
      return extra.length
        ? `the result also lists torrents not ${state}: ${extra.join(', ')}`
        : null
    },
  },
}
