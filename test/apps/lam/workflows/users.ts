/**
 * The writes on users: a new user made in the account editor (names and mail on the Personal
 * tab, the user name on the Unix tab, then Save), a phone number changed on a user opened from
 * the list, and a user deleted from the list's row icon. The editor keeps the account in the PHP
 * session: every tab switch posts that tab's fields to `account/edit.php?editKey=...`, and Save
 * posts the open tab's fields with `accountContainerSaveAccount`. A delete names the user in a
 * GET of `lists/deletelink.php?DN=...` (kept in the session) and is confirmed by a post to
 * `delete.php`.
 */
import type { Workflow } from '../../types'
import {
  EDITOR_PAGE,
  SAVE_ACCOUNT,
  ldapEntries,
  ldapEntry,
  ldapValues,
  mustPass,
  page,
  postEditor,
  postForm,
} from '../keys'
import { editRow, listRow, openEditorTab, saveAccount } from '../person'
import { PEOPLE, USERS_SEED, userDn } from '../seed'

/** The new user a run asks for: first name, last name, mail, user name. */
const NEW_USERS = {
  recorded: ['Hye-jin', 'Kim', 'hyejin.kim@example.org', 'hkim'],
  changed: [
    ['Tomas', 'Herrera', 'tomas.herrera@example.org', 'therrera'],
    ['Aiko', 'Sato', 'aiko.sato@example.org', 'asato'],
  ],
}

/**
 * From the Users list: New user, first and last name and email on the Personal tab, the Unix
 * tab, the user name typed over the one LAM proposes, Save.
 */
export const createUser: Workflow = {
  id: 'create_user',
  intent: 'create a new user hkim for Hye-jin Kim with the email hyejin.kim@example.org',
  rewordings: {
    terse: 'new user hkim, Hye-jin Kim, hyejin.kim@example.org',
    chatty:
      'Hye-jin Kim starts on Monday, could you set up an LDAP account for her? User name hkim, and her email is hyejin.kim@example.org',
    withoutValue: 'add a new user account to the directory',
  },
  startPath: '/templates/lists/list.php?type=user',
  signedIn: true,
  async play(page) {
    await page.getByRole('button', { name: 'New user' }).click()
    await page.waitForURL(/account\/edit\.php/)
    await page.locator('#givenName').fill('Hye-jin')
    await page.locator('#sn').fill('Kim')
    await page.locator('#mail_0').fill('hyejin.kim@example.org')
    await openEditorTab(page, 'posixAccount')
    const uid = page.locator('#uid')
    await uid.fill('')
    await uid.pressSequentially('hkim', { delay: 30 })
    await uid.blur()
    // LAM proposes the home directory from the user name only for names it proposed itself.
    const home = page.locator('#homeDirectory')
    if ((await home.inputValue()) === '') await home.fill('/home/hkim')
    await saveAccount(page)
  },
  key: {
    target: SAVE_ACCOUNT,
    inputs: NEW_USERS.recorded.map((recorded, i) => ({
      recorded,
      changed: [NEW_USERS.changed[0]![i]!, NEW_USERS.changed[1]![i]!] as [string, string],
    })),
    dependencies: [EDITOR_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const [first, last, mail, uid] = NEW_USERS.changed[0]!
      await postEditor(app, session, '/templates/account/edit.php?type=user', [
        [
          ['accountContainerSuffix', PEOPLE],
          ['accountContainerRDN', 'cn'],
          ['givenName', first!],
          ['sn', last!],
          ['mail_0', mail!],
          ['postalAddress0', ''],
          ['registeredAddress0', ''],
          ['form_main_posixAccount', ''],
        ],
        [
          ['accountContainerSuffix', PEOPLE],
          ['accountContainerRDN', 'cn'],
          ['uid', uid!],
          ['cn_0', `${first} ${last}`],
          // Empty: LAM gives the next free number of its range.
          ['uidNumber', ''],
          ['gecos', ''],
          ['gidNumber', '10000'],
          ['homeDirectory', `/home/${uid}`],
          ['loginShell', '/bin/bash'],
          ['accountContainerSaveAccount', ''],
        ],
      ])
      mustPass(
        await createUser.key.check(
          app,
          { status: 'succeeded', result: null },
          session,
          NEW_USERS.changed[0]!,
        ),
      )
    },
    async check(app, _run, _session, used) {
      const [first, last, mail, uid] = used.map(String)
      // LAM names a new user by its common name (RDN `cn`) unless told otherwise.
      const [entry] = await ldapEntries(app, PEOPLE, `(uid=${uid})`, 'one')
      if (!entry) return `no user with uid ${uid} under ${PEOPLE}`
      const want: Record<string, string> = { givenname: first!, sn: last!, mail: mail! }
      for (const [attr, value] of Object.entries(want))
        if (!(entry.attrs[attr] ?? []).includes(value))
          return `${uid} has ${attr} ${JSON.stringify(entry.attrs[attr] ?? [])}, not ${value}`
      if (!entry.attrs.objectclass?.some((c) => c.toLowerCase() === 'posixaccount'))
        return `${uid} is not a Unix account (no posixAccount)`
      if ((await ldapEntries(app, PEOPLE, '(uid=hkim)', 'one')).length)
        return 'the recorded user hkim was created too'
      return null
    },
  },
}

/**
 * From the Users list: chiara's Edit icon (the editor opens on the Personal tab), the telephone
 * number typed over, Save.
 */
export const editPhone: Workflow = {
  id: 'edit_phone',
  intent: "change chiara's telephone number to +39 02 555 0199",
  rewordings: {
    terse: 'chiara phone +39 02 555 0199',
    chatty:
      'Chiara moved desks and her new extension is +39 02 555 0199, can you update her phone number in LDAP?',
    withoutValue: "update a user's telephone number",
  },
  startPath: '/templates/lists/list.php?type=user',
  signedIn: true,
  async play(page) {
    await editRow(page, 'chiara')
    await page.locator('#telephoneNumber_0').fill('+39 02 555 0199')
    await saveAccount(page)
  },
  key: {
    target: SAVE_ACCOUNT,
    inputs: [
      // The list's Edit link quotes the DN (`DN='uid%3Dchiara...'`); LAM strips the quotes.
      { recorded: `'${userDn('chiara')}'`, changed: [userDn('goran'), userDn('hanna')] },
      { recorded: '+39 02 555 0199', changed: ['+381 11 999 8877', '+46 31 999 6655'] },
    ],
    dependencies: [EDITOR_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const u = USERS_SEED.find((x) => x.uid === 'goran')!
      await postEditor(
        app,
        session,
        `/templates/account/edit.php?type=user&DN=${encodeURIComponent(userDn('goran'))}`,
        [
          [
            ['givenName', u.givenName],
            ['sn', u.sn],
            ['mail_0', u.mail],
            ['telephoneNumber_0', '+381 11 999 8877'],
            ['postalAddress0', ''],
            ['registeredAddress0', ''],
            ['accountContainerSaveAccount', ''],
          ],
        ],
      )
      mustPass(
        await editPhone.key.check(app, { status: 'succeeded', result: null }, session, [
          userDn('goran'),
          '+381 11 999 8877',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const [dn, phone] = used.map(String)
      const phones = await ldapValues(app, dn!, 'telephoneNumber')
      if (!phones.includes(phone!))
        return `${dn} has telephoneNumber ${JSON.stringify(phones)}, not ${phone}`
      const uid = /^uid=([^,]+)/.exec(dn!)?.[1] ?? ''
      const seeded = USERS_SEED.find((u) => u.uid === uid)
      if (seeded && !(await ldapValues(app, dn!, 'givenName')).includes(seeded.givenName))
        return `${dn} lost its first name ${seeded.givenName}`
      const chiara = await ldapValues(app, userDn('chiara'), 'telephoneNumber')
      if (chiara.includes(phone!)) return `the recorded user chiara got ${phone} too`
      return null
    },
  },
}

/** From the Users list: olga's Delete icon, then Delete on the confirmation page. */
export const deleteUser: Workflow = {
  id: 'delete_user',
  intent: 'delete the user olga',
  rewordings: {
    terse: 'rm user olga',
    chatty: 'Olga left the company last week, please remove her account from LDAP',
    withoutValue: 'delete a user account',
  },
  startPath: '/templates/lists/list.php?type=user',
  signedIn: true,
  async play(page) {
    await listRow(page, 'olga').locator('a[title="Delete"]').click()
    await page.waitForURL(/delete\.php/)
    await page.locator('#btn_delete').click()
    await page.getByText('Deletion was successful').first().waitFor()
  },
  key: {
    target: page('POST', 'delete.php', 'delete'),
    inputs: [{ recorded: `'${userDn('olga')}'`, changed: [userDn('noor'), userDn('milan')] }],
    dependencies: [page('GET', 'lists/deletelink.php')],
    mutating: true,
    async replayByHand(app, session) {
      const link = `/templates/lists/deletelink.php?type=user&DN=${encodeURIComponent(userDn('noor'))}`
      const answer = await postForm(
        app,
        session,
        '/templates/delete.php',
        [
          ['type', 'user'],
          ['delete', ''],
        ],
        link,
      )
      if (answer.status !== 200) throw new Error(`delete.php answered ${answer.status}`)
      mustPass(
        await deleteUser.key.check(app, { status: 'succeeded', result: answer.text }, session, [
          userDn('noor'),
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const dn = String(used[0])
      if (await ldapEntry(app, dn)) return `${dn} is still there`
      const left = (await ldapEntries(app, PEOPLE, '(objectClass=posixAccount)', 'one')).length
      if (left < 10) return `only ${left} users are left: more than one was deleted`
      if (!(await ldapEntry(app, userDn('amara')))) return 'amara is gone too'
      return null
    },
  },
}
