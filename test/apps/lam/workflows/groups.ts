/**
 * The writes on groups: a new Unix group made in the account editor (name and description, LAM
 * gives it the next free GID), and a user added to a group from the group's "Edit members"
 * page (a sub-page of the editor: the user picked in the list of other users and moved over,
 * Back, then Save). Every step is a post of the editor form to `account/edit.php?editKey=...`;
 * the member list lives in the session until Save writes the group's whole `memberUid`.
 */
import type { Workflow } from '../../types'
import { EDITOR_PAGE, SAVE_ACCOUNT, ldapEntries, ldapValues, mustPass, postEditor } from '../keys'
import { editRow, saveAccount } from '../person'
import { GROUPS, GROUPS_SEED, groupDn } from '../seed'

/** The group whose `cn` is `name` under ou=groups, or undefined. */
async function groupNamed(app: Parameters<typeof ldapEntries>[0], name: string) {
  return (await ldapEntries(app, GROUPS, `(cn=${name})`, 'one'))[0]
}

/** From the Groups list: New group, name and description typed, Save. */
export const createGroup: Workflow = {
  id: 'create_group',
  intent: "create a group called auditors with the description 'Internal audit team'",
  rewordings: {
    terse: "new group auditors 'Internal audit team'",
    chatty:
      "we're setting up an internal audit team, can you create an LDAP group named auditors for them? Description: Internal audit team",
    withoutValue: 'create a new group in the directory',
  },
  startPath: '/templates/lists/list.php?type=group',
  signedIn: true,
  async play(page) {
    await page.getByRole('button', { name: 'New group' }).click()
    await page.waitForURL(/account\/edit\.php/)
    await page.locator('#cn').fill('auditors')
    await page.locator('#description').fill('Internal audit team')
    await saveAccount(page)
  },
  key: {
    target: SAVE_ACCOUNT,
    inputs: [
      { recorded: 'auditors', changed: ['legal', 'facilities'] },
      { recorded: 'Internal audit team', changed: ['Legal counsel', 'Buildings and offices'] },
    ],
    dependencies: [EDITOR_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      await postEditor(app, session, '/templates/account/edit.php?type=group', [
        [
          ['accountContainerSuffix', GROUPS],
          ['accountContainerRDN', 'cn'],
          ['cn', 'legal'],
          ['description', 'Legal counsel'],
          ['accountContainerSaveAccount', ''],
        ],
      ])
      mustPass(
        await createGroup.key.check(app, { status: 'succeeded', result: null }, session, [
          'legal',
          'Legal counsel',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const [name, description] = used.map(String)
      const group = await groupNamed(app, name!)
      if (!group) return `no group ${name} under ${GROUPS}`
      if (!(group.attrs.description ?? []).includes(description!))
        return `${name} has description ${JSON.stringify(group.attrs.description ?? [])}, not ${description}`
      if (!group.attrs.gidnumber?.length) return `${name} has no gidNumber`
      if (await groupNamed(app, 'auditors')) return 'the recorded group auditors was created too'
      return null
    },
  },
}

const membersOf = (cn: string) => GROUPS_SEED.find((g) => g.cn === cn)!.members

/**
 * From the Groups list: developers' Edit icon, Edit members, kenji picked in the right-hand list
 * of users and moved into the group, Back, Save.
 */
export const addToGroup: Workflow = {
  id: 'add_to_group',
  intent: 'add kenji to the developers group',
  rewordings: {
    terse: 'kenji -> developers',
    chatty: 'Kenji is joining the dev team this sprint, can you put him in the developers group?',
    withoutValue: 'add a user to a group',
  },
  startPath: '/templates/lists/list.php?type=group',
  signedIn: true,
  async play(page) {
    await editRow(page, 'developers')
    await page.locator('#btn_form_subpage_posixGroup_user_open').click()
    await page.locator('#members_2').selectOption('kenji')
    await page.locator('input[name="members_left"]').first().click()
    await page.locator('#members_1 option[value="kenji"]').waitFor({ state: 'attached' })
    await page.getByRole('button', { name: 'Back', exact: true }).click()
    await saveAccount(page)
  },
  key: {
    target: SAVE_ACCOUNT,
    inputs: [{ recorded: 'kenji', changed: ['ivan', 'eino'] }],
    dependencies: [EDITOR_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const dev = GROUPS_SEED.find((g) => g.cn === 'developers')!
      await postEditor(
        app,
        session,
        `/templates/account/edit.php?type=group&DN=${encodeURIComponent(groupDn('developers'))}`,
        [
          [
            ['cn', dev.cn],
            ['gidNumber', String(dev.gidNumber)],
            ['description', dev.description],
            ['form_subpage_posixGroup_user_open', ''],
          ],
          [
            ['members_2[]', 'ivan'],
            ['members_left', ' '],
          ],
          [['form_subpage_posixGroup_attributes_back', '']],
          [
            ['cn', dev.cn],
            ['gidNumber', String(dev.gidNumber)],
            ['description', dev.description],
            ['accountContainerSaveAccount', ''],
          ],
        ],
      )
      mustPass(
        await addToGroup.key.check(app, { status: 'succeeded', result: null }, session, ['ivan']),
      )
    },
    async check(app, _run, _session, used) {
      const uid = String(used[0])
      const members = await ldapValues(app, groupDn('developers'), 'memberUid')
      if (!members.includes(uid))
        return `developers has members ${JSON.stringify(members)}, not ${uid}`
      for (const kept of membersOf('developers'))
        if (!members.includes(kept)) return `developers lost its member ${kept}`
      if (members.includes('kenji')) return 'the recorded member kenji was added too'
      return null
    },
  },
}
