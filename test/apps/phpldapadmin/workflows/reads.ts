/**
 * phpLDAPadmin workflows that read: a search by a typed filter, a look-up by uid after signing in,
 * the people listed by opening ou=people in the tree, and an LDIF export of a subtree picked in
 * the tree after signing in.
 */
import type { Workflow } from '../../types'
import { cmd, getCmd, mustPass, postCmd, resultMatches, resultText } from '../keys'
import { GROUPS, PEOPLE, PEOPLE_SEED, SUFFIX, personDn } from '../seed'
import { BODY, expandNode, logIn, openEntry, serverLink } from './person'

/** The search form's fields as the page submits them, with `filter` and the display options. */
function searchQuery(filter: string, format: string, attrs: string): Record<string, string> {
  return {
    cmd: 'query_engine',
    server_id: '1',
    query: 'none',
    format,
    showresults: 'na',
    base: SUFFIX,
    scope: 'sub',
    filter,
    display_attrs: attrs,
    orderby: '',
    size_limit: '50',
    search: 'Search',
  }
}

/** What a filter on the surname finds: that person's DN, and not the others'. */
const BY_SURNAME: Record<string, { has: string[]; lacks: string[] }> = {
  'sn=Rossi': { has: [personDn('carla')], lacks: [personDn('hiro'), personDn('farid')] },
  'sn=Tanaka': { has: [personDn('hiro')], lacks: [personDn('carla'), personDn('farid')] },
  'sn=Haddad': { has: [personDn('farid')], lacks: [personDn('carla'), personDn('hiro')] },
}

/** The server's search link, the filter typed over the default one, Search. */
export const searchByName: Workflow = {
  id: 'search_by_name',
  intent: 'search the directory with the filter sn=Rossi and show me who matches',
  rewordings: {
    terse: 'ldap search sn=Rossi',
    chatty:
      "I'm looking for everyone whose surname is Rossi in our LDAP directory, can you run the filter sn=Rossi for me?",
    withoutValue: 'search the LDAP directory with a filter',
  },
  startPath: '/index.php',
  signedIn: true,
  async play(page) {
    await serverLink(page, 'Search')
    await page.locator('#filter').fill('sn=Rossi')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.locator(BODY).getByText(personDn('carla'), { exact: true }).waitFor()
  },
  key: {
    target: {
      ...cmd('query_engine'),
      operation: [
        { field: 'cmd', value: 'query_engine' },
        { field: 'search', value: 'Search' },
      ],
    },
    inputs: [{ recorded: 'sn=Rossi', changed: ['sn=Tanaka', 'sn=Haddad'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const html = await getCmd(
        app,
        session,
        searchQuery('sn=Tanaka', 'list', 'cn, sn, uid, postalAddress, telephoneNumber'),
      )
      mustPass(
        await searchByName.key.check(app, { status: 'succeeded', result: html }, session, [
          'sn=Tanaka',
        ]),
      )
    },
    async check(_app, run, _session, used) {
      return resultMatches(run.result, used[0], BY_SURNAME)
    },
  },
}

const mailOf = (uid: string) => PEOPLE_SEED.find((p) => p.uid === uid)!.mail
/** What a uid filter finds: that person's mail, and not the others'. */
const BY_UID: Record<string, { has: string[]; lacks: string[] }> = {
  'uid=kofi': { has: [mailOf('kofi')], lacks: [mailOf('elena'), mailOf('bruno')] },
  'uid=elena': { has: [mailOf('elena')], lacks: [mailOf('kofi'), mailOf('bruno')] },
  'uid=bruno': { has: [mailOf('bruno')], lacks: [mailOf('kofi'), mailOf('elena')] },
}

/**
 * Signs in, then the search link: the table format, the filter uid=kofi, the attributes mail and
 * telephonenumber to show, Search. Lower case on purpose: the table format of 1.2.6.3 under PHP 8.2
 * dies with "Undefined array key telephoneNumber" on a camel-cased name (see NOTES.md).
 */
export const lookupByUid: Workflow = {
  id: 'lookup_by_uid',
  intent: 'log in to phpLDAPadmin and look up the user with uid kofi: I need their email and phone',
  rewordings: {
    terse: 'uid=kofi email and phone',
    chatty:
      'hey, could you sign in to the LDAP admin and find the account kofi for me? I want to know his mail address and telephone number',
    withoutValue: 'look up a user by uid in the directory',
  },
  startPath: '/index.php',
  signedIn: false,
  async play(page, app) {
    await logIn(page, app)
    await serverLink(page, 'Search')
    await page.locator('select[name="format"]').selectOption('table')
    await page.locator('#filter').fill('uid=kofi')
    await page.locator('input[name="display_attrs"]').fill('cn, mail, telephonenumber')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByText(mailOf('kofi'), { exact: true }).first().waitFor()
  },
  key: {
    target: {
      ...cmd('query_engine'),
      operation: [
        { field: 'cmd', value: 'query_engine' },
        { field: 'search', value: 'Search' },
      ],
    },
    inputs: [{ recorded: 'uid=kofi', changed: ['uid=elena', 'uid=bruno'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const html = await getCmd(
        app,
        session,
        searchQuery('uid=elena', 'table', 'cn, mail, telephonenumber'),
      )
      mustPass(
        await lookupByUid.key.check(app, { status: 'succeeded', result: html }, session, [
          'uid=elena',
        ]),
      )
    },
    async check(_app, run, _session, used) {
      return resultMatches(run.result, used[0], BY_UID)
    },
  },
}

/** People no workflow deletes or renames: every listing of ou=people shows them. */
const STAYING = ['alice', 'bruno', 'carla', 'elena', 'kofi', 'lucia']

/** From the tree: the +/- of the suffix, then of ou=people, whose people the tree then lists. */
export const listPeople: Workflow = {
  id: 'list_people',
  intent: 'list the people in ou=people of the directory',
  rewordings: {
    terse: 'ldap people list',
    chatty: "who's in the people branch of our LDAP tree right now? just list them for me",
    withoutValue: 'list the entries under the people branch',
  },
  startPath: '/index.php',
  signedIn: true,
  async play(page) {
    await expandNode(page, SUFFIX)
    await expandNode(page, PEOPLE)
    await page.locator(`#ajSID_1_nodes a.phplm[title="${personDn('oskar')}"]`).waitFor()
  },
  key: {
    target: cmd('draw_tree_node'),
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const html = await getCmd(app, session, {
        server_id: '1',
        dn: PEOPLE,
        code: '01',
        cmd: 'draw_tree_node',
        action: '1',
      })
      mustPass(await listPeople.key.check(app, { status: 'succeeded', result: html }, session, []))
    },
    async check(_app, run) {
      const text = resultText(run.result)
      const missing = STAYING.map(personDn).filter((dn) => !text.includes(dn))
      if (missing.length) return `the result lacks ${missing.join(', ')}`
      if (text.includes('cn=developers')) return 'the result lists the groups, not the people'
      return null
    },
  },
}

/** What an LDIF export of each base holds, and what it must not. */
const BY_BASE: Record<string, { has: string[]; lacks: string[] }> = {
  [GROUPS]: {
    has: [`dn: cn=developers,${GROUPS}`, `dn: cn=managers,${GROUPS}`],
    lacks: [`dn: ${personDn('alice')}`],
  },
  [PEOPLE]: {
    has: [`dn: ${personDn('alice')}`, `dn: ${personDn('kofi')}`],
    lacks: [`dn: cn=developers,${GROUPS}`],
  },
  [`cn=support,${GROUPS}`]: {
    has: [`dn: cn=support,${GROUPS}`, `member: ${personDn('farid')}`],
    lacks: [`dn: cn=developers,${GROUPS}`, `dn: ${personDn('alice')}`],
  },
}

/**
 * Signs in, opens ou=groups in the tree, its Export link, picks the scope Sub (the subtree) and
 * LDIF, Proceed: the LDIF is shown in the page.
 */
export const exportLdif: Workflow = {
  id: 'export_ldif',
  intent: 'sign in and export the ou=groups,dc=example,dc=org subtree as LDIF',
  rewordings: {
    terse: 'ldif export of ou=groups',
    chatty:
      'could you log in to phpLDAPadmin and give me an LDIF dump of the whole ou=groups,dc=example,dc=org branch? I want a backup of the groups',
    withoutValue: 'export a subtree of the directory as LDIF',
  },
  startPath: '/index.php',
  signedIn: false,
  async play(page, app) {
    await logIn(page, app)
    await expandNode(page, SUFFIX)
    await openEntry(page, GROUPS)
    await page.locator(BODY).getByRole('link', { name: 'Export', exact: true }).click()
    await page.locator('#export_form').waitFor()
    await page.locator('#sub').check()
    await page.locator('#exporter_id_LDIF').check()
    await page.getByRole('button', { name: 'Proceed >>' }).click()
    await page.getByText(`dn: cn=managers,${GROUPS}`).first().waitFor()
  },
  key: {
    target: cmd('export', 'POST'),
    inputs: [{ recorded: GROUPS, changed: [PEOPLE, `cn=support,${GROUPS}`] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const answer = await postCmd(app, session, [
        ['cmd', 'export'],
        ['server_id', '1'],
        ['dn', PEOPLE],
        ['scope', 'sub'],
        ['filter', '(objectClass=*)'],
        ['attributes', '*'],
        ['exporter_id', 'LDIF'],
        ['format', 'unix'],
        ['target', 'Proceed >>'],
      ])
      if (answer.status !== 200) throw new Error(`export answered ${answer.status}`)
      mustPass(
        await exportLdif.key.check(app, { status: 'succeeded', result: answer.text }, session, [
          PEOPLE,
        ]),
      )
    },
    async check(_app, run, _session, used) {
      return resultMatches(run.result, used[0], BY_BASE)
    },
  },
}
