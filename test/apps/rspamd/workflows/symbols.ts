/**
 * The Symbols tab: the person types a symbol's name in the table's search box, so only its row
 * is left, types the new score in the row's Score box and clicks the row's "Save". The UI posts
 * every score box left on the page as a JSON array of `{name, value}` (`POST /savesymbols`).
 */
import type { AppInstance, Workflow } from '../../types'
import type { StorageState } from '../../../../src/shared/trace'
import { SYMBOLS } from '../seed'
import { openTab, signInFromDialog, waitForNotice } from '../ui'

/** The score `/symbols` gives a symbol now, or null when it is not listed. */
async function scoreOf(
  app: AppInstance,
  session: StorageState,
  symbol: string,
): Promise<number | null> {
  const groups = (await (await app.fetch('/symbols', { session })).json()) as Array<{
    rules: Array<{ symbol: string; weight: number }>
  }>
  for (const g of groups) for (const r of g.rules) if (r.symbol === symbol) return r.weight
  return null
}

const RECORDED = { symbol: 'BAD_SUBJECT_WORD', score: 4.25 }

export const changeSymbolScore: Workflow = {
  id: 'change_symbol_score',
  intent: 'set the score of the Rspamd symbol BAD_SUBJECT_WORD to 4.25',
  rewordings: {
    terse: 'BAD_SUBJECT_WORD score 4.25',
    chatty:
      'Subjects with bad words are not hurting enough, could you bump BAD_SUBJECT_WORD up to 4.25 in Rspamd for me?',
    withoutValue: "change a symbol's score in Rspamd",
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await signInFromDialog(page, app)
    await openTab(page, 'Symbols')
    const search = page.locator('#symbols .footable-filtering input.form-control').first()
    await search.waitFor({ timeout: 30_000 })
    await search.click()
    await search.pressSequentially(RECORDED.symbol, { delay: 40 })
    await search.press('Enter')
    const row = page.locator('#symbolsTable tbody tr', { hasText: RECORDED.symbol })
    // Filtered: the one row left is the symbol's.
    await page.waitForFunction(
      () => document.querySelectorAll('#symbolsTable tbody tr').length === 1,
      undefined,
      { timeout: 30_000 },
    )
    const score = row.locator(`#_sym_${RECORDED.symbol}`)
    await score.fill(String(RECORDED.score))
    await row.locator('button', { hasText: /^Save$/ }).click()
    await waitForNotice(page, 'Symbols successfully saved')
  },
  key: {
    target: { method: 'POST', path: '/savesymbols' },
    inputs: [
      { recorded: RECORDED.symbol, changed: ['BLOCKED_SENDER', 'ALLOWED_SENDER'] },
      { recorded: RECORDED.score, changed: [9.5, -6.5] },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const res = await app.fetch('/savesymbols', {
        method: 'POST',
        body: JSON.stringify([{ name: 'BLOCKED_SENDER', value: 9.5 }]),
        session,
      })
      if (!res.ok) throw new Error(`savesymbols answered ${res.status}: ${await res.text()}`)
      const problem = await changeSymbolScore.key.check(
        app,
        { status: 'ok', result: await res.text() },
        session,
        ['BLOCKED_SENDER', 9.5],
      )
      if (problem) throw new Error(problem)
    },
    async check(app, _run, session, used) {
      const symbol = String(used[0])
      const want = Number(used[1])
      const got = await scoreOf(app, session, symbol)
      if (got !== want) return `${symbol} scores ${String(got)}, not ${want}`
      // The symbol the person changed in the recording keeps its seeded score.
      const seeded = SYMBOLS.find((s) => s.name === RECORDED.symbol)!.score
      const recorded = await scoreOf(app, session, RECORDED.symbol)
      if (recorded !== seeded)
        return `${RECORDED.symbol} was changed too (${String(recorded)}, seeded ${seeded})`
      return null
    },
  },
}
