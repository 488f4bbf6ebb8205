/**
 * Roundcube reads: the search box (`_action=search`, an AJAX GET with `_q`), a message opened
 * from the list into the preview pane (`_action=preview`, a framed GET naming the message by UID
 * and mailbox) and the address book's contact list (`_task=addressbook&_action=list`).
 */
import type { Page } from 'playwright-core'
import type { Workflow } from '../../types'
import { contactNames, MAIL_LIST, MAIL_PAGE, mustPass, rcRequest, resultText, uidOf } from '../keys'
import { remote } from '../session'

/** Waits until the mail page's message list has loaded. */
export async function waitForList(page: Page): Promise<void> {
  await page.locator('#messagelist tbody tr').first().waitFor()
}

/** A subject each search term finds (in the subject or the sender, the box's default scope). */
const FOUND_BY: Record<string, string> = {
  invoice: 'Invoice 2026-114 from Nordwind Hosting',
  offsite: 'Team offsite in March',
  maintenance: 'Server maintenance window',
}

/** Types a word in the search box above the message list and presses Enter. */
export const searchMail: Workflow = {
  id: 'search_mail',
  intent: 'search my mail for invoice',
  rewordings: {
    terse: 'mail search: invoice',
    chatty: 'I am looking for that email about the invoice, can you search my inbox for invoice?',
    withoutValue: 'search my mailbox for a word',
  },
  startPath: '/?_task=mail&_mbox=INBOX',
  signedIn: true,
  async play(page) {
    await waitForList(page)
    const box = page.locator('#mailsearchform')
    await box.click()
    await box.pressSequentially('invoice', { delay: 40 })
    const answered = page.waitForResponse((r) => r.url().includes('_action=search'))
    await box.press('Enter')
    await answered
    await page.locator('#messagelist tr', { hasText: 'Invoice 2026-114' }).waitFor()
  },
  key: {
    target: rcRequest('GET', 'mail', 'search'),
    inputs: [{ recorded: 'invoice', changed: ['offsite', 'maintenance'] }],
    // The request token for X-Roundcube-Request.
    dependencies: [MAIL_PAGE],
    mutating: false,
    async replayByHand(app, session) {
      const answer = await remote(app, session, 'GET', 'mail', 'search', {
        _q: 'offsite',
        _headers: 'subject,from',
        _filter: 'ALL',
        _scope: 'base',
        _mbox: 'INBOX',
      })
      mustPass(
        await searchMail.key.check(app, { status: 'succeeded', result: answer }, session, [
          'offsite',
        ]),
      )
    },
    async check(_app, run, _session, used) {
      const want = FOUND_BY[String(used[0])]
      if (!want) return `no expectation for the term ${String(used[0])}`
      const text = resultText(run.result)
      if (!text.includes(want)) return `the result does not list "${want}"`
      // A search that ignored the term would list the whole inbox.
      return text.includes('Parking garage closed') ? 'the result lists unrelated mail' : null
    },
  },
}

/** A sentence of each message's body, shown in the preview. */
const BODY_OF: Record<string, string> = {
  'Quarterly budget review': 'please bring the Q4 forecast',
  'Release notes for v4.2': 'adds dark mode, faster search',
  'Design review notes': 'the onboarding screens need a second pass',
}

/** Clicks a message in the inbox list; Roundcube shows it in the preview pane. */
export const openMessage: Workflow = {
  id: 'open_message',
  intent: "open the email 'Quarterly budget review'",
  rewordings: {
    terse: 'open mail Quarterly budget review',
    chatty:
      "can you pull up the 'Quarterly budget review' email Grace sent me? I need to read it again",
    withoutValue: 'open an email from my inbox',
  },
  startPath: '/?_task=mail&_mbox=INBOX',
  signedIn: true,
  async play(page) {
    await waitForList(page)
    const shown = page.waitForResponse((r) => r.url().includes('_action=preview'))
    await page.locator('#messagelist tr', { hasText: 'Quarterly budget review' }).click()
    await shown
    await page
      .frameLocator('#messagecontframe')
      .getByText('please bring the Q4 forecast', { exact: false })
      .waitFor()
  },
  key: {
    target: rcRequest('GET', 'mail', 'preview'),
    inputs: [
      {
        recorded: 'Quarterly budget review',
        changed: ['Release notes for v4.2', 'Design review notes'],
      },
    ],
    // The UID behind the subject the person clicked.
    dependencies: [MAIL_LIST],
    mutating: false,
    async replayByHand(app, session) {
      const subject = 'Release notes for v4.2'
      const uid = await uidOf(app, session, 'INBOX', subject)
      const res = await app.fetch(
        `/?_task=mail&_uid=${uid}&_mbox=INBOX&_framed=1&_action=preview`,
        { session },
      )
      const html = await res.text()
      if (res.status !== 200) throw new Error(`preview answered ${res.status}`)
      mustPass(
        await openMessage.key.check(app, { status: 'succeeded', result: html }, session, [subject]),
      )
    },
    async check(_app, run, _session, used) {
      const want = BODY_OF[String(used[0])]
      if (!want) return `no expectation for the message ${String(used[0])}`
      return resultText(run.result).includes(want) ? null : `the result does not show "${want}"`
    },
  },
}

/** Clicks Contacts in the task bar: the address book lists the personal contacts. */
export const listContacts: Workflow = {
  id: 'list_contacts',
  intent: 'list my contacts',
  rewordings: {
    terse: 'contacts',
    chatty: 'who do I have in my address book? show me all my contacts please',
    withoutValue: 'show my address book',
  },
  startPath: '/?_task=mail&_mbox=INBOX',
  signedIn: true,
  async play(page) {
    await waitForList(page)
    const listed = page.waitForResponse(
      (r) => r.url().includes('_task=addressbook') && r.url().includes('_action=list'),
    )
    await page.getByRole('button', { name: 'Contacts' }).click()
    await listed
    await page.locator('#contacts-table tr', { hasText: 'Alan Turing' }).waitFor()
  },
  key: {
    target: rcRequest('GET', 'addressbook', 'list'),
    inputs: [],
    dependencies: [
      { method: 'GET', path: '/', operation: { field: '_task', value: 'addressbook' } },
    ],
    mutating: false,
    async replayByHand(app, session) {
      const answer = await remote(app, session, 'GET', 'addressbook', 'list', { _source: '0' })
      mustPass(
        await listContacts.key.check(app, { status: 'succeeded', result: answer }, session, []),
      )
      const names = await contactNames(app, session)
      if (!names.includes('Alan Turing')) throw new Error(`contactNames read ${names.join(', ')}`)
    },
    async check(_app, run) {
      const text = resultText(run.result)
      const missing = ['Grace Hopper', 'Alan Turing', 'Margaret Hamilton'].filter(
        (n) => !text.includes(n),
      )
      return missing.length ? `the result does not list ${missing.join(', ')}` : null
    },
  },
}
