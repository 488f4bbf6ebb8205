/**
 * Writes on a message the person picks in the inbox list. The page script names the selected
 * message by its IMAP UID and mailbox in an AJAX form POST: `_action=mark` with `_flag=flagged`,
 * and `_action=move` with `_target_mbox` (Delete is a move to Trash). A tool naming a message by
 * subject must look its UID up in the list first.
 */
import type { Page } from 'playwright-core'
import type { Workflow } from '../../types'
import { MAIL_LIST, mustPass, rcRequest, subjectsIn, uidOf } from '../keys'
import { listMailbox, remote } from '../session'
import { waitForList } from './reads'

const MOVE = rcRequest('POST', 'mail', 'move')

/** Clicks the message `subject` in the list and waits until the preview pane shows it. */
async function pick(page: Page, subject: string): Promise<void> {
  await waitForList(page)
  const shown = page.waitForResponse((r) => r.url().includes('_action=preview'))
  await page.locator('#messagelist tr', { hasText: subject }).click()
  await shown
}

/** Waits for the answer of the AJAX call `_action=<action>` that `click` sends. */
async function answerOf(page: Page, action: string, click: () => Promise<void>): Promise<void> {
  const answered = page.waitForResponse(
    (r) => r.request().method() === 'POST' && r.url().includes(`_action=${action}`),
  )
  await click()
  await answered
}

/** Picks a message, opens Mark in the toolbar and chooses "As flagged". */
export const flagMessage: Workflow = {
  id: 'flag_message',
  intent: "flag the email 'Lunch on Friday?'",
  rewordings: {
    terse: 'flag Lunch on Friday?',
    chatty: "I don't want to forget Margaret's 'Lunch on Friday?' mail, could you flag it for me?",
    withoutValue: 'flag an email in my inbox',
  },
  startPath: '/?_task=mail&_mbox=INBOX',
  signedIn: true,
  async play(page) {
    const subject = 'Lunch on Friday?'
    await pick(page, subject)
    await page.getByRole('button', { name: 'Mark' }).click()
    await answerOf(page, 'mark', () =>
      page.locator('#markmessage-menu').getByText('As flagged').click(),
    )
    await page.locator('#messagelist tr.flagged', { hasText: subject }).waitFor()
  },
  key: {
    target: rcRequest('POST', 'mail', 'mark'),
    inputs: [
      {
        recorded: 'Lunch on Friday?',
        changed: ['Conference travel booking', 'Parking garage closed on Monday'],
      },
    ],
    dependencies: [MAIL_LIST],
    mutating: true,
    async replayByHand(app, session) {
      const subject = 'Conference travel booking'
      const uid = await uidOf(app, session, 'INBOX', subject)
      await remote(app, session, 'POST', 'mail', 'mark', {
        _uid: String(uid),
        _flag: 'flagged',
        _mbox: 'INBOX',
      })
      mustPass(
        await flagMessage.key.check(app, { status: 'succeeded', result: null }, session, [subject]),
      )
    },
    async check(app, _run, session, used) {
      const rows = await listMailbox(app, session, 'INBOX')
      const subject = String(used[0])
      const row = rows.find((r) => r.subject === subject)
      if (!row) return `"${subject}" is not in the inbox`
      if (!row.flagged) return `"${subject}" is not flagged`
      if (rows.find((r) => r.subject === 'Lunch on Friday?')?.flagged)
        return 'the recorded message "Lunch on Friday?" was flagged instead'
      return null
    },
  },
}

/** Picks a message, opens More, chooses "Move to..." and picks the folder in the dialog. */
export const moveMessage: Workflow = {
  id: 'move_message',
  intent: "move the email 'Old newsletter: October edition' to the Archive folder",
  rewordings: {
    terse: 'move Old newsletter: October edition to Archive',
    chatty:
      "my inbox is a mess, could you put the 'Old newsletter: October edition' mail into my Archive folder?",
    withoutValue: 'move an email to another folder',
  },
  startPath: '/?_task=mail&_mbox=INBOX',
  signedIn: true,
  async play(page) {
    const subject = 'Old newsletter: October edition'
    await pick(page, subject)
    await page.getByRole('button', { name: 'More' }).click()
    await page.locator('#message-menu').getByText('Move to...').click()
    await answerOf(page, 'move', () =>
      page.locator('#folder-selector').getByText('Archive', { exact: true }).click(),
    )
    await page.locator('#messagelist tr', { hasText: subject }).waitFor({ state: 'hidden' })
  },
  key: {
    target: MOVE,
    inputs: [
      {
        recorded: 'Old newsletter: October edition',
        changed: ['Shipping confirmation #48213', 'Photos from the summer party'],
      },
      { recorded: 'Archive', changed: ['Receipts', 'Projects'] },
    ],
    dependencies: [MAIL_LIST],
    mutating: true,
    async replayByHand(app, session) {
      const used = ['Shipping confirmation #48213', 'Receipts']
      const uid = await uidOf(app, session, 'INBOX', used[0]!)
      await remote(app, session, 'POST', 'mail', 'move', {
        _target_mbox: used[1]!,
        _uid: String(uid),
        _mbox: 'INBOX',
      })
      mustPass(
        await moveMessage.key.check(app, { status: 'succeeded', result: null }, session, used),
      )
    },
    async check(app, _run, session, used) {
      const subject = String(used[0])
      const folder = String(used[1])
      if (!(await subjectsIn(app, session, folder)).includes(subject))
        return `"${subject}" is not in ${folder}`
      const inbox = await subjectsIn(app, session, 'INBOX')
      if (inbox.includes(subject)) return `"${subject}" is still in the inbox`
      if (!inbox.includes('Old newsletter: October edition'))
        return 'the recorded message "Old newsletter: October edition" was moved instead'
      return null
    },
  },
}

/** Picks a message and clicks Delete in the toolbar: Roundcube moves it to Trash. */
export const deleteMessage: Workflow = {
  id: 'delete_message',
  intent: "delete the email 'Welcome to the mailing list'",
  rewordings: {
    terse: 'delete Welcome to the mailing list',
    chatty: "please get rid of that 'Welcome to the mailing list' email, I don't need it anymore",
    withoutValue: 'delete an email from my inbox',
  },
  startPath: '/?_task=mail&_mbox=INBOX',
  signedIn: true,
  async play(page) {
    const subject = 'Welcome to the mailing list'
    await pick(page, subject)
    await answerOf(page, 'move', () => page.getByRole('button', { name: 'Delete' }).click())
    await page.locator('#messagelist tr', { hasText: subject }).waitFor({ state: 'hidden' })
  },
  key: {
    target: MOVE,
    inputs: [
      {
        recorded: 'Welcome to the mailing list',
        changed: ['You have won a prize', 'Unsubscribe confirmation'],
      },
    ],
    dependencies: [MAIL_LIST],
    mutating: true,
    async replayByHand(app, session) {
      const subject = 'You have won a prize'
      const uid = await uidOf(app, session, 'INBOX', subject)
      await remote(app, session, 'POST', 'mail', 'move', {
        _target_mbox: 'Trash',
        _uid: String(uid),
        _mbox: 'INBOX',
      })
      mustPass(
        await deleteMessage.key.check(app, { status: 'succeeded', result: null }, session, [
          subject,
        ]),
      )
    },
    async check(app, _run, session, used) {
      const subject = String(used[0])
      const inbox = await subjectsIn(app, session, 'INBOX')
      if (inbox.includes(subject)) return `"${subject}" is still in the inbox`
      if (!(await subjectsIn(app, session, 'Trash')).includes(subject))
        return `"${subject}" is not in Trash`
      if (!inbox.includes('Welcome to the mailing list'))
        return 'the recorded message "Welcome to the mailing list" was deleted instead'
      return null
    },
  },
}
