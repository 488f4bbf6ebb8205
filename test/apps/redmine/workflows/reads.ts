import type { Workflow } from '../../types'
import { judgeByHand, page, resultText } from '../keys'
import { ISSUES, TRACKER } from '../seed'

const subjectOf = (id: number): string => ISSUES[id - 1]!.subject

/** What each searched word must find: a seeded issue whose text holds it. */
const SEARCH_HITS: Record<string, number> = { duplicate: 5, privacy: 4, footer: 3 }

/** Types a word into the header's quick search on the project page and presses Enter. */
export const searchIssues: Workflow = {
  id: 'search_issues',
  intent: 'search the Website project for "duplicate"',
  rewordings: {
    terse: 'website search duplicate',
    chatty:
      'Could you look through everything in the Website project and tell me what mentions the word duplicate?',
    withoutValue: 'search the Website project for a word',
  },
  startPath: '/projects/website',
  signedIn: true,
  async play(page) {
    const box = page.locator('#q')
    await box.click()
    await box.pressSequentially('duplicate', { delay: 40 })
    await box.press('Enter')
    await page.locator('#search-results a[href="/issues/5"]').waitFor()
  },
  key: {
    // The quick search is a plain GET form scoped to the project; the word travels as `q`.
    target: { method: 'GET', path: '/projects/website/search' },
    inputs: [{ recorded: 'duplicate', changed: ['privacy', 'footer'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const html = await page(app, session, '/projects/website/search?q=privacy')
      await judgeByHand(this, app, session, html)
    },
    async check(_app, run, _session, used) {
      const id = SEARCH_HITS[String(used[0])]
      if (!id) return `no seeded hit for ${String(used[0])}`
      // Redmine highlights the word inside the hit's title, so the hit is found by its link.
      return new RegExp(`/issues/${id}(?!\\d)`).test(resultText(run.result))
        ? null
        : `the result does not list issue #${id} (${subjectOf(id)})`
    },
  },
}

/** Clicks an issue's subject in the project's issue list and waits for the issue page. */
export const viewIssue: Workflow = {
  id: 'view_issue',
  intent: 'show issue #3 of the Website project',
  rewordings: {
    terse: 'issue 3',
    chatty: 'Can you pull up issue number 3 for me? I want to see what it says.',
    withoutValue: 'show one issue of the Website project',
  },
  startPath: '/projects/website/issues',
  signedIn: true,
  async play(page) {
    await page.getByRole('link', { name: subjectOf(3), exact: true }).click()
    await page.waitForURL('**/issues/3')
    await page.locator('div.subject h3').getByText(subjectOf(3)).waitFor()
  },
  key: {
    // The issue id is a path segment; the page is server-rendered HTML.
    target: { method: 'GET', path: /\/issues\/\d+/ },
    inputs: [{ recorded: 3, changed: [7, 8] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      await judgeByHand(this, app, session, await page(app, session, '/issues/7'))
    },
    async check(_app, run, _session, used) {
      const want = subjectOf(Number(used[0]))
      return resultText(run.result).includes(want) ? null : `the result does not show "${want}"`
    },
  },
}

/** Which open issues of the Website project each tracker lists, and one it must not. */
const OPEN_BY_TRACKER: Record<string, { has: string; hasNot: string }> = {
  [TRACKER.support]: { has: subjectOf(4), hasNot: subjectOf(2) },
  [TRACKER.bug]: { has: subjectOf(5), hasNot: subjectOf(4) },
  [TRACKER.feature]: { has: subjectOf(6), hasNot: subjectOf(4) },
}

/** Adds a Tracker filter on the issue list, picks Support and applies it. */
export const filterIssues: Workflow = {
  id: 'filter_issues',
  intent: 'list the open Support issues of the Website project',
  rewordings: {
    terse: 'open support issues, website',
    chatty:
      'I need to see which support requests are still open in the Website project, can you list them?',
    withoutValue: 'list the open issues of one tracker in the Website project',
  },
  startPath: '/projects/website/issues',
  signedIn: true,
  async play(page) {
    await page.locator('#add_filter_select').selectOption({ label: 'Tracker' })
    await page.locator('#values_tracker_id_1').selectOption({ label: 'Support' })
    await page.getByRole('link', { name: 'Apply' }).click()
    await page.waitForURL(/set_filter=1/)
    await page.locator('table.issues').getByText(subjectOf(4)).waitFor()
  },
  key: {
    // Rails' nested query arrays: f[]=tracker_id&op[tracker_id]==&v[tracker_id][]=3 (next to the
    // default "open" status filter and the column list); the picked tracker is its id.
    target: { method: 'GET', path: '/projects/website/issues' },
    // Ids are numbers: the picked option's value is an integer id, so a tool may type it so.
    inputs: [{ recorded: TRACKER.support, changed: [TRACKER.bug, TRACKER.feature] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const query = new URLSearchParams([
        ['set_filter', '1'],
        ['f[]', 'status_id'],
        ['op[status_id]', 'o'],
        ['f[]', 'tracker_id'],
        ['op[tracker_id]', '='],
        ['v[tracker_id][]', String(this.inputs[0]!.changed[0])],
      ])
      const html = await page(app, session, `/projects/website/issues?${query.toString()}`)
      await judgeByHand(this, app, session, html)
    },
    async check(_app, run, _session, used) {
      const want = OPEN_BY_TRACKER[String(used[0])]
      if (!want) return `no seeded tracker ${String(used[0])}`
      const text = resultText(run.result)
      if (!text.includes(want.has)) return `the result does not list "${want.has}"`
      if (text.includes(want.hasNot)) return `the result lists "${want.hasNot}" of another tracker`
      return null
    },
  },
}
