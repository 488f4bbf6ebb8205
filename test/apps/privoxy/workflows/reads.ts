/**
 * Reading Privoxy's web interface. `show-url-info?url=<url>` tells which actions every action file
 * applies to a URL and why (each file's matching sections, each with the matching pattern in
 * `<code>`), then the final result; its form posts to `//config.privoxy.org/show-url-info`, so
 * the person types the page's address with the URL instead (NOTES.md). The status page
 * (`/show-status`) lists the action files with View (`/show-status?file=actions&index=<i>`,
 * the file's text) and Edit (`/edit-actions-list?f=<i>`) links.
 */
import type { Workflow } from '../../types'
import { resultText } from '../../match'
import { getText } from '../../sessionFetch'
import { mustPass, textLines } from '../keys'
import { openActionFile } from '../person'

/** The pattern of user.action each looked-up URL matches. */
const MATCHED: Record<string, string> = {
  'metrics.shopfront.test/pixel.gif': 'metrics.shopfront.test/pixel',
  'www.share-this.test/buttons/fb.js': '.share-this.test/buttons',
  'build.corp.test:8080/job/nightly': 'build.corp.test:8080',
}

/** Opens the URL info page and asks it about metrics.shopfront.test/pixel.gif. */
export const lookupUrl: Workflow = {
  id: 'lookup_url',
  intent: 'check which Privoxy actions apply to metrics.shopfront.test/pixel.gif',
  rewordings: {
    terse: 'privoxy actions for metrics.shopfront.test/pixel.gif',
    chatty:
      "Someone says the shop's tracking pixel metrics.shopfront.test/pixel.gif gets blocked, can you ask Privoxy which rules hit that URL?",
    withoutValue: 'look up which Privoxy rules apply to a URL',
  },
  startPath: '/show-url-info',
  signedIn: false,
  async play(page, app) {
    await page.locator('input[name=url]').waitFor()
    // The form's action is //config.privoxy.org/show-url-info: the person types the address.
    await page.goto(`${app.origin}/show-url-info?url=metrics.shopfront.test/pixel.gif`, {
      waitUntil: 'domcontentloaded',
    })
    await page.locator('code', { hasText: 'metrics.shopfront.test/pixel' }).waitFor()
  },
  key: {
    target: { method: 'GET', path: '/show-url-info' },
    inputs: [
      {
        recorded: 'metrics.shopfront.test/pixel.gif',
        changed: ['www.share-this.test/buttons/fb.js', 'build.corp.test:8080/job/nightly'],
      },
    ],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const url = 'www.share-this.test/buttons/fb.js'
      const html = await getText(app, session, `/show-url-info?url=${encodeURIComponent(url)}`)
      mustPass(
        await lookupUrl.key.check(app, { status: 'succeeded', result: html }, session, [url]),
      )
    },
    async check(_app, run, _session, used) {
      const url = String(used[0])
      const lines = textLines(resultText(run.result))
      const want = MATCHED[url]
      if (!want || !lines.includes(want)) return `the answer shows no match of "${want}" for ${url}`
      if (lines.includes('metrics.shopfront.test/pixel'))
        return "the answer shows the recorded URL's match (metrics.shopfront.test/pixel)"
      return null
    },
  },
}

/** A line only each action file holds (its header comment, or a seeded section). */
const MARK: Record<string, string> = {
  'user.action': '{ +block{Survey popups.} }',
  'default.action': 'Default actions file',
  'match-all.action': 'applied to all requests',
}

/** Opens the status page and clicks View in the row of user.action. */
export const viewActionsFile: Workflow = {
  id: 'view_actions_file',
  intent: "show me what's in Privoxy's user.action file",
  rewordings: {
    terse: 'view user.action',
    chatty:
      'Could you pull up the contents of the user.action file on our Privoxy so I can read through the rules?',
    withoutValue: 'show one of the Privoxy action files',
  },
  startPath: '/show-status',
  signedIn: false,
  async play(page) {
    await openActionFile(page, 'user.action', 'View')
    await page.locator('pre', { hasText: 'Survey popups.' }).waitFor()
  },
  key: {
    target: { method: 'GET', path: '/show-status', operation: { field: 'file', value: 'actions' } },
    inputs: [{ recorded: 'user.action', changed: ['default.action', 'match-all.action'] }],
    // The file is named by its index in the status page's list.
    dependencies: [{ method: 'GET', path: '/show-status' }],
    mutating: false,
    async replayByHand(app, session) {
      const html = await getText(app, session, '/show-status?file=actions&index=1')
      mustPass(
        await viewActionsFile.key.check(app, { status: 'succeeded', result: html }, session, [
          'default.action',
        ]),
      )
    },
    async check(_app, run, _session, used) {
      const text = resultText(run.result).replace(/&amp;/g, '&')
      const name = String(used[0])
      if (!text.includes(MARK[name]!)) return `the answer is not the text of ${name}`
      const others = Object.keys(MARK).filter((f) => f !== name && text.includes(MARK[f]!))
      return others.length ? `the answer shows ${others.join(', ')}` : null
    },
  },
}
