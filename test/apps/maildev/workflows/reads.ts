/**
 * The reads of MailDev: the inbox as the page loads it, the search box, and an email picked by
 * its subject in the list (its JSON, its HTML, its attachment). The UI finds nothing by subject
 * on the server: it lists summaries, and the row the person clicks carries the email's id.
 */
import type { StorageState } from '../../../../src/shared/trace'
import type { AnswerKey, AppInstance, Workflow } from '../../types'
import {
  EMAIL_KEY,
  EMAIL_PATH,
  LIST_KEY,
  getJson,
  idOf,
  mustPass,
  resultText,
  send,
  subjectsIn,
  summary,
  type StoredEmail,
} from '../api'
import {
  answered,
  countLine,
  emailRow,
  HEALTH_PATH,
  openEmail,
  openInbox,
  typeSearch,
} from '../person'
import { seeded } from '../seed'

/** `EMAIL_PATH` as the whole path, for waiting on the page's own request. */
const ONE_EMAIL = new RegExp(`^${EMAIL_PATH.source}$`)

/** Page load, nothing typed: the list the UI shows first. */
export const listInbox: Workflow = {
  id: 'list_inbox',
  intent: 'list the emails in my MailDev inbox',
  rewordings: {
    terse: 'maildev inbox',
    chatty: "Could you show me everything that has landed in MailDev's inbox so far?",
    withoutValue: 'list the caught emails',
  },
  startPath: HEALTH_PATH,
  signedIn: true,
  async play(page, app) {
    await openInbox(page, app)
    await countLine(page)
      .filter({ hasText: /\d+ emails/ })
      .waitFor()
    await emailRow(page, 'Invitation: design review').waitFor()
  },
  key: {
    target: LIST_KEY,
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const result = await getJson(app, session, '/api/email/summary?limit=50')
      mustPass(await listInbox.key.check(app, { status: 'succeeded', result }, session, []))
    },
    async check(app, run, session) {
      const got = new Set(subjectsIn(run.result))
      const held = (await summary(app, session)).items.map((e) => e.subject)
      if (!held.length) return 'the inbox is empty'
      const missing = held.filter((s) => !got.has(s))
      return missing.length
        ? `the answer misses ${missing.length} of ${held.length} emails (${missing.slice(0, 3).join(', ')})`
        : null
    },
  },
}

/** Types a word in the search box; the list narrows to what the server matches. */
export const searchEmails: Workflow = {
  id: 'search_emails',
  intent: 'search my MailDev inbox for invoice',
  rewordings: {
    terse: 'maildev search invoice',
    chatty: 'I need to find the invoice mails our app sent, can you search MailDev for invoice?',
    withoutValue: 'search the caught emails for a word',
  },
  startPath: HEALTH_PATH,
  signedIn: true,
  async play(page, app) {
    await openInbox(page, app)
    const searched = page.waitForResponse(
      (res) =>
        new URL(res.url()).pathname === '/api/email/summary' &&
        new URL(res.url()).searchParams.get('search') === 'invoice',
    )
    await typeSearch(page, 'invoice')
    await searched
    await countLine(page)
      .filter({ hasText: /^2 of \d+ emails/ })
      .waitFor()
    await emailRow(page, 'Team lunch on Friday').waitFor({ state: 'detached' })
    await emailRow(page, 'Your invoice INV-1042').waitFor()
  },
  key: {
    // The page-load list is the same path without `search`.
    target: {
      method: 'GET',
      path: '/api/email/summary',
      operation: { field: 'search', value: 'invoice' },
    },
    inputs: [{ recorded: 'invoice', changed: ['shipped', 'password'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const word = 'shipped'
      const result = await getJson(app, session, `/api/email/summary?limit=50&search=${word}`)
      mustPass(await searchEmails.key.check(app, { status: 'succeeded', result }, session, [word]))
    },
    async check(app, run, session, used) {
      const word = String(used[0])
      // What MailDev itself matches now (subject, addresses, text), read by hand.
      const want = new Set((await summary(app, session, word)).items.map((e) => e.subject))
      if (!want.size) return `no email matches "${word}"`
      const got = new Set(subjectsIn(run.result))
      const extra = [...got].filter((s) => !want.has(s))
      const missing = [...want].filter((s) => !got.has(s))
      if (missing.length) return `the answer misses ${missing.join(', ')}`
      return extra.length ? `the answer lists emails without "${word}": ${extra.join(', ')}` : null
    },
  },
}

/**
 * The key of a read of one email picked in the list by subject: the target's path holds the id
 * the list gave; `expect(subject)` is a text the right answer holds and no other does.
 */
function pickedReadKey(
  target: AnswerKey['target'],
  recorded: string,
  changed: [string, string],
  extraDependencies: AnswerKey['dependencies'],
  path: (app: AppInstance, session: StorageState, id: string) => Promise<string>,
  expect: (subject: string) => string,
): AnswerKey {
  const key: AnswerKey = {
    target,
    inputs: [{ recorded, changed }],
    dependencies: [LIST_KEY, ...extraDependencies],
    mutating: false,
    async replayByHand(app, session) {
      const id = await idOf(app, session, changed[0])
      const result = await send(app, session, 'GET', await path(app, session, id))
      mustPass(await key.check(app, { status: 'succeeded', result }, session, [changed[0]]))
    },
    async check(_app, run, _session, used) {
      const subject = String(used[0])
      const text = resultText(run.result)
      if (!text.includes(expect(subject))) return `the answer is not that of "${subject}"`
      return text.includes(expect(recorded)) ? `the answer is that of "${recorded}"` : null
    },
  }
  return key
}

/** Clicks an email in the list and reads it (the reading pane's own `GET /api/email/<id>`). */
export const readEmail: Workflow = {
  id: 'read_email',
  intent: 'open the email "Meeting notes: sprint planning" in MailDev and read it',
  rewordings: {
    terse: 'maildev read Meeting notes: sprint planning',
    chatty:
      'Someone forwarded the sprint planning notes to our test inbox, can you open "Meeting notes: sprint planning" in MailDev and tell me what it says?',
    withoutValue: 'read an email in MailDev',
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await openInbox(page, app)
    const read = answered(page, 'GET', ONE_EMAIL)
    await openEmail(page, 'Meeting notes: sprint planning')
    await read
    await page
      .getByTestId('email-viewer')
      .getByText(/^Sprint 14 goals/)
      .waitFor()
  },
  key: pickedReadKey(
    EMAIL_KEY,
    'Meeting notes: sprint planning',
    ['Your weekly digest', 'Contract renewal reminder'],
    [],
    async (_app, _session, id) => `/api/email/${id}`,
    (subject) => seeded(subject).text,
  ),
}

/** The first heading of each HTML email: what its rendered HTML shows and no other does. */
const HTML_HEADINGS: Record<string, string> = {
  'Welcome to Acme Cloud': 'Welcome aboard, Dana',
  'Reset your password': 'Password reset requested',
  'Verify your email address': 'Confirm your address',
}

/** Opens an email and looks at its HTML (the tab shown first), rendered in the reading pane. */
export const viewHtml: Workflow = {
  id: 'view_html',
  intent: 'show me the HTML of the email "Welcome to Acme Cloud" in MailDev',
  rewordings: {
    terse: 'maildev html Welcome to Acme Cloud',
    chatty:
      'Our designer wants to check the markup of the welcome mail, can you get me the HTML of "Welcome to Acme Cloud" from MailDev?',
    withoutValue: "get an email's HTML from MailDev",
  },
  startPath: HEALTH_PATH,
  signedIn: true,
  async play(page, app) {
    await openInbox(page, app)
    const html = answered(page, 'GET', /^\/api\/email\/[^/]+\/html$/)
    await openEmail(page, 'Welcome to Acme Cloud')
    await html
    await page.getByRole('button', { name: 'HTML', exact: true }).click()
    await page.frameLocator('iframe').getByText('Welcome aboard, Dana').waitFor()
  },
  key: pickedReadKey(
    { method: 'GET', path: /\/api\/email\/[^/]+\/html/ },
    'Welcome to Acme Cloud',
    ['Reset your password', 'Verify your email address'],
    [],
    async (_app, _session, id) => `/api/email/${id}/html`,
    (subject) => HTML_HEADINGS[subject]!,
  ),
}

/** Opens an email and clicks its attachment, which opens in a new tab. */
export const downloadAttachment: Workflow = {
  id: 'download_attachment',
  intent: 'download the attachment of the email "Your invoice INV-1042" from MailDev',
  rewordings: {
    terse: 'maildev attachment Your invoice INV-1042',
    chatty:
      'The billing job mailed invoice INV-1042 with a file attached, could you fetch that attachment from MailDev for me?',
    withoutValue: "download an email's attachment from MailDev",
  },
  startPath: HEALTH_PATH,
  signedIn: true,
  async play(page, app) {
    await openInbox(page, app)
    await openEmail(page, 'Your invoice INV-1042')
    const opened = page.waitForEvent('popup')
    await page.getByTestId('email-attachment').filter({ hasText: 'invoice-1042.txt' }).click()
    const tab = await opened
    await tab.getByText('INVOICE INV-1042').waitFor()
  },
  key: pickedReadKey(
    { method: 'GET', path: /\/api\/email\/[^/]+\/attachment\/[^/]+/ },
    'Your invoice INV-1042',
    ['Your invoice INV-1043', 'Quarterly report Q1'],
    // The file's name in the URL is MailDev's generatedFileName, read from the email itself.
    [EMAIL_KEY],
    async (app, session, id) => {
      const email = await getJson<StoredEmail>(app, session, `/api/email/${id}`)
      return `/api/email/${id}/attachment/${email.attachments[0]!.generatedFileName}`
    },
    (subject) => seeded(subject).attachment!.content.split('\n')[0]!,
  ),
}
