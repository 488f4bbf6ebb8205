/**
 * The reads: the header's search box (`GET Search/Simple.html?q=...`, which RT turns into a
 * TicketSQL query on subjects among the active tickets and answers with the results page itself)
 * and a queue's active tickets opened from the home page's "Queue list" (`GET
 * Search/Results.html?Query=Queue = '<name>' AND Status = '__Active__'`).
 */
import type { Workflow } from '../../types'
import { resultText } from '../../match'
import { mustPass, page } from '../keys'

/** The subjects each search term finds among the seeded tickets. */
const FOUND: Record<string, string[]> = {
  printer: ['Printer jams on floor 2', 'Printer toner low in lobby'],
  vpn: ['VPN disconnects after login'],
  quota: ['Email quota exceeded'],
}

/** Types "printer" in the header's search box and presses Enter. */
export const searchTickets: Workflow = {
  id: 'search_tickets',
  intent: "search the helpdesk for tickets about 'printer'",
  rewordings: {
    terse: 'search tickets printer',
    chatty:
      "someone says the printers are acting up again, can you find the tickets that mention 'printer'?",
    withoutValue: 'search the tickets for a word',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    const box = page.locator('#simple-search input[name=q]')
    await box.click()
    await box.pressSequentially('printer', { delay: 30 })
    await box.press('Enter')
    await page.waitForURL(/Search\/Simple\.html/)
    await page.getByRole('link', { name: 'Printer toner low in lobby' }).first().waitFor()
  },
  key: {
    target: page('GET', '/Search/Simple.html'),
    inputs: [{ recorded: 'printer', changed: ['VPN', 'quota'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch('/Search/Simple.html?q=VPN', { session })
      mustPass(
        await searchTickets.key.check(
          app,
          { status: 'succeeded', result: await res.text() },
          session,
          ['VPN'],
        ),
      )
    },
    async check(_app, run, _session, used) {
      const text = resultText(run.result)
      const want = FOUND[String(used[0]).toLowerCase()] ?? []
      const missing = want.filter((s) => !text.includes(s))
      if (!want.length || missing.length)
        return `the search for "${String(used[0])}" does not show ${missing.join(', ')}`
      if (text.includes('Printer jams on floor 2'))
        return 'the result shows a printer ticket: the recorded search ran'
      return null
    },
  },
}

/**
 * The active tickets of each queue that no workflow resolves, and one ticket of the recorded
 * queue (Facilities) that no tool run touches, so its subject only shows when that queue is
 * listed.
 */
const ACTIVE: Record<string, string[]> = {
  Facilities: ['Printer jams on floor 2', 'Projector bulb out in room B'],
  Support: ['VPN disconnects after login', 'Email quota exceeded'],
  Accounts: ['Password reset for payroll system', 'New starter account for Lena Vogel'],
}

/** On the home page, clicks "Facilities" in the Queue list box. */
export const queueTickets: Workflow = {
  id: 'queue_tickets',
  intent: "show me the open tickets in the 'Facilities' queue",
  rewordings: {
    terse: 'Facilities queue tickets',
    chatty: "what's still waiting in the Facilities queue? list me everything that's not done",
    withoutValue: "list a queue's open tickets",
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    const box = page.locator('.titlebox', { hasText: 'Queue list' })
    await box.getByRole('link', { name: 'Facilities', exact: true }).click()
    await page.waitForURL(/Search\/Results\.html/)
    await page.getByRole('link', { name: 'Broken chair in meeting room A' }).first().waitFor()
  },
  key: {
    target: page('GET', '/Search/Results.html'),
    inputs: [{ recorded: 'Facilities', changed: ['Support', 'Accounts'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const query = "Queue = 'Support' AND Status = '__Active__'"
      const res = await app.fetch(`/Search/Results.html?Query=${encodeURIComponent(query)}`, {
        session,
      })
      mustPass(
        await queueTickets.key.check(
          app,
          { status: 'succeeded', result: await res.text() },
          session,
          ['Support'],
        ),
      )
    },
    async check(_app, run, _session, used) {
      const text = resultText(run.result)
      const want = ACTIVE[String(used[0])] ?? []
      const missing = want.filter((s) => !text.includes(s))
      if (!want.length || missing.length)
        return `the list of ${String(used[0])} does not show ${missing.join(', ')}`
      if (text.includes('Projector bulb out in room B'))
        return 'the result shows a Facilities ticket: the recorded queue was listed'
      return null
    },
  },
}
