/**
 * The History tab: the UI reads the scan history (`GET /history`) when the tab opens and filters
 * it in the page as the person types in its search box (nothing is sent); "Reset" asks for
 * confirmation and sends `GET /historyreset`, then reads the (now empty) history again.
 */
import type { Workflow } from '../../types'
import { resultText } from '../session'
import { openTab, signInFromDialog } from '../ui'

const RECORDED = 'invoice-2041'

export const searchHistory: Workflow = {
  id: 'search_history',
  intent: `find the message ${RECORDED} in Rspamd's scan history`,
  rewordings: {
    terse: `rspamd history ${RECORDED}`,
    chatty: `A customer says their mail ${RECORDED} never arrived, can you look it up in the Rspamd history and see what happened to it?`,
    withoutValue: "search Rspamd's scan history for a message",
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await signInFromDialog(page, app)
    await openTab(page, 'History')
    const search = page.locator('#history .footable-filtering input.form-control').first()
    await search.waitFor({ timeout: 30_000 })
    await search.click()
    await search.pressSequentially(RECORDED, { delay: 40 })
    await search.press('Enter')
    await page.waitForFunction(
      () => {
        const rows = [...document.querySelectorAll('#historyTable_history tbody tr')]
        return rows.length === 1 && (rows[0]?.textContent ?? '').includes('invoice-2041')
      },
      undefined,
      { timeout: 30_000 },
    )
  },
  key: {
    target: { method: 'GET', path: '/history' },
    inputs: [{ recorded: RECORDED, changed: ['pills-0303', 'payslip-0404'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch('/history', { session })
      const problem = await searchHistory.key.check(
        app,
        { status: res.ok ? 'ok' : 'error', result: await res.text() },
        session,
        ['pills-0303'],
      )
      if (problem) throw new Error(problem)
    },
    async check(_app, run, _session, used) {
      const want = String(used[0])
      const ids = [...resultText(run.result).matchAll(/"id"\s*:\s*"([^"]*)"/g)].map((m) => m[1]!)
      return ids.some((id) => id.includes(want)) ? null : `no history row of ${want} in the result`
    },
  },
}

export const resetHistory: Workflow = {
  id: 'reset_history',
  intent: "clear Rspamd's scan history",
  rewordings: {
    terse: 'reset rspamd history',
    chatty: 'The History tab in Rspamd is full of test scans, could you wipe it clean for me?',
    withoutValue: "reset Rspamd's history log",
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await signInFromDialog(page, app)
    await openTab(page, 'History')
    await page.locator('#historyTable_history tbody tr').first().waitFor({ timeout: 30_000 })
    // "Are you sure you want to reset history log?": the person confirms.
    page.once('dialog', (dialog) => void dialog.accept())
    await page.locator('#resetHistory').click()
    await page.waitForResponse((r) => new URL(r.url()).pathname === '/history', { timeout: 30_000 })
    await page.waitForTimeout(500)
  },
  key: {
    target: { method: 'GET', path: '/historyreset' },
    inputs: [],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const res = await app.fetch('/historyreset', { session })
      if (!res.ok) throw new Error(`historyreset answered ${res.status}`)
      const problem = await resetHistory.key.check(
        app,
        { status: 'ok', result: await res.text() },
        session,
        [],
      )
      if (problem) throw new Error(problem)
    },
    async check(app, _run, session) {
      const rows = (await (await app.fetch('/history', { session })).json()) as unknown[]
      return rows.length === 0 ? null : `the history still has ${rows.length} rows`
    },
  },
}
