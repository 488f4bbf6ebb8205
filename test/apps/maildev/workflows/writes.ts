/**
 * The writes of MailDev: delete or relay an email picked in the list by its subject (the request
 * names it by the id the list gave), mark everything read, delete everything.
 */
import type { Workflow } from '../../types'
import { EMAIL_PATH, LIST_KEY, idOf, mustPass, send, summary, withSubject } from '../api'
import { answered, countLine, emailRow, HEALTH_PATH, openEmail, openInbox } from '../person'

/** Clicks an email in the list, then the reading pane's Delete. */
export const deleteEmail: Workflow = {
  id: 'delete_email',
  intent: 'delete the email "Team lunch on Friday" from MailDev',
  rewordings: {
    terse: 'maildev delete Team lunch on Friday',
    chatty:
      'That lunch invite is just clutter in our test inbox, could you delete "Team lunch on Friday" from MailDev?',
    withoutValue: 'delete an email from MailDev',
  },
  startPath: HEALTH_PATH,
  signedIn: true,
  async play(page, app) {
    await openInbox(page, app)
    await openEmail(page, 'Team lunch on Friday')
    const deleted = answered(page, 'DELETE', new RegExp(`^${EMAIL_PATH.source}$`))
    await page.getByTestId('delete-email-button').click()
    await deleted
    await emailRow(page, 'Team lunch on Friday').waitFor({ state: 'detached' })
    await page.getByTestId('email-viewer-empty').waitFor()
  },
  key: {
    target: { method: 'DELETE', path: EMAIL_PATH },
    inputs: [
      {
        recorded: 'Team lunch on Friday',
        changed: ['Build failed on main', 'Disk space warning on db-2'],
      },
    ],
    dependencies: [LIST_KEY],
    mutating: true,
    async replayByHand(app, session) {
      const subject = 'Build failed on main'
      await send(app, session, 'DELETE', `/api/email/${await idOf(app, session, subject)}`)
      mustPass(
        await deleteEmail.key.check(app, { status: 'succeeded', result: true }, session, [subject]),
      )
    },
    async check(app, _run, session, used) {
      const subject = String(used[0])
      if ((await withSubject(app, session, subject)).length) return `"${subject}" is still there`
      const recorded = await withSubject(app, session, 'Team lunch on Friday')
      return recorded.length ? null : 'the recorded email "Team lunch on Friday" was deleted'
    },
  },
}

/** The email the relay workflow picks when it records (never relayed by the checks). */
const RELAY_RECORDED = 'Order 5521 has shipped'

/**
 * Clicks an email, opens the Relay menu, picks "Relay to custom address", types the address,
 * presses Send and accepts the browser's confirm. MailDev's relay here is its own SMTP port, so
 * the relayed copy lands back in the inbox, addressed to the typed address.
 */
export const relayEmail: Workflow = {
  id: 'relay_email',
  intent: 'relay the email "Order 5521 has shipped" in MailDev to qa@example.test',
  rewordings: {
    terse: 'maildev relay Order 5521 has shipped to qa@example.test',
    chatty:
      'QA wants to see the shipping confirmation for order 5521 in their own mailbox, can you relay that email from MailDev to qa@example.test?',
    withoutValue: 'relay a caught email to another address',
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await openInbox(page, app)
    await openEmail(page, RELAY_RECORDED)
    await page.getByRole('button', { name: 'Relay email' }).click()
    await page.getByRole('button', { name: 'Relay to custom address' }).click()
    const box = page.getByPlaceholder('email@example.com')
    await box.pressSequentially('qa@example.test', { delay: 50 })
    // "Relay this email to qa@example.test?": the person says OK.
    page.once('dialog', (dialog) => void dialog.accept())
    const relayed = answered(page, 'POST', /^\/api\/email\/[^/]+\/relay\/[^/]+$/)
    await page.getByRole('button', { name: 'Send', exact: true }).click()
    await relayed
    await page.getByTestId('email-relayed-status').filter({ hasText: 'qa@example.test' }).waitFor()
  },
  key: {
    target: { method: 'POST', path: /\/api\/email\/[^/]+\/relay\/[^/]+/ },
    inputs: [
      { recorded: RELAY_RECORDED, changed: ['Order 5522 has shipped', 'Order 5523 has shipped'] },
      { recorded: 'qa@example.test', changed: ['ops@example.test', 'lead@example.test'] },
    ],
    dependencies: [LIST_KEY],
    mutating: true,
    async replayByHand(app, session) {
      const used = ['Order 5522 has shipped', 'ops@example.test']
      const id = await idOf(app, session, used[0]!)
      await send(app, session, 'POST', `/api/email/${id}/relay/${encodeURIComponent(used[1]!)}`)
      mustPass(
        await relayEmail.key.check(app, { status: 'succeeded', result: true }, session, used),
      )
    },
    async check(app, _run, session, used) {
      const [subject, to] = used.map(String) as [string, string]
      const emails = await withSubject(app, session, subject)
      const original = emails.find((e) => e.relayedTo?.includes(to))
      if (!original) return `"${subject}" was not relayed to ${to}`
      // The copy MailDev's relay delivered back to itself: same subject, another id.
      const copy = emails.find(
        (e) => e.id !== original.id && e.envelope.to.some((r) => r.address === to),
      )
      if (!copy) return `no relayed copy of "${subject}" arrived for ${to}`
      const recorded = await withSubject(app, session, RELAY_RECORDED)
      return recorded.some((e) => e.relayedAt) ? `"${RELAY_RECORDED}" was relayed too` : null
    },
  },
}

/** The header's "Mark all as read" button. */
export const markAllRead: Workflow = {
  id: 'mark_all_read',
  intent: 'mark all emails in MailDev as read',
  rewordings: {
    terse: 'maildev mark all read',
    chatty: 'The unread badge in MailDev keeps bugging me, can you mark everything there as read?',
    withoutValue: 'clear the unread emails in MailDev',
  },
  startPath: HEALTH_PATH,
  signedIn: true,
  async play(page, app) {
    await openInbox(page, app)
    const unread = countLine(page).filter({ hasText: /\d+ unread/ })
    await unread.waitFor()
    const marked = answered(page, 'PATCH', /^\/api\/email\/read-all$/)
    await page.getByRole('button', { name: 'Mark all as read' }).click()
    await marked
    await unread.waitFor({ state: 'detached' })
  },
  key: {
    target: { method: 'PATCH', path: '/api/email/read-all' },
    inputs: [],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const result = JSON.parse(await send(app, session, 'PATCH', '/api/email/read-all')) as unknown
      mustPass(await markAllRead.key.check(app, { status: 'succeeded', result }, session, []))
    },
    async check(app, _run, session) {
      const page = await summary(app, session)
      if (!page.storeTotal) return 'the inbox is empty: the emails were deleted, not marked read'
      return page.unread ? `${page.unread} emails are still unread` : null
    },
  },
}

/** The header's "Delete all emails", then its Confirm (the same button, armed for 2 s). */
export const deleteAll: Workflow = {
  id: 'delete_all',
  intent: 'delete all emails in MailDev',
  rewordings: {
    terse: 'maildev delete all',
    chatty:
      "Before the next test run I'd like a clean slate, could you empty the whole MailDev inbox?",
    withoutValue: 'clear the MailDev inbox',
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await openInbox(page, app)
    await page.getByRole('button', { name: 'Delete all emails' }).click()
    const deleted = answered(page, 'DELETE', /^\/api\/email\/all$/)
    await page.getByRole('button', { name: 'Confirm delete all emails' }).click()
    await deleted
    await page.getByTestId('email-list-empty').waitFor()
  },
  key: {
    target: { method: 'DELETE', path: '/api/email/all' },
    inputs: [],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      await send(app, session, 'DELETE', '/api/email/all')
      mustPass(await deleteAll.key.check(app, { status: 'succeeded', result: true }, session, []))
    },
    async check(app, _run, session) {
      const left = (await summary(app, session)).storeTotal
      return left ? `${left} emails are still there` : null
    },
  },
}
