/**
 * PostfixAdmin mailbox writes. Creating and editing post the mailbox form to
 * `edit.php?table=mailbox` (editing with `edit=<address>` in the query, kept by the form's empty
 * action); enabling/disabling is a GET link `editactive.php?table=mailbox&id=..&active=0&token=..`
 * in the virtual list; deleting posts the row's small form (`table`, `delete`, `token`) to
 * `delete.php` after a confirm() dialog. Every one needs the session's CSRF token from a page.
 */
import type { RequestKey, Workflow } from '../../types'
import {
  csvRow,
  domainOf,
  EDIT_POST,
  FORM_PAGE,
  mailboxLogsIn,
  mustPass,
  postForm,
  sessionToken,
  VIRTUAL_LIST,
} from '../keys'
import { fillField, logIn, rowOf, submitForm } from './person'

/** Signs in, clicks "Add Mailbox" on the overview page, fills the form for zoe@acme.test, submits. */
export const addMailbox: Workflow = {
  id: 'add_mailbox',
  intent:
    "create the mailbox zoe@acme.test for Zoe Zimmer with the password 'Zoe-pass-42' and a " +
    '150 MB quota',
  rewordings: {
    terse: 'new mailbox zoe@acme.test, Zoe Zimmer, password Zoe-pass-42, quota 150',
    chatty:
      'Zoe Zimmer just joined Acme, could you set up a mailbox zoe@acme.test for her with the ' +
      "password 'Zoe-pass-42'? 150 MB of space is plenty for her.",
    withoutValue: 'create a new mailbox with a password and a quota for a new colleague',
  },
  startPath: '/login.php',
  signedIn: false,
  async play(page, app) {
    await logIn(page, app)
    await page.getByRole('link', { name: 'Add Mailbox' }).click()
    await page.waitForURL(/edit\.php\?table=mailbox/)
    await fillField(page, 'local_part', 'zoe')
    await page.locator('select[name="value[domain]"]').selectOption('acme.test')
    await fillField(page, 'password', 'Zoe-pass-42')
    await fillField(page, 'password2', 'Zoe-pass-42')
    await fillField(page, 'name', 'Zoe Zimmer')
    await fillField(page, 'quota', '150')
    await submitForm(page, 'Add Mailbox', /edit\.php\?table=mailbox/)
    await page.getByText('zoe@acme.test has been added').waitFor()
  },
  key: {
    target: EDIT_POST('mailbox'),
    inputs: [
      { recorded: 'zoe', changed: ['yusuf', 'xena'] },
      { recorded: 'Zoe-pass-42', changed: ['Yusuf-pass-77', 'Xena-pass-88'] },
      { recorded: 'Zoe Zimmer', changed: ['Yusuf Yilmaz', 'Xena Xu'] },
      // Picked in the domain dropdown (and named in the intent's address).
      { recorded: 'acme.test', changed: ['globex.test', 'example.org'] },
      { recorded: '150', changed: ['250', '350'] },
    ],
    dependencies: [FORM_PAGE('mailbox')],
    mutating: true,
    async replayByHand(app, session) {
      const used = ['yusuf', 'Yusuf-pass-77', 'Yusuf Yilmaz', 'globex.test', '250']
      const res = await postForm(app, session, '/edit.php?table=mailbox', {
        table: 'mailbox',
        'value[local_part]': used[0]!,
        'value[domain]': used[3]!,
        'value[password]': used[1]!,
        'value[password2]': used[1]!,
        'value[name]': used[2]!,
        'value[quota]': used[4]!,
        'value[active]': '1',
        'value[welcome_mail]': '1',
        'value[email_other]': '',
        submit: 'Add Mailbox',
      })
      if (res.status !== 302) throw new Error(`adding a mailbox answered ${res.status}`)
      mustPass(
        await addMailbox.key.check(app, { status: 'succeeded', result: null }, session, used),
      )
    },
    async check(app, _run, session, used) {
      const domain = String(used[3])
      const address = `${String(used[0])}@${domain}`
      const row = await csvRow(app, session, 'mailbox', 'Username', address, domain)
      if (!row) return `there is no mailbox ${address}`
      if (row['Name'] !== String(used[2])) return `${address} is named ${row['Name']}`
      if (row['Quota'] !== String(used[4])) return `${address} has the quota ${row['Quota']}`
      if (!(await mailboxLogsIn(app, address, String(used[1]))))
        return `${address} cannot log in with the password ${String(used[1])}`
      return null
    },
  },
}

/** The edit form's post of bob@example.org. */
const EDIT_BOB: RequestKey = {
  method: 'POST',
  path: '/edit.php',
  operation: [
    { field: 'table', value: 'mailbox' },
    { field: 'edit', value: 'bob@example.org' },
  ],
}

/** In example.org's virtual list: clicks "edit" on bob's row, types a new quota, saves. */
export const changeQuota: Workflow = {
  id: 'change_quota',
  intent: "set the quota of bob@example.org's mailbox to 750 MB",
  rewordings: {
    terse: 'bob@example.org quota 750',
    chatty: 'Bob keeps running out of space, can you bump his mailbox quota to 750 MB please?',
    withoutValue: "change the quota of Bob's mailbox",
  },
  startPath: '/list-virtual.php?domain=example.org',
  signedIn: true,
  async play(page) {
    await rowOf(page, 'bob@example.org').getByRole('link', { name: 'edit' }).click()
    await page.waitForURL(/edit=bob/)
    await fillField(page, 'quota', '750')
    await submitForm(page, 'Save changes', /list-virtual\.php/)
    await rowOf(page, 'bob@example.org').getByText('750').waitFor()
  },
  key: {
    target: EDIT_BOB,
    inputs: [{ recorded: '750', changed: ['900', '1200'] }],
    dependencies: [FORM_PAGE('mailbox')],
    mutating: true,
    async replayByHand(app, session) {
      const res = await postForm(app, session, '/edit.php?table=mailbox&edit=bob%40example.org', {
        table: 'mailbox',
        'value[password]': '',
        'value[password2]': '',
        'value[name]': 'Bob Baker',
        'value[quota]': '900',
        'value[active]': '1',
        'value[email_other]': '',
        submit: 'Save changes',
      })
      if (res.status !== 302) throw new Error(`saving bob's mailbox answered ${res.status}`)
      mustPass(
        await changeQuota.key.check(app, { status: 'succeeded', result: null }, session, ['900']),
      )
    },
    async check(app, _run, session, used) {
      const bob = await csvRow(
        app,
        session,
        'mailbox',
        'Username',
        'bob@example.org',
        'example.org',
      )
      if (!bob) return 'bob@example.org is gone'
      if (bob['Quota'] !== String(used[0])) return `bob's quota is ${bob['Quota']}`
      if (bob['Name'] !== 'Bob Baker' || bob['Active'] !== '1')
        return `bob's other fields changed (${bob['Name']}, active ${bob['Active']})`
      const carol = await csvRow(
        app,
        session,
        'mailbox',
        'Username',
        'carol@example.org',
        'example.org',
      )
      if (carol?.['Quota'] !== '300') return `carol's quota changed to ${carol?.['Quota']}`
      return null
    },
  },
}

/** In example.org's virtual list: clicks the "YES" (active) button of carol's row. */
export const disableMailbox: Workflow = {
  id: 'disable_mailbox',
  intent: 'disable the mailbox carol@example.org',
  rewordings: {
    terse: 'deactivate carol@example.org',
    chatty: 'Carol is on leave for a while, could you switch off her mailbox carol@example.org?',
    withoutValue: 'disable one of the mailboxes',
  },
  startPath: '/list-virtual.php?domain=example.org',
  signedIn: true,
  async play(page) {
    await Promise.all([
      page.waitForURL(/list-virtual\.php/, { waitUntil: 'domcontentloaded' }),
      rowOf(page, 'carol@example.org').getByRole('link', { name: 'YES' }).click(),
    ])
    await rowOf(page, 'carol@example.org').getByRole('link', { name: 'NO' }).waitFor()
  },
  key: {
    target: {
      method: 'GET',
      path: '/editactive.php',
      operation: { field: 'table', value: 'mailbox' },
    },
    inputs: [{ recorded: 'carol@example.org', changed: ['dave@example.org', 'erin@example.org'] }],
    dependencies: [VIRTUAL_LIST],
    mutating: true,
    async replayByHand(app, session) {
      const token = await sessionToken(app, session)
      const q = new URLSearchParams({
        table: 'mailbox',
        id: 'dave@example.org',
        active: '0',
        token,
      })
      const res = await app.fetch(`/editactive.php?${q}`, { session })
      await res.arrayBuffer()
      if (res.status !== 302) throw new Error(`editactive answered ${res.status}`)
      mustPass(
        await disableMailbox.key.check(app, { status: 'succeeded', result: null }, session, [
          'dave@example.org',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const address = String(used[0])
      const row = await csvRow(app, session, 'mailbox', 'Username', address, domainOf(address))
      if (!row) return `there is no mailbox ${address}`
      if (row['Active'] !== '0') return `${address} is still active`
      const carol = await csvRow(
        app,
        session,
        'mailbox',
        'Username',
        'carol@example.org',
        'example.org',
      )
      if (carol?.['Active'] !== '1') return 'carol@example.org (the recorded one) was disabled'
      return null
    },
  },
}

/** In globex.test's virtual list: clicks "del" on oscar's row and confirms the dialog. */
export const deleteMailbox: Workflow = {
  id: 'delete_mailbox',
  intent: 'delete the mailbox oscar@globex.test',
  rewordings: {
    terse: 'remove oscar@globex.test',
    chatty: 'Oscar has left Globex, please delete his mailbox oscar@globex.test for good',
    withoutValue: 'delete a mailbox',
  },
  startPath: '/list-virtual.php?domain=globex.test',
  signedIn: true,
  async play(page) {
    page.once('dialog', (dialog) => void dialog.accept())
    await Promise.all([
      page.waitForURL(/list-virtual\.php/, { waitUntil: 'domcontentloaded' }),
      rowOf(page, 'oscar@globex.test').getByRole('button', { name: 'del' }).click(),
    ])
    await page.getByText('trent@globex.test').first().waitFor()
    if (await page.getByText('oscar@globex.test', { exact: true }).count())
      throw new Error('oscar@globex.test is still listed')
  },
  key: {
    target: {
      method: 'POST',
      path: '/delete.php',
      operation: { field: 'table', value: 'mailbox' },
    },
    inputs: [
      { recorded: 'oscar@globex.test', changed: ['peggy@globex.test', 'mallory@globex.test'] },
    ],
    dependencies: [VIRTUAL_LIST],
    mutating: true,
    async replayByHand(app, session) {
      const res = await postForm(app, session, '/delete.php', {
        table: 'mailbox',
        delete: 'peggy@globex.test',
      })
      if (res.status !== 302) throw new Error(`delete.php answered ${res.status}`)
      mustPass(
        await deleteMailbox.key.check(app, { status: 'succeeded', result: null }, session, [
          'peggy@globex.test',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const address = String(used[0])
      if (await csvRow(app, session, 'mailbox', 'Username', address, 'globex.test'))
        return `${address} still exists`
      if (!(await csvRow(app, session, 'mailbox', 'Username', 'oscar@globex.test', 'globex.test')))
        return 'oscar@globex.test (the recorded one) was deleted'
      return null
    },
  },
}
