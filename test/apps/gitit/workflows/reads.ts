/**
 * The reads: a search from the sidebar's search box (`GET /_search?patterns=...&search=Search`,
 * no login needed), a page's history (`GET /_history/<Title>`, the page picked from "All pages"),
 * and the differences between a page's first and latest revisions (`GET /_diff/<Title>?from=
 * <sha>&to=<sha>`), which the history page opens when one revision is dragged onto another: the
 * two revision ids come from the history page.
 */
import type { Workflow } from '../../types'
import { resultText } from '../../match'
import { mustPass, pageAction, pagePath, revisions } from '../keys'
import { openPage, pageTab } from '../person'

/** The page each search term finds (the seed's texts), and one it must not. */
const FOUND: Record<string, string> = {
  badge: 'Onboarding',
  canteen: 'Lunch Options',
}

/** Types "backup" in the sidebar's search box and presses Search. */
export const searchPages: Workflow = {
  id: 'search_pages',
  intent: "search the wiki for pages that mention 'backup'",
  rewordings: {
    terse: 'wiki search backup',
    chatty: "I'm sure we wrote down something about backup somewhere on the wiki, can you find it?",
    withoutValue: 'search the wiki pages for a word',
  },
  startPath: '/',
  signedIn: false,
  async play(page) {
    await page.locator('#searchform #patterns').fill('backup')
    await page.locator('#searchform #search').click()
    await page.waitForURL(/\/_search\?/)
    await page.locator('h3', { hasText: 'matches found for' }).waitFor()
  },
  key: {
    target: { method: 'GET', path: '/_search' },
    inputs: [{ recorded: 'backup', changed: ['badge', 'canteen'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch('/_search?patterns=badge&search=Search', { session })
      const html = await res.text()
      mustPass(
        await searchPages.key.check(app, { status: 'succeeded', result: html }, session, ['badge']),
      )
    },
    async check(_app, run, _session, used) {
      const text = resultText(run.result)
      const want = FOUND[String(used[0])]
      if (!want) return `no seeded page holds "${String(used[0])}"`
      if (!text.includes('matches found for')) return 'the answer is not a search result'
      if (!text.includes(want)) return `the answer does not list the page ${want}`
      if (text.includes('Backup Policy'))
        return 'the answer lists Backup Policy: it searched for the recorded "backup"'
      return null
    },
  },
}

/** A log message of each page's history that no other page's history holds. */
const LOGGED: Record<string, string> = {
  Onboarding: 'Badge and accounts',
  'Meeting Notes': 'Notes of the retro',
  'Release Checklist': 'Add changelog step',
  'Holiday Calendar': 'Easter closing',
}

/** Opens All pages → Onboarding, then its history tab. */
export const pageHistory: Workflow = {
  id: 'page_history',
  intent: 'show me the edit history of the Onboarding page',
  rewordings: {
    terse: 'Onboarding page history',
    chatty: 'who has been changing the Onboarding page lately? can you pull up its history?',
    withoutValue: "show a wiki page's history",
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await openPage(page, 'Onboarding')
    await pageTab(page, 'history')
    await page.waitForURL(/\/_history\//)
    await page.locator('ul.history li').first().waitFor()
  },
  key: {
    target: pageAction('GET', 'history'),
    inputs: [{ recorded: 'Onboarding', changed: ['Meeting Notes', 'Release Checklist'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch('/_history/Meeting%20Notes', { session })
      const html = await res.text()
      mustPass(
        await pageHistory.key.check(app, { status: 'succeeded', result: html }, session, [
          'Meeting Notes',
        ]),
      )
    },
    async check(_app, run, _session, used) {
      const text = resultText(run.result)
      const title = String(used[0])
      if (!text.includes(`Changes to ${title}`)) return `the answer is not the history of ${title}`
      if (!text.includes(LOGGED[title]!)) return `the answer does not hold "${LOGGED[title]!}"`
      if (text.includes(LOGGED.Onboarding!)) return "the answer is Onboarding's history"
      return null
    },
  },
}

/** The line each page's latest revision added. */
const ADDED: Record<string, string> = {
  'Release Checklist': 'Announce the release on the announce list.',
  'Meeting Notes': 'Retro on Friday: fewer meetings please.',
  'Holiday Calendar': 'It is also closed on Easter Monday.',
}

/**
 * Opens All pages → Release Checklist → history, and drags the oldest revision onto the newest
 * (the history page says "Drag one revision onto another to see differences").
 */
export const compareRevisions: Workflow = {
  id: 'compare_revisions',
  intent: 'show what changed in the Release Checklist page between its first and latest versions',
  rewordings: {
    terse: 'diff Release Checklist first vs latest',
    chatty:
      'the Release Checklist has been edited a few times, what is different now from when it was first written?',
    withoutValue: "compare a page's first version with its latest",
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await openPage(page, 'Release Checklist')
    await pageTab(page, 'history')
    await page.waitForURL(/\/_history\//)
    const items = page.locator('ul.history li.difflink')
    await items.first().waitFor()
    const oldest = items.last()
    const newest = items.first()
    // jQuery UI's draggable follows the mouse: press, move in steps, release over the target.
    const from = (await oldest.locator('.date').boundingBox())!
    const to = (await newest.locator('.date').boundingBox())!
    await page.mouse.move(from.x + 5, from.y + from.height / 2)
    await page.mouse.down()
    await page.mouse.move(from.x + 15, from.y + from.height / 2, { steps: 5 })
    await page.mouse.move(to.x + 10, to.y + to.height / 2, { steps: 15 })
    await page.mouse.up()
    await page.waitForURL(/\/_diff\/.*[?&]from=/)
    await page.locator('pre.diff').waitFor()
  },
  key: {
    target: pageAction('GET', 'diff'),
    inputs: [{ recorded: 'Release Checklist', changed: ['Meeting Notes', 'Holiday Calendar'] }],
    // The two revision ids are the page's own, read from its history.
    dependencies: [pageAction('GET', 'history')],
    mutating: false,
    async replayByHand(app, session) {
      const title = 'Meeting Notes'
      const history = await app.fetch(`/_history/${encodeURIComponent(title)}`, { session })
      const ids = [...(await history.text()).matchAll(/revision="([0-9a-f]{40})"/g)].map(
        (m) => m[1]!,
      )
      const [to, from] = [ids[0], ids[ids.length - 1]]
      const res = await app.fetch(`/_diff${pagePath(title)}?from=${from}&to=${to}`, { session })
      const html = await res.text()
      mustPass(
        await compareRevisions.key.check(app, { status: 'succeeded', result: html }, session, [
          title,
        ]),
      )
    },
    async check(app, run, _session, used) {
      const text = resultText(run.result)
      const title = String(used[0])
      const revs = await revisions(app, title)
      const [latest, first] = [revs[0]!, revs[revs.length - 1]!]
      if (!text.includes(`Changes from ${first} to ${latest}`))
        return `the answer is not the diff of ${title} from ${first.slice(0, 7)} to ${latest.slice(0, 7)}`
      if (!text.includes(ADDED[title]!)) return `the answer does not show "${ADDED[title]!}"`
      return null
    },
  },
}
