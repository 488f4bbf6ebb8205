/**
 * Principals: create a person with the "Create Principal" form (a multipart POST of the whole
 * form to `admin.php?action=edit&t=principal`, with the page's `csrf_token` and `submit=Create`),
 * change a person's email on their page (the same form posted back to
 * `admin.php?action=edit&t=principal&id=N` with `submit=Apply Changes`), and delete a person:
 * the page's "Delete Principal" link (`GET ...&subaction=delete_principal&id=N`) answers with a
 * confirmation link that adds `confirm=<hash>` (a hash DAViCal keeps in its session), and only
 * that second GET deletes.
 */
import type { Workflow } from '../../types'
import {
  admin,
  allPrincipals,
  mustPass,
  postAdminForm,
  principalId,
  principalNamed,
  PRINCIPAL_LIST,
  PRINCIPAL_PAGE,
} from '../keys'
import { message, openCreatePrincipal, openList, openPrincipal } from '../person'
import { principalFields, TYPE } from '../seed'
import { signInByHttp } from '../session'

/** User Functions → Create Principal, fills the form for a person, Create. */
export const createUser: Workflow = {
  id: 'create_user',
  intent:
    "create a DAViCal user 'erin' for Erin Cole, email erin@example.org, password Erin-Cal-2026",
  rewordings: {
    terse: 'new user erin, Erin Cole, erin@example.org, password Erin-Cal-2026',
    chatty:
      'Erin Cole starts on Monday, can you give her a calendar account? username erin, her email is erin@example.org and set the password to Erin-Cal-2026',
    withoutValue: 'add a new user account to the calendar server',
  },
  startPath: '/index.php',
  signedIn: true,
  async play(page) {
    await openCreatePrincipal(page)
    await page.locator('input[name=xxxxusername]').fill('erin')
    await page.locator('input[name=newpass1]').fill('Erin-Cal-2026')
    await page.locator('input[name=newpass2]').fill('Erin-Cal-2026')
    await page.locator('input[name=fullname]').fill('Erin Cole')
    await page.locator('input[name=email]').fill('erin@example.org')
    await page.locator('select[name=type_id]').selectOption({ label: 'Person' })
    await page.getByRole('button', { name: 'Create', exact: true }).click()
    await message(page, 'Creating new Principal record.')
    await page.locator('h1', { hasText: 'Principal: Erin Cole' }).waitFor()
  },
  key: {
    target: admin('POST', 'edit', 'principal', { field: 'submit', value: 'Create' }),
    // The password is typed too, but the recording redacts it (`[sitecall:secret]`): no recorded
    // value to call with, so the check does not sign the new user in.
    inputs: [
      { recorded: 'erin', changed: ['paula', 'quinn'] },
      { recorded: 'Erin Cole', changed: ['Paula Grant', 'Quinn Hale'] },
      { recorded: 'erin@example.org', changed: ['paula@example.org', 'quinn@example.org'] },
      { recorded: 'Erin-Cal-2026', changed: ['Paula-Cal-2027', 'Quinn-Cal-2028'], secret: true },
    ],
    dependencies: [PRINCIPAL_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const p = {
        username: 'paula',
        fullname: 'Paula Grant',
        email: 'paula@example.org',
        type: TYPE.person,
      }
      const path = '/admin.php?action=edit&t=principal'
      const fields = principalFields(p, 'Paula-Cal-2026', '').filter(([k]) => k !== 'csrf_token')
      await postAdminForm(app, session, path, fields)
      mustPass(
        await createUser.key.check(app, { status: 'succeeded', result: null }, session, [
          'paula',
          'Paula Grant',
          'paula@example.org',
        ]),
      )
      // By hand the password is known: the new user signs in with it.
      await signInByHttp(app.origin, { name: 'paula', password: 'Paula-Cal-2026' })
    },
    async check(app, _run, session, used) {
      const [username, fullname, email] = used.map(String) as [string, string, string]
      const rows = await allPrincipals(app, session)
      const row = rows.find((r) => r.username === username)
      if (!row) return `there is no principal "${username}"`
      if (row.fullname !== fullname)
        return `"${username}" is named "${row.fullname}", not "${fullname}"`
      if (row.email !== email) return `"${username}" has the email "${row.email}", not "${email}"`
      if (rows.some((r) => r.username === 'erin')) return 'the recorded user erin was created'
      return null
    },
  },
}

/** User Functions → List Users, clicks Carol Diaz, changes the email, Apply Changes. */
export const changeUserEmail: Workflow = {
  id: 'change_user_email',
  intent: "change Carol Diaz's email address in DAViCal to carol.diaz@example.com",
  rewordings: {
    terse: 'Carol Diaz email -> carol.diaz@example.com',
    chatty:
      'Carol got a new mail address, carol.diaz@example.com, could you update it on her calendar account?',
    withoutValue: "update a user's email address",
  },
  startPath: '/index.php',
  signedIn: true,
  async play(page) {
    await openList(page, 'List Users')
    await openPrincipal(page, 'Carol Diaz')
    await page.locator('input[name=email]').fill('carol.diaz@example.com')
    await page.getByRole('button', { name: 'Apply Changes' }).click()
    await message(page, 'Updating Principal record.')
  },
  key: {
    target: admin('POST', 'edit', 'principal', { field: 'submit', value: 'Apply Changes' }),
    inputs: [
      { recorded: 'Carol Diaz', changed: ['Laura Chen', 'Mike Ross'] },
      {
        recorded: 'carol.diaz@example.com',
        changed: ['laura.chen@example.com', 'mike.ross@example.com'],
      },
    ],
    dependencies: [PRINCIPAL_LIST, PRINCIPAL_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const id = await principalId(app, session, 'Laura Chen')
      await postAdminForm(app, session, `/admin.php?action=edit&t=principal&id=${id}`, [
        ['principal_id', id],
        ['xxxxusername', 'laura'],
        ['newpass1', '@@@@@@@@@@'],
        ['newpass2', '@@@@@@@@@@'],
        ['fullname', 'Laura Chen'],
        ['email', 'laura.chen@example.com'],
        ['locale', ''],
        ['date_format_type', 'E'],
        ['type_id', '1'],
        ['is_admin', 'off'],
        ['user_active', 'off'],
        ['user_active', 'on'],
        ['_editor_action[editor_1]', 'update'],
        ['submit', 'Apply Changes'],
      ])
      mustPass(
        await changeUserEmail.key.check(app, { status: 'succeeded', result: null }, session, [
          'Laura Chen',
          'laura.chen@example.com',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const rows = await allPrincipals(app, session)
      const row = rows.find((r) => r.fullname === String(used[0]))
      if (!row) return `there is no principal "${String(used[0])}" any more`
      if (row.email !== String(used[1]))
        return `"${row.fullname}" has the email "${row.email}", not "${String(used[1])}"`
      const carol = rows.find((r) => r.fullname === 'Carol Diaz')
      if (carol?.email !== 'carol@example.org')
        return "Carol Diaz's email changed: the recorded edit ran"
      return null
    },
  },
}

/** User Functions → List Users, clicks Dave Kim, Delete Principal, confirms. */
export const deleteUser: Workflow = {
  id: 'delete_user',
  intent: 'delete the user Dave Kim from DAViCal',
  rewordings: {
    terse: 'delete user Dave Kim',
    chatty: 'Dave Kim has left the company, please remove his calendar account',
    withoutValue: 'remove one of the users',
  },
  startPath: '/index.php',
  signedIn: true,
  async play(page) {
    await openList(page, 'List Users')
    await openPrincipal(page, 'Dave Kim')
    await page.getByRole('link', { name: 'Delete Principal' }).click()
    await message(page, 'Please confirm deletion of the principal')
    await page.getByRole('link', { name: 'Confirm Deletion of the Principal' }).click()
    await message(page, 'Principal deleted.')
  },
  key: {
    target: admin('GET', 'edit', 'principal', { field: 'subaction', value: 'delete_principal' }),
    inputs: [{ recorded: 'Dave Kim', changed: ['Nina Patel', 'Oscar Reed'] }],
    dependencies: [
      PRINCIPAL_LIST,
      admin('GET', 'edit', 'principal', { field: 'subaction', value: 'delete_principal' }),
    ],
    mutating: true,
    async replayByHand(app, session) {
      const id = await principalId(app, session, 'Nina Patel')
      const ask = `/admin.php?action=edit&t=principal&subaction=delete_principal&id=${id}`
      const html = await (await app.fetch(ask, { session })).text()
      const link = /href="([^"]*&confirm=[^"]*)"/.exec(html)
      if (!link) throw new Error('the delete page holds no confirmation link')
      const res = await app.fetch(link[1]!.replace(/&amp;/g, '&'), { session })
      const answer = await res.text()
      if (!answer.includes('Principal deleted.'))
        throw new Error('DAViCal did not delete Nina Patel')
      mustPass(
        await deleteUser.key.check(app, { status: 'succeeded', result: null }, session, [
          'Nina Patel',
        ]),
      )
    },
    async check(app, _run, session, used) {
      if (await principalNamed(app, session, String(used[0])))
        return `"${String(used[0])}" is still there`
      if (!(await principalNamed(app, session, 'Dave Kim')))
        return 'the recorded user Dave Kim was deleted'
      if (!(await principalNamed(app, session, 'Alice Martin')))
        return 'Alice Martin was deleted too'
      return null
    },
  },
}
