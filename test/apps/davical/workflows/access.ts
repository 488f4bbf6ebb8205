/**
 * Groups, grants and collections, each from a principal's page: a group's "Group Members" form
 * (a multipart POST to `admin.php?action=edit&t=principal&id=<group>` with `member_id` picked from
 * a select of every principal, by id, and `savegrouprow=Add`); the "Principal Grants" form
 * (`to_principal` picked the same way, the privileges as ticked checkboxes
 * `grant_privileges[<name>]=on` that the "Read" button ticks, `savegrantrow=Create`); and "Create
 * Collection", a link to `admin.php?action=edit&t=collection&id=&user_no=<owner's user no>`
 * (which is not the principal id) whose form posts back there with the collection's path name.
 */
import type { Workflow } from '../../types'
import {
  admin,
  mustPass,
  postAdminForm,
  principalId,
  principalNamed,
  principalPage,
  tableAfter,
  PRINCIPAL_LIST,
  PRINCIPAL_PAGE,
} from '../keys'
import { message, openList, openPrincipal } from '../person'
import { PRINCIPALS } from '../seed'

/** User Functions → List Groups, clicks Sales Team, picks Alice Martin under Group Members, Add. */
export const addGroupMember: Workflow = {
  id: 'add_group_member',
  intent: 'add Alice Martin to the Sales Team group in DAViCal',
  rewordings: {
    terse: 'add Alice Martin to Sales Team',
    chatty:
      'Alice is moving over to sales, can you put her in the Sales Team group on the calendar server?',
    withoutValue: 'add someone to a group',
  },
  startPath: '/index.php',
  signedIn: true,
  async play(page) {
    await openList(page, 'List Groups')
    await openPrincipal(page, 'Sales Team')
    // The member form sits in a table row, outside its <form> in the DOM: find fields by name.
    await page.locator('select[name=member_id]').selectOption({ label: 'Alice Martin' })
    await page.locator('input[name=savegrouprow]').click()
    await message(page, 'Adding new member to this Group Principal')
  },
  key: {
    target: admin('POST', 'edit', 'principal', { field: 'savegrouprow', value: 'Add' }),
    inputs: [
      { recorded: 'Alice Martin', changed: ['Frank Ortiz', 'Grace Lee'] },
      { recorded: 'Sales Team', changed: ['Support Team', 'Engineering'] },
    ],
    dependencies: [PRINCIPAL_LIST, PRINCIPAL_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const group = await principalId(app, session, 'Support Team')
      const member = await principalId(app, session, 'Frank Ortiz')
      await postAdminForm(app, session, `/admin.php?action=edit&t=principal&id=${group}`, [
        ['id', group],
        ['member_id', member],
        ['_editor_action[editor_2]', 'insert'],
        ['savegrouprow', 'Add'],
      ])
      mustPass(
        await addGroupMember.key.check(app, { status: 'succeeded', result: null }, session, [
          'Frank Ortiz',
          'Support Team',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const [member, group] = used.map(String) as [string, string]
      const row = await principalNamed(app, session, member)
      if (!row) return `there is no principal "${member}"`
      const groups = row.memberOf.split(', ')
      if (!groups.includes(group))
        return `"${member}" is a member of "${row.memberOf}", not of ${group}`
      const alice = await principalNamed(app, session, 'Alice Martin')
      if (alice?.memberOf.split(', ').includes('Sales Team'))
        return 'Alice Martin is in Sales Team: the recorded add ran'
      return null
    },
  },
}

/** User Functions → List Users, clicks Alice Martin, grants Bob Stone "Read" under Principal Grants. */
export const grantReadAccess: Workflow = {
  id: 'grant_read_access',
  intent: "give Bob Stone read access to Alice Martin's calendars in DAViCal",
  rewordings: {
    terse: 'grant Bob Stone read on Alice Martin',
    chatty:
      "Bob is Alice's assistant now, could you let him see Alice Martin's calendars? read-only is enough",
    withoutValue: "let one user read another user's calendars",
  },
  startPath: '/index.php',
  signedIn: true,
  async play(page) {
    await openList(page, 'List Users')
    await openPrincipal(page, 'Alice Martin')
    await page.locator('select[name=to_principal]').selectOption({ label: 'Bob Stone' })
    await page.locator('#toggle_priv_grant_privileges_read').click()
    await page.locator('input[name=savegrantrow]').click()
    await message(page, 'Granting new privileges from this Principal')
  },
  key: {
    target: admin('POST', 'edit', 'principal', { field: 'savegrantrow', value: 'Create' }),
    inputs: [
      { recorded: 'Alice Martin', changed: ['Irene Walsh', 'Laura Chen'] },
      { recorded: 'Bob Stone', changed: ['Henry Moss', 'Kevin Brown'] },
    ],
    dependencies: [PRINCIPAL_LIST, PRINCIPAL_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const owner = await principalId(app, session, 'Irene Walsh')
      const grantee = await principalId(app, session, 'Henry Moss')
      await postAdminForm(app, session, `/admin.php?action=edit&t=principal&id=${owner}`, [
        ['id', owner],
        ['orig_to_id', '-1'],
        ['to_principal', grantee],
        ['grant_privileges[fake_privilege_for_input]', '0'],
        ['grant_privileges[read]', 'on'],
        ['grant_privileges[read-current-user-privilege-set]', 'on'],
        ['grant_privileges[read-free-busy]', 'on'],
        ['_editor_action[editor_2]', 'insert'],
        ['savegrantrow', 'Create'],
      ])
      mustPass(
        await grantReadAccess.key.check(app, { status: 'succeeded', result: null }, session, [
          'Irene Walsh',
          'Henry Moss',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const [owner, grantee] = used.map(String) as [string, string]
      const grants = tableAfter(
        await principalPage(app, session, await principalId(app, session, owner)),
        'Principal Grants',
      )
      const row = grants.find((cells) => cells[1] === grantee)
      if (!row) return `${owner} grants nothing to ${grantee}`
      if (!row[2]?.split(', ').includes('Read'))
        return `${owner} grants ${grantee} "${row[2] ?? ''}", which is not Read`
      const alice = tableAfter(
        await principalPage(app, session, await principalId(app, session, 'Alice Martin')),
        'Principal Grants',
      )
      if (alice.some((cells) => cells[1] === 'Bob Stone'))
        return 'Alice Martin grants Bob Stone: the recorded grant ran'
      return null
    },
  },
}

/** User Functions → List Users, clicks Alice Martin, Create Collection, types the name, Create. */
export const createCalendar: Workflow = {
  id: 'create_calendar',
  intent: "create a new calendar called 'holidays' for Alice Martin in DAViCal",
  rewordings: {
    terse: 'new calendar holidays for Alice Martin',
    chatty:
      "Alice wants a separate calendar for her time off, can you make her one named 'holidays'?",
    withoutValue: 'create a calendar for a user',
  },
  startPath: '/index.php',
  signedIn: true,
  async play(page) {
    await openList(page, 'List Users')
    await openPrincipal(page, 'Alice Martin')
    await page.getByRole('link', { name: 'Create Collection' }).click()
    await page.locator('h1', { hasText: 'Create New Collection' }).waitFor()
    await page.locator('input[name=collection_name]').fill('holidays')
    await page.getByRole('button', { name: 'Create', exact: true }).click()
    await page
      .locator('h1', { hasText: 'Collection' })
      .filter({ hasNotText: 'Create New' })
      .waitFor()
  },
  key: {
    target: admin('POST', 'edit', 'collection', { field: 'submit', value: 'Create' }),
    inputs: [
      { recorded: 'Alice Martin', changed: ['Grace Lee', 'Henry Moss'] },
      { recorded: 'holidays', changed: ['vacation', 'oncall'] },
    ],
    dependencies: [PRINCIPAL_LIST, PRINCIPAL_PAGE, admin('GET', 'edit', 'collection')],
    mutating: true,
    async replayByHand(app, session) {
      const id = await principalId(app, session, 'Grace Lee')
      const link = /href="(\/admin\.php\?action=edit&t=collection&id=&user_no=\d+)"/.exec(
        await principalPage(app, session, id),
      )
      if (!link) throw new Error("Grace Lee's page has no Create Collection link")
      await postAdminForm(app, session, link[1]!, [
        ['user_no', /user_no=(\d+)/.exec(link[1]!)![1]!],
        ['collection_name', 'vacation'],
        ['mode', 'off'],
        ['dav_displayname', ''],
        ['publicly_readable', 'off'],
        ['is_calendar', 'off'],
        ['is_calendar', 'on'],
        ['is_addressbook', 'off'],
        ['use_default_privs', 'off'],
        ['use_default_privs', 'on'],
        ['timezone', ''],
        ['schedule_transp', 'opaque'],
        ['description', ''],
        ['_editor_action[editor_1]', 'insert'],
        ['submit', 'Create'],
      ])
      mustPass(
        await createCalendar.key.check(app, { status: 'succeeded', result: null }, session, [
          'Grace Lee',
          'vacation',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const [owner, name] = used.map(String) as [string, string]
      const who = PRINCIPALS.find((p) => p.fullname === owner)
      if (!who) return `no seeded principal is called ${owner}`
      const collections = tableAfter(
        await principalPage(app, session, await principalId(app, session, owner)),
        'Principal Collections',
      )
      if (!collections.some((cells) => cells[1] === `/${who.username}/${name}/`))
        return `${owner} has no collection /${who.username}/${name}/`
      const alice = tableAfter(
        await principalPage(app, session, await principalId(app, session, 'Alice Martin')),
        'Principal Collections',
      )
      if (alice.some((cells) => cells[1] === '/alice/holidays/'))
        return 'Alice Martin has /alice/holidays/: the recorded create ran'
      return null
    },
  },
}
