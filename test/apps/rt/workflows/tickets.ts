/**
 * Work on tickets. A new ticket starts from the header's "Create new ticket" button, which opens
 * `Ticket/Create.html` in the first queue; picking another queue posts the form back
 * (`QueueChanged=1`) to redraw it for that queue, and Create posts the whole multipart form with
 * `SubmitTicket=Create` and the queue's numeric id. A ticket's page (`Ticket/Display.html?id=N`,
 * opened from a list by its subject) has an Actions menu: Reply and Resolve open
 * `Ticket/Update.html`, whose multipart form posts `id`, `UpdateType` (`response` for a reply,
 * `private` for a comment), `Status`, `UpdateContent` (HTML from the editor) and
 * `SubmitTicket=Update Ticket`; the People page (`Ticket/ModifyPeople.html`) posts the owner as a
 * user id. RT answers a save with the page again, its results listed at the top.
 */
import type { AppInstance, Workflow } from '../../types'
import {
  messages,
  mustPass,
  page,
  query,
  ticketBySubject,
  ticketsBySubject,
  TICKET_LIST,
} from '../keys'
import { openTicket, pickOption, resultShown, ticketAction, typeMessage } from '../person'
import { QUEUES, STAFF } from '../seed'
import { postForm } from '../session'

/** The id RT gave the queue named `name` (General 1, then the seeded ones from 3). */
function queueId(name: string): number {
  if (name === 'General') return 1
  const index = QUEUES.findIndex(([q]) => q === name)
  if (index < 0) throw new Error(`no seeded queue "${name}"`)
  return index + 3
}

/** The user id RT gave the seeded staff member `name` (users share ids with groups and more). */
function staffId(app: AppInstance, name: string): number {
  if (!STAFF.some(([s]) => s === name)) throw new Error(`no seeded staff member "${name}"`)
  const rows = query<{ id: number }>(app, 'select id from Users where Name = ?', name)
  if (!rows[0]) throw new Error(`RT has no user "${name}"`)
  return rows[0].id
}

/** Header → Create new ticket, picks the queue Support, types subject and message, Create. */
export const createTicket: Workflow = {
  id: 'create_ticket',
  intent:
    "open a ticket in the 'Support' queue titled 'Keyboard missing keys on desk 7' saying 'Three keys came off the keyboard at desk 7.'",
  rewordings: {
    terse: 'new Support ticket: Keyboard missing keys on desk 7',
    chatty:
      "can you log a ticket in Support for me? Subject 'Keyboard missing keys on desk 7', and say three keys came off the keyboard at desk 7",
    withoutValue: 'create a new ticket in a queue',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await page
      .locator('#CreateTicketInQueue')
      .getByRole('button', { name: 'Create new ticket' })
      .click()
    await page.waitForURL(/Ticket\/Create\.html/)
    await pickOption(page, 'Queue', 'Support')
    await page.getByText('Create a new ticket in Support').first().waitFor()
    await page.locator('input[name=Subject]').fill('Keyboard missing keys on desk 7')
    await typeMessage(page, 'Three keys came off the keyboard at desk 7.')
    await page.locator('input[name=SubmitTicket]').first().click()
    await resultShown(page, /Ticket \d+ created in queue/)
  },
  key: {
    target: page('POST', '/Ticket/Create.html', 'SubmitTicket', 'Create'),
    inputs: [
      { recorded: 'Support', changed: ['Facilities', 'Accounts'] },
      {
        recorded: 'Keyboard missing keys on desk 7',
        changed: ['Badge reader broken at side door', 'Shared drive missing since Monday'],
      },
      {
        recorded: 'Three keys came off the keyboard at desk 7.',
        changed: [
          'The badge reader at the side door stays red for everyone.',
          'The S: drive is no longer mapped on my laptop.',
        ],
      },
    ],
    dependencies: [{ method: 'POST', path: '/Ticket/Create.html' }],
    mutating: true,
    async replayByHand(app, session) {
      const res = await postForm(
        app,
        session,
        '/Ticket/Create.html',
        [
          ['id', 'new'],
          ['Queue', String(queueId('Facilities'))],
          ['Requestors', 'root@localhost'],
          ['Subject', 'Badge reader broken at side door'],
          ['Content', '<p>The badge reader at the side door stays red for everyone.</p>'],
          ['ContentType', 'text/html'],
          ['Status', 'new'],
          ['SubmitTicket', 'Create'],
        ],
        { page: `/Ticket/Create.html?Queue=${queueId('Facilities')}`, multipart: true },
      )
      await res.arrayBuffer()
      mustPass(
        await createTicket.key.check(app, { status: 'succeeded', result: null }, session, [
          'Facilities',
          'Badge reader broken at side door',
          'The badge reader at the side door stays red for everyone.',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const [queue, subject, body] = used.map(String) as [string, string, string]
      const tickets = ticketsBySubject(app, subject)
      if (tickets.length !== 1) return `${tickets.length} tickets have the subject "${subject}"`
      const ticket = tickets[0]!
      if (ticket.QueueName !== queue) return `"${subject}" is in ${ticket.QueueName}, not ${queue}`
      if (!messages(app, ticket.id, 'Create').some((m) => m.includes(body)))
        return `ticket ${ticket.id}'s first message does not say "${body}"`
      if (ticketsBySubject(app, 'Keyboard missing keys on desk 7').length)
        return 'the recorded ticket was created'
      return null
    },
  },
}

/** Home → a ticket in "newest unowned tickets" → Actions → Reply, types, Update Ticket. */
export const replyToTicket: Workflow = {
  id: 'reply_to_ticket',
  intent:
    "reply to the requester of ticket 'Printer jams on floor 2' with 'A technician will come by this afternoon.'",
  rewordings: {
    terse: "reply on 'Printer jams on floor 2': technician this afternoon",
    chatty:
      "could you answer the person who reported the printer jamming on floor 2 and tell them 'A technician will come by this afternoon.'?",
    withoutValue: 'send a reply to the person who opened a ticket',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await openTicket(page, 'Printer jams on floor 2')
    await ticketAction(page, 'Reply')
    await page.waitForURL(/Ticket\/Update\.html/)
    await typeMessage(page, 'A technician will come by this afternoon.')
    await page.locator('input[name=SubmitTicket]').first().click()
    await resultShown(page, /Correspondence added|Reply added|message/i)
  },
  key: {
    target: page('POST', '/Ticket/Update.html', 'UpdateType', 'response'),
    inputs: [
      {
        recorded: 'Printer jams on floor 2',
        changed: ['Monitor flickers on desk 14', 'Wi-Fi slow on floor 3'],
      },
      {
        recorded: 'A technician will come by this afternoon.',
        changed: [
          'We are sending you a replacement cable today.',
          'Please restart the access point and tell us if it helps.',
        ],
      },
    ],
    dependencies: [TICKET_LIST],
    mutating: true,
    async replayByHand(app, session) {
      const id = ticketBySubject(app, 'Monitor flickers on desk 14').id
      const res = await postForm(
        app,
        session,
        '/Ticket/Update.html',
        [
          ['id', String(id)],
          ['Action', 'Respond'],
          ['UpdateType', 'response'],
          ['UpdateSubject', 'Monitor flickers on desk 14'],
          ['UpdateContent', '<p>We are sending you a replacement cable today.</p>'],
          ['UpdateContentType', 'text/html'],
          ['Status', 'open'],
          ['SubmitTicket', 'Update Ticket'],
        ],
        { page: `/Ticket/Update.html?Action=Respond;id=${id}`, multipart: true },
      )
      await res.arrayBuffer()
      mustPass(
        await replyToTicket.key.check(app, { status: 'succeeded', result: null }, session, [
          'Monitor flickers on desk 14',
          'We are sending you a replacement cable today.',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const [subject, text] = used.map(String) as [string, string]
      const ticket = ticketBySubject(app, subject)
      if (!messages(app, ticket.id, 'Correspond').some((m) => m.includes(text)))
        return `ticket ${ticket.id} ("${subject}") has no reply saying "${text}"`
      const recorded = ticketBySubject(app, 'Printer jams on floor 2')
      if (messages(app, recorded.id, 'Correspond').length)
        return 'the recorded ticket Printer jams on floor 2 got a reply'
      return null
    },
  },
}

/** Home → a ticket in "newest unowned tickets" → People, picks the owner alice, Save Changes. */
export const assignTicket: Workflow = {
  id: 'assign_ticket',
  intent: "assign the ticket 'Laptop battery swelling' to alice",
  rewordings: {
    terse: 'Laptop battery swelling -> owner alice',
    chatty:
      "alice handles hardware this week, can you make her the owner of 'Laptop battery swelling'?",
    withoutValue: 'give a ticket to someone on the team',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await openTicket(page, 'Laptop battery swelling')
    await page.locator('li#li-page-people > a').click()
    await page.waitForURL(/Ticket\/ModifyPeople\.html/)
    await pickOption(page, 'Owner', 'alice')
    await page.getByRole('button', { name: 'Save Changes' }).first().click()
    await resultShown(page, /Owner changed/)
  },
  key: {
    target: page('POST', '/Ticket/ModifyPeople.html'),
    inputs: [
      {
        recorded: 'Laptop battery swelling',
        changed: ['Password reset for payroll system', 'Printer toner low in lobby'],
      },
      { recorded: 'alice', changed: ['bruno', 'chloe'] },
    ],
    dependencies: [TICKET_LIST, { method: 'GET', path: '/Ticket/ModifyPeople.html' }],
    mutating: true,
    async replayByHand(app, session) {
      const id = ticketBySubject(app, 'Password reset for payroll system').id
      const res = await postForm(
        app,
        session,
        '/Ticket/ModifyPeople.html',
        [
          ['id', String(id)],
          ['Owner', String(staffId(app, 'bruno'))],
          ['SubmitTicket', 'Save Changes'],
        ],
        { page: `/Ticket/ModifyPeople.html?id=${id}` },
      )
      await res.arrayBuffer()
      mustPass(
        await assignTicket.key.check(app, { status: 'succeeded', result: null }, session, [
          'Password reset for payroll system',
          'bruno',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const [subject, owner] = used.map(String) as [string, string]
      const ticket = ticketBySubject(app, subject)
      if (ticket.OwnerName !== owner)
        return `"${subject}" is owned by ${ticket.OwnerName}, not ${owner}`
      if (ticketBySubject(app, 'Laptop battery swelling').OwnerName !== 'Nobody')
        return 'the recorded ticket Laptop battery swelling got an owner'
      return null
    },
  },
}

/** Home → Queue list → Facilities → a ticket → Actions → Resolve, Update Ticket. */
export const resolveTicket: Workflow = {
  id: 'resolve_ticket',
  intent: "resolve the ticket 'Projector bulb out in room B'",
  rewordings: {
    terse: 'resolve Projector bulb out in room B',
    chatty:
      'the new bulb is in and the projector in room B works again, please close that ticket as resolved',
    withoutValue: 'mark a ticket as resolved',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    const box = page.locator('.titlebox', { hasText: 'Queue list' })
    await box.getByRole('link', { name: 'Facilities', exact: true }).click()
    await page.waitForURL(/Search\/Results\.html/)
    await openTicket(page, 'Projector bulb out in room B')
    await ticketAction(page, 'Resolve')
    await page.waitForURL(/Ticket\/Update\.html/)
    await page.locator('input[name=SubmitTicket]').first().click()
    await resultShown(page, /resolved/)
  },
  key: {
    target: page('POST', '/Ticket/Update.html', 'Status', 'resolved'),
    inputs: [
      {
        recorded: 'Projector bulb out in room B',
        changed: ['Broken chair in meeting room A', 'Kitchen kettle needs replacing'],
      },
    ],
    dependencies: [TICKET_LIST],
    mutating: true,
    async replayByHand(app, session) {
      const id = ticketBySubject(app, 'Broken chair in meeting room A').id
      const res = await postForm(
        app,
        session,
        '/Ticket/Update.html',
        [
          ['id', String(id)],
          ['Action', 'Comment'],
          ['DefaultStatus', 'resolved'],
          ['UpdateType', 'private'],
          ['Status', 'resolved'],
          ['UpdateContent', ''],
          ['SubmitTicket', 'Update Ticket'],
        ],
        {
          page: `/Ticket/Update.html?Action=Comment&DefaultStatus=resolved&id=${id}`,
          multipart: true,
        },
      )
      await res.arrayBuffer()
      mustPass(
        await resolveTicket.key.check(app, { status: 'succeeded', result: null }, session, [
          'Broken chair in meeting room A',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const subject = String(used[0])
      const ticket = ticketBySubject(app, subject)
      if (ticket.Status !== 'resolved') return `"${subject}" is ${ticket.Status}, not resolved`
      if (ticketBySubject(app, 'Projector bulb out in room B').Status === 'resolved')
        return 'the recorded ticket Projector bulb out in room B was resolved'
      return null
    },
  },
}
