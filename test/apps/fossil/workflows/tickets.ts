/**
 * Fossil workflows that write tickets. The ticket forms (`/tktnew`, `/tktedit`) show only Preview
 * until the person previewed once; Submit then posts the whole form again with `submit=Submit`.
 * Both carry a `csrf` field (the first 10 characters of the login cookie's hash) and are refused
 * without a same-origin Referer. An edit posts every field of the ticket, not only the changed
 * one, and names the ticket by the id prefix of the page it came from (`name=dbc0779411`).
 * Attachments are a multipart post to `/attachadd` with the file in `f`, checked by Referer only.
 */
import type { Page } from 'playwright-core'
import type { AppInstance, RequestKey, Workflow } from '../../types'
import type { StorageState } from '../../../../src/shared/trace'
import {
  formFields,
  getPage,
  mustPass,
  postForm,
  refererFrom,
  ticketAttachment,
  ticketField,
  ticketsTitled,
  ticketView,
} from '../keys'
import { ticketByTitle } from '../seed'
import { openAllTickets } from './reads'

/** The ticket list a picked ticket's id comes from. */
const REPORT: RequestKey = { method: 'GET', path: '/rptview/1' }
/** A ticket's edit form: the csrf field and every current value the edit posts back. */
const EDIT_FORM: RequestKey = { method: 'GET', path: /\/tktedit\/[0-9a-f]+/ }
/** The edit form's Submit (the Preview before it posts the same form with `preview`). */
const EDIT_SUBMIT: RequestKey = {
  method: 'POST',
  path: '/tktedit',
  operation: { field: 'submit', value: 'Submit' },
}

/** Clicks Preview, then Submit once it shows, and waits for the ticket's page. */
async function previewAndSubmit(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Preview' }).click()
  await page.getByRole('button', { name: 'Submit' }).click()
  await page.waitForURL('**/tktview/**')
}

/** The first 10 hex digits of a seeded ticket's id, as the report links it. */
const shortId = (title: string): string => ticketByTitle(title).uuid.slice(0, 10)

/**
 * A ticket edit by hand: the report (the id by title), the edit form (csrf and current values),
 * then the Submit post with `change` applied; throws unless Fossil redirected to the ticket.
 */
async function editTicket(
  app: AppInstance,
  session: StorageState,
  title: string,
  change: Record<string, string>,
): Promise<void> {
  const [row] = await ticketsTitled(app, session, title)
  if (!row) throw new Error(`no ticket titled ${title} in the report`)
  const formPath = `/tktedit/${row.id}`
  const fields = formFields(await getPage(app, session, formPath))
  const res = await postForm(
    app,
    session,
    '/tktedit',
    { ...fields, ...change, submit: 'Submit' },
    formPath,
  )
  if (res.status !== 302 || !res.location.includes('/tktview/'))
    throw new Error(`POST /tktedit answered ${res.status} ${res.location}`)
}

const NEW_TICKET = {
  title: 'Export passes as iCalendar files',
  type: 'Feature_Request',
  severity: 'Minor',
  description: 'Calendar apps could then remind observers of each pass.',
}

/** Tickets, New, types the title, picks type and severity, describes, previews, submits. */
export const createTicket: Workflow = {
  id: 'create_ticket',
  intent: `create a ${NEW_TICKET.type} ticket titled "${NEW_TICKET.title}" with severity ${NEW_TICKET.severity} and the description "${NEW_TICKET.description}"`,
  rewordings: {
    terse: `new ticket: ${NEW_TICKET.title}, ${NEW_TICKET.type}, ${NEW_TICKET.severity}, "${NEW_TICKET.description}"`,
    chatty: `Hi! Please file a ticket in Orbit Tracker called "${NEW_TICKET.title}". It's a ${NEW_TICKET.type}, severity ${NEW_TICKET.severity}, and the description should say "${NEW_TICKET.description}"`,
    withoutValue: 'file a new ticket with a title, type, severity and description',
  },
  startPath: '/home',
  signedIn: true,
  async play(page) {
    await page.locator('.mainmenu').getByRole('link', { name: 'Tickets' }).click()
    await page.locator('.submenu').getByRole('link', { name: 'New' }).click()
    await page.waitForURL('**/tktnew')
    await page.locator('input[name=title]').fill(NEW_TICKET.title)
    await page.locator('select[name=type]').selectOption(NEW_TICKET.type)
    await page.locator('select[name=severity]').selectOption(NEW_TICKET.severity)
    await page.locator('textarea[name=icomment]').fill(NEW_TICKET.description)
    await previewAndSubmit(page)
    await page.getByText(NEW_TICKET.description).waitFor()
  },
  key: {
    target: { method: 'POST', path: '/tktnew', operation: { field: 'submit', value: 'Submit' } },
    inputs: [
      {
        recorded: NEW_TICKET.title,
        changed: [
          'Station list ignores the altitude column',
          'Usage page misses the --days option',
        ],
      },
      { recorded: NEW_TICKET.type, changed: ['Code_Defect', 'Documentation'] },
      { recorded: NEW_TICKET.severity, changed: ['Important', 'Cosmetic'] },
      {
        recorded: NEW_TICKET.description,
        changed: [
          'The altitude in stations.toml is read but never used.',
          'docs/usage.md should explain how --days limits the forecast.',
        ],
      },
    ],
    // The form page holds the csrf field (the Preview's answer holds the same one).
    dependencies: [{ method: 'GET', path: '/tktnew' }],
    mutating: true,
    async replayByHand(app, session) {
      const used = this.inputs.map((i) => String(i.changed[0]))
      const fields = formFields(await getPage(app, session, '/tktnew'))
      const res = await postForm(
        app,
        session,
        '/tktnew',
        {
          ...fields,
          title: used[0]!,
          type: used[1]!,
          severity: used[2]!,
          icomment: used[3]!,
          submit: 'Submit',
        },
        '/tktnew',
      )
      if (res.status !== 302 || !res.location.includes('/tktview/'))
        throw new Error(`POST /tktnew answered ${res.status} ${res.location}`)
      mustPass(await this.check(app, { status: 'succeeded', result: null }, session, used))
    },
    async check(app, _run, session, used) {
      const [title, type, severity, description] = used.map(String)
      const rows = await ticketsTitled(app, session, title!)
      if (rows.length !== 1) return `${rows.length} tickets are titled "${title}"`
      const row = rows[0]!
      if (row.type !== type) return `the new ticket's type is ${row.type}, not ${type}`
      const view = await ticketView(app, session, row.id)
      const got = ticketField(view, 'Severity')
      if (got !== severity) return `the new ticket's severity is ${got}, not ${severity}`
      return view.includes(description!) ? null : 'the new ticket lacks the description'
    },
  },
}

/** The ticket whose status the person changes, picked in the report by its title. */
const STATUS_TICKET = 'Export to CSV drops the header row'

/** All Tickets, "edit" in the ticket's row, picks the new status, previews, submits. */
export const changeTicketStatus: Workflow = {
  id: 'change_ticket_status',
  intent: `set the status of the ticket "${STATUS_TICKET}" to Fixed`,
  rewordings: {
    terse: `ticket "${STATUS_TICKET}" → Fixed`,
    chatty: `We shipped the fix for "${STATUS_TICKET}", could you mark that ticket as Fixed for me?`,
    withoutValue: 'change the status of a ticket',
  },
  startPath: '/rptview/1',
  signedIn: true,
  async play(page) {
    await page
      .getByRole('row', { name: new RegExp(STATUS_TICKET) })
      .getByRole('link', { name: 'edit' })
      .click()
    await page.waitForURL('**/tktedit/**')
    await page.locator('select[name=status]').selectOption('Fixed')
    await previewAndSubmit(page)
    await page.locator('.tktDspValue').getByText('Fixed', { exact: true }).first().waitFor()
  },
  key: {
    target: EDIT_SUBMIT,
    inputs: [
      {
        recorded: STATUS_TICKET,
        changed: ['Pass times are off by one hour in CET', 'Add a dark theme to the web viewer'],
      },
      { recorded: 'Fixed', changed: ['Closed', 'Deferred'] },
    ],
    dependencies: [REPORT, EDIT_FORM],
    mutating: true,
    async replayByHand(app, session) {
      const used = this.inputs.map((i) => String(i.changed[0]))
      await editTicket(app, session, used[0]!, { status: used[1]! })
      mustPass(await this.check(app, { status: 'succeeded', result: null }, session, used))
    },
    async check(app, _run, session, used) {
      const [title, status] = used.map(String)
      const seeded = ticketByTitle(title!)
      const rows = await ticketsTitled(app, session, title!)
      const row = rows.find((r) => r.id === shortId(title!))
      if (!row) return `the ticket ${seeded.uuid.slice(0, 10)} is no longer titled "${title}"`
      if (rows.length !== 1) return `${rows.length} tickets are titled "${title}"`
      if (row.type !== seeded.type) return `the ticket's type became ${row.type}`
      return row.status === status ? null : `the ticket's status is ${row.status}, not ${status}`
    },
  },
}

/** The ticket the person comments on, and the comment. */
const COMMENT_TICKET = 'TLE parser rejects lines with trailing spaces'
const COMMENT = 'Strip each line before the checksum test.'

/** Clicks Login in the header, types the user name and password, and waits for the home page. */
export async function logInFromHeader(page: Page, app: AppInstance): Promise<void> {
  await page.locator('.status').getByRole('link', { name: 'Login' }).click()
  await page.waitForURL('**/login')
  await page.locator('#u').fill(app.user.name)
  await page.locator('#p').fill(app.user.password)
  await page.getByRole('button', { name: 'Login' }).click()
  await page.locator('.status').getByText(app.user.name).waitFor()
}

/**
 * Signed out on the ticket list: logs in, back to All Tickets, opens the ticket by its id, Edit,
 * types a remark, previews and submits.
 */
export const commentOnTicket: Workflow = {
  id: 'comment_on_ticket',
  intent: `add the comment "${COMMENT}" to the ticket "${COMMENT_TICKET}"`,
  rewordings: {
    terse: `comment on "${COMMENT_TICKET}": ${COMMENT}`,
    chatty: `Can you log in and leave a note on the "${COMMENT_TICKET}" ticket saying "${COMMENT}"? Thanks`,
    withoutValue: 'add a comment to a ticket',
  },
  startPath: '/rptview/1',
  signedIn: false,
  async play(page, app) {
    await logInFromHeader(page, app)
    await openAllTickets(page)
    await page
      .getByRole('row', { name: new RegExp(COMMENT_TICKET) })
      .getByRole('link')
      .first()
      .click()
    await page.waitForURL('**/tktview/**')
    await page.locator('.submenu').getByRole('link', { name: 'Edit' }).click()
    await page.locator('textarea[name=icomment]').fill(COMMENT)
    await previewAndSubmit(page)
    await page.getByText(COMMENT).waitFor()
  },
  key: {
    target: EDIT_SUBMIT,
    inputs: [
      {
        recorded: COMMENT_TICKET,
        changed: ['Installer fails on Debian 12', 'Usage page lists a removed option'],
      },
      {
        recorded: COMMENT,
        changed: [
          'Works after apt install python3-venv; the installer should say so.',
          'Removed the paragraph about --legacy-format on the docs-refresh branch.',
        ],
      },
    ],
    dependencies: [REPORT, EDIT_FORM],
    mutating: true,
    async replayByHand(app, session) {
      const used = this.inputs.map((i) => String(i.changed[0]))
      await editTicket(app, session, used[0]!, { icomment: used[1]! })
      mustPass(await this.check(app, { status: 'succeeded', result: null }, session, used))
    },
    async check(app, _run, session, used) {
      const [title, comment] = used.map(String)
      const seeded = ticketByTitle(title!)
      const view = await ticketView(app, session, seeded.uuid)
      if (ticketField(view, 'Title') !== title)
        return `the ticket ${seeded.uuid.slice(0, 10)} is titled "${ticketField(view, 'Title')}"`
      if (ticketField(view, 'Status') !== seeded.status)
        return `the ticket's status became ${ticketField(view, 'Status')}`
      return view.includes(comment!) ? null : `the ticket has no comment "${comment}"`
    },
  },
}

/** The ticket the person attaches a file to, and the file. */
const ATTACH_TICKET = 'Crash when the ground station list is empty'
const ATTACH_NAME = 'empty-stations.log'
const ATTACH_BYTES = Buffer.from(
  'Traceback (most recent call last):\n  File "orbit.py", line 12\nIndexError: list index out of range\n',
)

/** All Tickets, opens the ticket by its id, Attach, picks the file, "Add Attachment". */
export const attachFile: Workflow = {
  id: 'attach_file',
  intent: `attach the file ${ATTACH_NAME} to the ticket "${ATTACH_TICKET}"`,
  rewordings: {
    terse: `attach ${ATTACH_NAME} to "${ATTACH_TICKET}"`,
    chatty: `I have the crash log ${ATTACH_NAME}, could you add it to the "${ATTACH_TICKET}" ticket?`,
    withoutValue: 'attach a file to a ticket',
  },
  startPath: '/rptview/1',
  signedIn: true,
  async play(page) {
    await page
      .getByRole('row', { name: new RegExp(ATTACH_TICKET) })
      .getByRole('link')
      .first()
      .click()
    await page.waitForURL('**/tktview/**')
    await page.locator('.submenu').getByRole('link', { name: 'Attach' }).click()
    await page.locator('input[type=file][name=f]').setInputFiles({
      name: ATTACH_NAME,
      mimeType: 'text/plain',
      buffer: ATTACH_BYTES,
    })
    await page.getByRole('button', { name: 'Add Attachment' }).click()
    await page.waitForURL('**/tktview/**')
    await page.getByRole('link', { name: ATTACH_NAME }).waitFor()
  },
  key: {
    // Multipart: f (the file), comment, tkt (the id prefix from the page), from, ok.
    target: { method: 'POST', path: '/attachadd' },
    inputs: [
      {
        recorded: ATTACH_TICKET,
        changed: ['Map tiles load slowly on first start', 'Support Galileo satellites'],
      },
      { recorded: ATTACH_NAME, changed: ['tile-timings.log', 'galileo-catalogue.txt'] },
    ],
    // The ticket's id comes from the report's row; the upload form holds no token.
    dependencies: [REPORT],
    mutating: true,
    file: ATTACH_BYTES,
    async replayByHand(app, session) {
      const used = this.inputs.map((i) => String(i.changed[0]))
      const [row] = await ticketsTitled(app, session, used[0]!)
      if (!row) throw new Error(`no ticket titled ${used[0]}`)
      const form = new FormData()
      form.append('f', new Blob([ATTACH_BYTES], { type: 'text/plain' }), used[1]!)
      form.append('comment', '')
      form.append('tkt', row.id)
      form.append('from', `/tktview/${row.id}`)
      form.append('ok', 'Add Attachment')
      const res = await app.fetch('/attachadd', {
        method: 'POST',
        session,
        headers: refererFrom(app, `/attachadd?tkt=${row.id}`),
        body: form,
      })
      await res.arrayBuffer()
      if (res.status !== 302) throw new Error(`POST /attachadd answered ${res.status}`)
      mustPass(await this.check(app, { status: 'succeeded', result: null }, session, used))
    },
    async check(app, _run, session, used) {
      const [title, name] = used.map(String)
      const seeded = ticketByTitle(title!)
      const bytes = await ticketAttachment(app, session, seeded.uuid, name!)
      if (!bytes) return `the ticket "${title}" has no attachment ${name}`
      return bytes.equals(ATTACH_BYTES) ? null : `${name} holds ${bytes.length} other bytes`
    },
  },
}
