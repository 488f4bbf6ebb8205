/**
 * phpLDAPadmin workflows that write: a person created from the address-book template, a phone
 * number changed on an entry picked in the tree, a user added to a group from the group's member
 * picker, and an entry picked in the tree deleted. Edits and creations go through a confirm page
 * whose form the person commits.
 */
import type { Workflow } from '../../types'
import { cmd, ldapEntries, ldapEntry, ldapValues, mustPass, postCmd } from '../keys'
import { PEOPLE, PEOPLE_SEED, SUFFIX, groupDn, personDn } from '../seed'
import { BODY, expandNode, pickInTree } from './person'

const DEVELOPERS = groupDn('developers')

/** The creation a changed run asks for: the person's first and last name, mail and phone. */
const NEW_PEOPLE = {
  recorded: ['Katherine', 'Johnson', 'katherine.johnson@example.org', '+1 757 555 0101'],
  changed: [
    ['Dorothy', 'Vaughan', 'dorothy.vaughan@example.org', '+1 757 555 0102'],
    ['Mary', 'Jackson', 'mary.jackson@example.org', '+1 757 555 0103'],
  ],
}

/**
 * From the tree: ou=people's "Create new entry here", the template "Generic: Address Book
 * Entry", first and last name (the page fills the common name from them), email and work phone
 * typed, Create Object, then Commit on the confirm page.
 */
export const createPerson: Workflow = {
  id: 'create_person',
  intent:
    'create a new person Katherine Johnson in ou=people with email katherine.johnson@example.org and phone +1 757 555 0101',
  rewordings: {
    terse: 'new ldap person Katherine Johnson, katherine.johnson@example.org, +1 757 555 0101',
    chatty:
      "we've got a new colleague, Katherine Johnson. Can you add her to the people branch of the directory? Her email is katherine.johnson@example.org and her work phone is +1 757 555 0101",
    withoutValue: 'add a new person to the people branch of the directory',
  },
  startPath: '/index.php',
  signedIn: true,
  async play(page) {
    await expandNode(page, SUFFIX)
    await expandNode(page, PEOPLE)
    await page
      .locator(
        `#ajSID_1_nodes a[title="Create new entry here"][href*="container=${encodeURIComponent(PEOPLE)}"]`,
      )
      .first()
      .click()
    await page.getByText('Generic: Address Book Entry').click()
    await page.locator('#new_values_givenname_0').fill('Katherine')
    await page.locator('#new_values_sn_0').fill('Johnson')
    // The template fills the common name when the last name field loses focus.
    await page.locator('#new_values_sn_0').blur()
    await page.locator('#new_values_mail_0').fill('katherine.johnson@example.org')
    await page.locator('#new_values_telephonenumber_0').fill('+1 757 555 0101')
    await page.getByRole('button', { name: 'Create Object' }).click()
    await page.getByRole('button', { name: 'Commit' }).click()
    await page.getByText('Creation successful!').waitFor()
    await page.waitForLoadState('networkidle')
  },
  key: {
    target: cmd('create', 'POST'),
    inputs: NEW_PEOPLE.recorded.map((recorded, i) => ({
      recorded,
      changed: [NEW_PEOPLE.changed[0]![i]!, NEW_PEOPLE.changed[1]![i]!] as [string, string],
    })),
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const [first, last, mail, phone] = NEW_PEOPLE.changed[0]!
      const answer = await postCmd(app, session, [
        ['cmd', 'create'],
        ['server_id', '1'],
        ['container', PEOPLE],
        ['template', 'inetOrgPerson:13'],
        ['rdn_attribute[]', 'cn'],
        ['new_values[givenname][0]', first!],
        ['new_values[sn][0]', last!],
        ['new_values[cn][0]', `${first} ${last}`],
        ['new_values[telephonenumber][0]', phone!],
        ['new_values[mail][0]', mail!],
        ['new_values[objectclass][0]', 'inetOrgPerson'],
        ['meth', 'ajax'],
      ])
      if (answer.status >= 400) throw new Error(`create answered ${answer.status}`)
      mustPass(
        await createPerson.key.check(
          app,
          { status: 'succeeded', result: answer.text },
          session,
          NEW_PEOPLE.changed[0]!,
        ),
      )
    },
    async check(app, _run, _session, used) {
      const [first, last, mail, phone] = used.map(String)
      const entry = await ldapEntry(app, `cn=${first} ${last},${PEOPLE}`)
      if (!entry) return `no entry cn=${first} ${last} under ${PEOPLE}`
      const want: Record<string, string> = {
        givenname: first!,
        sn: last!,
        mail: mail!,
        telephonenumber: phone!,
      }
      for (const [attr, value] of Object.entries(want))
        if (!(entry.attrs[attr] ?? []).includes(value))
          return `cn=${first} ${last} has ${attr} ${JSON.stringify(entry.attrs[attr] ?? [])}, not ${value}`
      if (await ldapEntry(app, `cn=Katherine Johnson,${PEOPLE}`))
        return 'the recorded person Katherine Johnson was created too'
      return null
    },
  },
}

const phoneOf = (uid: string) => PEOPLE_SEED.find((p) => p.uid === uid)!.phone

/**
 * From the tree: the suffix, ou=people, the entry uid=carla clicked; her Telephone field changed,
 * Update Object, then Update Object again on the page that shows the old and new values.
 */
export const editPhone: Workflow = {
  id: 'edit_phone',
  intent:
    'change the telephone number of uid=carla,ou=people,dc=example,dc=org to +39 06 1234 5678',
  rewordings: {
    terse: 'carla phone -> +39 06 1234 5678',
    chatty:
      'Carla got a new desk phone, could you update her entry (uid=carla,ou=people,dc=example,dc=org) so the telephone number says +39 06 1234 5678?',
    withoutValue: "change a person's telephone number in the directory",
  },
  startPath: '/index.php',
  signedIn: true,
  async play(page) {
    await pickInTree(page, [SUFFIX, PEOPLE], personDn('carla'))
    await page.locator('#new_values_telephonenumber_0').fill('+39 06 1234 5678')
    await page.locator('#entry_form').getByRole('button', { name: 'Update Object' }).click()
    await page.locator('#update_form').getByRole('button', { name: 'Update Object' }).click()
    await page
      .locator(`${BODY} h3.subtitle`)
      .filter({ hasText: personDn('carla') })
      .waitFor()
    await page.locator('#new_values_telephonenumber_0[value="+39 06 1234 5678"]').waitFor()
  },
  key: {
    target: cmd('update', 'POST'),
    inputs: [
      { recorded: personDn('carla'), changed: [personDn('jonas'), personDn('lucia')] },
      { recorded: '+39 06 1234 5678', changed: ['+47 22 99 88 77', '+54 11 4444 3333'] },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const answer = await postCmd(app, session, [
        ['cmd', 'update'],
        ['server_id', '1'],
        ['dn', personDn('jonas')],
        ['new_values[telephonenumber][0]', '+47 22 99 88 77'],
      ])
      if (answer.status !== 302 || !answer.location.includes('modified_attrs'))
        throw new Error(
          `update answered ${answer.status} ${answer.location}: ${answer.text.slice(0, 200)}`,
        )
      mustPass(
        await editPhone.key.check(app, { status: 'succeeded', result: null }, session, [
          personDn('jonas'),
          '+47 22 99 88 77',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const [dn, phone] = used.map(String)
      const phones = await ldapValues(app, dn!, 'telephoneNumber')
      if (!phones.includes(phone!))
        return `${dn} has telephoneNumber ${JSON.stringify(phones)}, not ${phone}`
      const carla = await ldapValues(app, personDn('carla'), 'telephoneNumber')
      if (JSON.stringify(carla) !== JSON.stringify([phoneOf('carla')]))
        return `the recorded entry uid=carla was changed too (${JSON.stringify(carla)})`
      return null
    },
  },
}

/**
 * From the tree: ou=groups, the group cn=developers clicked, its "modify group members" link,
 * greta picked in the list of available members, Add selected, Save changes, then Update Object
 * on the confirm page. phpLDAPadmin posts the whole new member list.
 */
export const addToGroup: Workflow = {
  id: 'add_to_group',
  intent: 'add uid=greta,ou=people,dc=example,dc=org to the developers group',
  rewordings: {
    terse: 'greta -> developers group',
    chatty:
      'Greta just joined the dev team, can you put her (uid=greta,ou=people,dc=example,dc=org) into the developers group in LDAP?',
    withoutValue: 'add a user to the developers group',
  },
  startPath: '/index.php',
  signedIn: true,
  async play(page) {
    await pickInTree(page, [SUFFIX, `ou=groups,${SUFFIX}`], DEVELOPERS)
    await page.locator(BODY).getByText('modify group members').click()
    await page.locator('select[name="notmembers"]').selectOption(personDn('greta'))
    await page.getByRole('button', { name: 'Add selected >>' }).click()
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.locator('#update_form').getByRole('button', { name: 'Update Object' }).click()
    await page
      .locator(`${BODY} input[value="${personDn('greta')}"]`)
      .first()
      .waitFor()
  },
  key: {
    target: cmd('update', 'POST'),
    inputs: [{ recorded: personDn('greta'), changed: [personDn('hiro'), personDn('ines')] }],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const answer = await postCmd(app, session, [
        ['cmd', 'update'],
        ['server_id', '1'],
        ['dn', DEVELOPERS],
        ['new_values[member][0]', personDn('alice')],
        ['new_values[member][1]', personDn('dmitri')],
        ['new_values[member][2]', personDn('hiro')],
      ])
      if (answer.status !== 302 || !answer.location.includes('modified_attrs'))
        throw new Error(
          `update answered ${answer.status} ${answer.location}: ${answer.text.slice(0, 200)}`,
        )
      mustPass(
        await addToGroup.key.check(app, { status: 'succeeded', result: null }, session, [
          personDn('hiro'),
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const dn = String(used[0])
      const members = await ldapValues(app, DEVELOPERS, 'member')
      if (!members.includes(dn))
        return `developers has no member ${dn} (${JSON.stringify(members)})`
      for (const stays of ['alice', 'dmitri'].map(personDn))
        if (!members.includes(stays)) return `developers lost its member ${stays}`
      if (members.includes(personDn('greta'))) return 'the recorded member greta was added too'
      return null
    },
  },
}

/**
 * From the tree: the suffix, ou=people, the entry uid=oskar clicked, "Delete this entry", then
 * Delete on the page that asks to confirm.
 */
export const deletePerson: Workflow = {
  id: 'delete_person',
  intent: 'delete the entry uid=oskar,ou=people,dc=example,dc=org from the directory',
  rewordings: {
    terse: 'delete uid=oskar',
    chatty:
      'Oskar left the company last week, please remove his LDAP entry uid=oskar,ou=people,dc=example,dc=org',
    withoutValue: 'delete a person from the directory',
  },
  startPath: '/index.php',
  signedIn: true,
  async play(page) {
    await pickInTree(page, [SUFFIX, PEOPLE], personDn('oskar'))
    await page.locator(BODY).getByRole('link', { name: 'Delete this entry' }).click()
    await page.locator('#delete_form').getByRole('button', { name: 'Delete' }).click()
    await page.getByText(`Successfully deleted DN`).waitFor()
    await page.waitForLoadState('networkidle')
  },
  key: {
    target: cmd('delete', 'POST'),
    inputs: [{ recorded: personDn('oskar'), changed: [personDn('nadia'), personDn('mateo')] }],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const answer = await postCmd(app, session, [
        ['cmd', 'delete'],
        ['server_id', '1'],
        ['dn', personDn('nadia')],
        ['meth', 'ajax'],
      ])
      if (answer.status >= 400) throw new Error(`delete answered ${answer.status}`)
      mustPass(
        await deletePerson.key.check(app, { status: 'succeeded', result: answer.text }, session, [
          personDn('nadia'),
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const dn = String(used[0])
      if (await ldapEntry(app, dn)) return `${dn} still exists`
      if (!(await ldapEntry(app, personDn('oskar'))))
        return 'the recorded entry uid=oskar was deleted too'
      const people = await ldapEntries(app, PEOPLE, '(objectClass=inetOrgPerson)', 'one')
      // Fifteen seeded, minus the one or two deletions the runs asked for, plus creations.
      const seeded = people.filter((p) => PEOPLE_SEED.some((s) => personDn(s.uid) === p.dn))
      if (seeded.length < PEOPLE_SEED.length - 2)
        return `too many people were deleted (${seeded.length} left)`
      return null
    },
  },
}

/** What each rename asks for: the group picked and the new RDN typed. */
const RENAMES = {
  recorded: [groupDn('support'), 'cn=helpdesk'],
  changed: [
    [groupDn('designers'), 'cn=ux-team'],
    [groupDn('managers'), 'cn=leads'],
  ],
}

/**
 * From the tree: ou=groups, the group cn=support clicked, its Rename link, the new RDN typed over
 * the old one, Rename. The form posts to `cmd.php?cmd=rename` (the command in the query) with the
 * entry's DN URL-encoded once more inside the form body.
 */
export const renameGroup: Workflow = {
  id: 'rename_group',
  intent: 'rename the group cn=support,ou=groups,dc=example,dc=org to cn=helpdesk',
  rewordings: {
    terse: 'rename support group to helpdesk',
    chatty:
      'the support team is called helpdesk now, could you rename their LDAP group cn=support,ou=groups,dc=example,dc=org to cn=helpdesk?',
    withoutValue: 'rename a group in the directory',
  },
  startPath: '/index.php',
  signedIn: true,
  async play(page) {
    await pickInTree(page, [SUFFIX, `ou=groups,${SUFFIX}`], groupDn('support'))
    await page.locator(BODY).getByRole('link', { name: 'Rename', exact: true }).click()
    await page.locator('input[name="new_rdn"]').fill('cn=helpdesk')
    await page.getByRole('button', { name: 'Rename', exact: true }).click()
    await page.getByText('Rename successful!').waitFor()
    await page.waitForLoadState('networkidle')
  },
  key: {
    target: cmd('rename', 'POST'),
    inputs: RENAMES.recorded.map((recorded, i) => ({
      recorded,
      changed: [RENAMES.changed[0]![i]!, RENAMES.changed[1]![i]!] as [string, string],
    })),
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const [dn, rdn] = RENAMES.changed[0]!
      const res = await app.fetch('/cmd.php?cmd=rename', {
        method: 'POST',
        session,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          server_id: '1',
          dn: encodeURIComponent(dn!),
          template: 'none',
          new_rdn: rdn!,
        }),
      })
      await res.arrayBuffer()
      if (res.status >= 400) throw new Error(`rename answered ${res.status}`)
      mustPass(
        await renameGroup.key.check(
          app,
          { status: 'succeeded', result: null },
          session,
          RENAMES.changed[0]!,
        ),
      )
    },
    async check(app, _run, _session, used) {
      const [dn, rdn] = used.map(String)
      const renamed = `${rdn},ou=groups,${SUFFIX}`
      if (!(await ldapEntry(app, renamed))) return `no entry ${renamed}`
      if (await ldapEntry(app, dn!)) return `${dn} still exists under its old name`
      if (await ldapEntry(app, `cn=helpdesk,ou=groups,${SUFFIX}`))
        return 'the recorded group support was renamed to helpdesk too'
      return null
    },
  },
}
