/**
 * Groups and roles, under Configuration → Access Control. "Add a New User Group" opens
 * `/group/add?backend=icingaweb2` (its form posts `group_name` back there); a group's page
 * (`/group/show?backend=icingaweb2&group=<name>`) has "Add New Member", which opens
 * `/group/addmember?backend=icingaweb2&group=<name>`: a multiple select `user_name[]` of the
 * backend's users and a free-text `users` field, posted back there. "Create a New Role" opens
 * `/role/add`, a long form (name, parent, users, groups, a pair of grant/refuse checkboxes per
 * permission) posted back to `/role/add`; roles are kept in `roles.ini`.
 */
import type { Workflow } from '../../types'
import { fieldText, groupMembers, groupNames, mustPass, roleNames, TOKEN_PAGE } from '../keys'
import { linkNamed, openMenu, openTab, success } from '../person'
import { postForm } from '../session'
import { getText } from '../../sessionFetch'

/** Configuration → Access Control → User Groups → Add a New User Group, the name, Add. */
export const createGroup: Workflow = {
  id: 'create_group',
  intent: "create a user group called 'Network team' in Icinga Web",
  rewordings: {
    terse: 'new group Network team',
    chatty: "we're giving the network folks their own group, can you add one named 'Network team'?",
    withoutValue: 'add a new user group',
  },
  startPath: '/dashboard',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'Access Control')
    await openTab(page, 'User Groups')
    await linkNamed(page, '#col1', 'Add a New User Group').click()
    const form = page.locator('form[name=IcingaFormsConfigUserGroupUserGroupForm]')
    await form.locator('input[name=group_name]').fill('Network team')
    await form.locator('input[type=submit][value=Add]').click()
    await page.locator('#col1 table', { hasText: 'Network team' }).waitFor()
  },
  key: {
    target: { method: 'POST', path: '/group/add' },
    inputs: [{ recorded: 'Network team', changed: ['Night shift', 'Contractors'] }],
    dependencies: [TOKEN_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const page = '/group/add?backend=icingaweb2'
      const res = await postForm(app, session, page, 'IcingaFormsConfigUserGroupUserGroupForm', [
        ['group_name', 'Night shift'],
        ['btn_submit', 'Add'],
      ])
      await res.arrayBuffer()
      mustPass(
        await createGroup.key.check(app, { status: 'succeeded', result: null }, session, [
          'Night shift',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const groups = await groupNames(app, session)
      if (!groups.includes(String(used[0]))) return `there is no group "${String(used[0])}"`
      if (groups.includes('Network team')) return 'the recorded group Network team was created'
      return null
    },
  },
}

/** User Groups → Operators → Add New Member, picks bruno.keller in the list, Add. */
export const addUserToGroup: Workflow = {
  id: 'add_user_to_group',
  intent: "add the user 'bruno.keller' to the 'Operators' group in Icinga Web",
  rewordings: {
    terse: 'put bruno.keller in Operators',
    chatty: 'Bruno is joining the operators rota, can you add bruno.keller to the Operators group?',
    withoutValue: 'add a user to one of the groups',
  },
  startPath: '/dashboard',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'Access Control')
    await openTab(page, 'User Groups')
    await page
      .locator('#col1')
      .getByRole('link', { name: 'Show detailed information for user group Operators' })
      .click()
    await linkNamed(page, '#col2', 'Add New Member').click()
    const form = page.locator('form[name=IcingaFormsConfigUserGroupAddMemberForm]')
    await form.locator('select[name="user_name[]"]').selectOption('bruno.keller')
    await form.locator('input[type=submit][value=Add]').click()
    await success(page, 'bruno.keller')
  },
  key: {
    target: { method: 'POST', path: '/group/addmember' },
    inputs: [
      { recorded: 'bruno.keller', changed: ['erin.walsh', 'david.novak'] },
      { recorded: 'Operators', changed: ['Support', 'Auditors'] },
    ],
    dependencies: [TOKEN_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const page = '/group/addmember?backend=icingaweb2&group=Support'
      const res = await postForm(app, session, page, 'IcingaFormsConfigUserGroupAddMemberForm', [
        ['user_name[]', 'erin.walsh'],
        ['users', ''],
        ['btn_submit', 'Add'],
      ])
      await res.arrayBuffer()
      mustPass(
        await addUserToGroup.key.check(app, { status: 'succeeded', result: null }, session, [
          'erin.walsh',
          'Support',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const [user, group] = used.map(String) as [string, string]
      const members = await groupMembers(app, session, group)
      if (!members.includes(user)) return `${user} is not in ${group} (${members.join(', ')})`
      if ((await groupMembers(app, session, 'Operators')).includes('bruno.keller'))
        return 'the recorded member bruno.keller was added to Operators'
      return null
    },
  },
}

/** Configuration → Access Control → Roles → Create a New Role, name and group, Create Role. */
export const createRole: Workflow = {
  id: 'create_role',
  intent: "create a role 'Helpdesk' in Icinga Web for the 'Support' group",
  rewordings: {
    terse: 'new role Helpdesk for Support',
    chatty:
      "the support people need a role of their own: make one called 'Helpdesk' and give it to the Support group",
    withoutValue: 'create a new role for a group',
  },
  startPath: '/dashboard',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'Access Control')
    await openTab(page, 'Roles')
    await linkNamed(page, '#col1', 'Create a New Role').click()
    const form = page.locator('form[name=IcingaFormsSecurityRoleForm]')
    await form.locator('input[name=name]').fill('Helpdesk')
    await form.locator('textarea[name=groups]').fill('Support')
    await form.locator('input[type=submit][value="Create Role"]').click()
    await page.locator('#col1 table', { hasText: 'Helpdesk' }).waitFor()
  },
  key: {
    target: { method: 'POST', path: '/role/add' },
    inputs: [
      { recorded: 'Helpdesk', changed: ['Night operators', 'Auditing'] },
      { recorded: 'Support', changed: ['Operators', 'Auditors'] },
    ],
    dependencies: [TOKEN_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const res = await postForm(app, session, '/role/add', 'IcingaFormsSecurityRoleForm', [
        ['name', 'Night operators'],
        ['parent', ''],
        ['users', ''],
        ['groups', 'Operators'],
        ['applicationshareusers', ''],
        ['applicationsharegroups', ''],
        ['btn_submit', 'Create Role'],
      ])
      await res.arrayBuffer()
      mustPass(
        await createRole.key.check(app, { status: 'succeeded', result: null }, session, [
          'Night operators',
          'Operators',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const [role, group] = used.map(String) as [string, string]
      const roles = await roleNames(app, session)
      if (!roles.includes(role)) return `there is no role "${role}"`
      if (roles.includes('Helpdesk')) return 'the recorded role Helpdesk was created'
      const form = await getText(app, session, `/role/edit?role=${encodeURIComponent(role)}`)
      const groups = (fieldText(form, 'groups') ?? '').split(',').map((g) => g.trim())
      if (!groups.includes(group))
        return `the role "${role}" is for ${groups.join(', ')}, not ${group}`
      return null
    },
  },
}
