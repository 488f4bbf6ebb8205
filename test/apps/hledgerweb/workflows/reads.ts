/**
 * The reads: the search box over the journal with an hledger query (`GET /journal?q=desc:cafe`,
 * `GET /journal?q=date:2026-02`), an account's register opened from the sidebar
 * (`GET /register?q=inacct:expenses:food:dining%20`, the trailing space is hledger-web's own),
 * and the journal file downloaded from the manage page (`GET /download/<path>`, an attachment).
 */
import type { Workflow } from '../../types'
import { resultText } from '../../match'
import { mustPass, pageOf, fileAction } from '../keys'
import { openManage, search } from '../person'
import { JOURNAL_SEGMENT } from '../seed'

/**
 * A read's check: null when `text` shows every description of `want` and none of `unwanted`
 * (descriptions the query must leave out), else what is wrong.
 */
function shows(text: string, query: string, want: string[], unwanted: string[]): string | null {
  if (!want.length) return `no expectation for the query "${query}"`
  const missing = want.filter((d) => !text.includes(d))
  if (missing.length) return `the answer for "${query}" does not show ${missing.join(', ')}`
  const extra = unwanted.filter((d) => text.includes(d))
  return extra.length ? `the answer for "${query}" also shows ${extra.join(', ')}` : null
}

/** Descriptions each description query finds in the seed. */
const BY_DESCRIPTION: Record<string, string[]> = {
  'desc:landlord': ['Landlord Mueller'],
  'desc:pharmacy': ['Pharmacy Linden'],
}

/** Types `desc:cafe` in the journal's search box and presses Enter. */
export const searchDescription: Workflow = {
  id: 'search_description',
  intent: "find the transactions in my hledger journal whose description matches 'cafe'",
  rewordings: {
    terse: 'hledger desc:cafe',
    chatty: 'how much have I been spending at the cafe? pull up every transaction described cafe',
    withoutValue: 'search my journal for transactions by description',
  },
  startPath: '/journal',
  signedIn: true,
  async play(page) {
    await search(page, 'desc:cafe')
    await page.locator('table.transactionsreport', { hasText: 'Cafe Central' }).waitFor()
  },
  key: {
    target: { method: 'GET', path: '/journal' },
    inputs: [{ recorded: 'desc:cafe', changed: ['desc:landlord', 'desc:pharmacy'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const html = await pageOf(app, session, '/journal?q=desc%3Alandlord')
      mustPass(
        await searchDescription.key.check(app, { status: 'succeeded', result: html }, session, [
          'desc:landlord',
        ]),
      )
    },
    async check(_app, run, _session, used) {
      const query = String(used[0])
      const unwanted = ['Cafe Central', 'Grocery Mart', 'Acme Corp Salary']
      return shows(resultText(run.result), query, BY_DESCRIPTION[query] ?? [], unwanted)
    },
  },
}

/** Descriptions each account's register shows (the seed's only entries in those accounts). */
const BY_ACCOUNT: Record<string, string[]> = {
  'inacct:expenses:health ': ['Pharmacy Linden'],
  'inacct:expenses:fun ': ['Cinema Odeon'],
}

/** Clicks `dining` (under expenses, food) in the sidebar's account list. */
export const accountRegister: Workflow = {
  id: 'account_register',
  intent: 'show the register of my expenses:food:dining account in hledger',
  rewordings: {
    terse: 'register expenses:food:dining',
    chatty:
      "I'd like to see every restaurant and cafe bill that went to expenses:food:dining, with the running total",
    withoutValue: "show one account's register",
  },
  startPath: '/journal',
  signedIn: true,
  async play(page) {
    await page
      .locator('#sidebar-menu a.acct-name[href*="inacct%3Aexpenses%3Afood%3Adining%20"]')
      .click()
    await page.waitForURL(/\/register\?q=/)
    await page.getByRole('heading', { name: 'expenses:food:dining' }).waitFor()
    await page.locator('table', { hasText: 'Sushi Bar Kaito' }).first().waitFor()
  },
  key: {
    target: { method: 'GET', path: '/register' },
    inputs: [
      {
        recorded: 'inacct:expenses:food:dining ',
        changed: ['inacct:expenses:health ', 'inacct:expenses:fun '],
      },
    ],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const html = await pageOf(app, session, '/register?q=inacct%3Aexpenses%3Ahealth%20')
      mustPass(
        await accountRegister.key.check(app, { status: 'succeeded', result: html }, session, [
          'inacct:expenses:health ',
        ]),
      )
    },
    async check(_app, run, _session, used) {
      const query = String(used[0])
      const unwanted = ['Cafe Central', 'Sushi Bar Kaito', 'Landlord Mueller']
      return shows(resultText(run.result), query, BY_ACCOUNT[query] ?? [], unwanted)
    },
  },
}

/** Descriptions found only in one month of the seed, and some found only in the others. */
const BY_MONTH: Record<string, { want: string[]; unwanted: string[] }> = {
  'date:2026-01': {
    want: ['Trattoria Roma', 'Opening balance'],
    unwanted: ['Sushi Bar Kaito', 'Cinema Odeon'],
  },
  'date:2026-03': {
    want: ['Cinema Odeon', 'Credit card payment'],
    unwanted: ['Sushi Bar Kaito', 'Trattoria Roma'],
  },
}

/** Types `date:2026-02` in the journal's search box and presses Enter. */
export const journalForMonth: Workflow = {
  id: 'journal_for_month',
  intent: 'show my hledger journal entries for February 2026 (date:2026-02)',
  rewordings: {
    terse: 'journal date:2026-02',
    chatty: 'can you bring up everything I booked in February 2026, the date:2026-02 entries?',
    withoutValue: 'show the journal for one month',
  },
  startPath: '/journal',
  signedIn: true,
  async play(page) {
    await search(page, 'date:2026-02')
    await page.locator('table.transactionsreport', { hasText: 'Sushi Bar Kaito' }).waitFor()
  },
  key: {
    target: { method: 'GET', path: '/journal' },
    inputs: [{ recorded: 'date:2026-02', changed: ['date:2026-01', 'date:2026-03'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const html = await pageOf(app, session, '/journal?q=date%3A2026-01')
      mustPass(
        await journalForMonth.key.check(app, { status: 'succeeded', result: html }, session, [
          'date:2026-01',
        ]),
      )
    },
    async check(_app, run, _session, used) {
      const query = String(used[0])
      const expected = BY_MONTH[query]
      if (!expected) return `no expectation for the query "${query}"`
      return shows(resultText(run.result), query, expected.want, expected.unwanted)
    },
  },
}

/** The wrench button, then Download on the journal's row: the browser saves the file. */
export const downloadJournal: Workflow = {
  id: 'download_journal',
  intent: 'download my hledger journal file main.journal',
  rewordings: {
    terse: 'download main.journal',
    chatty: 'could you grab a copy of my main.journal from hledger-web so I have a backup?',
    withoutValue: 'download the journal file',
  },
  startPath: '/journal',
  signedIn: true,
  async play(page) {
    await openManage(page)
    const saved = page.waitForEvent('download')
    await page.getByRole('link', { name: 'Download', exact: true }).click()
    await saved
  },
  key: {
    target: fileAction('GET', 'download'),
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const text = await pageOf(app, session, `/download/${JOURNAL_SEGMENT}`)
      mustPass(
        await downloadJournal.key.check(app, { status: 'succeeded', result: text }, session, []),
      )
    },
    async check(_app, run) {
      const text = resultText(run.result)
      // The file itself, not a page about it: the seed's comment line and raw postings.
      const want = [
        '; Household books of Sam Keller',
        '2026-02-14 Sushi Bar Kaito',
        'income:salary',
      ]
      const missing = want.filter((w) => !text.includes(w))
      if (missing.length) return `the download lacks ${missing.join(', ')}`
      return text.includes('<html') ? 'the answer is a page, not the journal file' : null
    },
  },
}
