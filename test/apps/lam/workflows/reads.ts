/**
 * The reads: the Users list filtered by last name (the list's filter row is a form posted back
 * to `lists/list.php?type=user&norefresh=true` with the filter fields, `apply_filter` and the
 * sec_token), and the Groups list opened from the top menu after signing in with the login form
 * (`GET lists/list.php?type=group`, a table of every group with its members).
 */
import type { Workflow } from '../../types'
import { resultText } from '../../match'
import { getPage, ldapEntries, mustPass, page, postForm } from '../keys'
import { logIn, openList } from '../person'
import { GROUPS, USERS_SEED } from '../seed'

/** The uids whose last name is `sn` among the seeded users. */
const usersNamed = (sn: string) => USERS_SEED.filter((u) => u.sn === sn).map((u) => u.uid)

/** A list page's cells as text: tags dropped, cells apart. */
const cellsText = (result: unknown) =>
  resultText(result)
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')

/** Types the last name in the Users list's filter row and presses Enter. */
export const filterUsers: Workflow = {
  id: 'filter_users',
  intent: 'find the users whose last name is Rinaldi',
  rewordings: {
    terse: 'users with last name Rinaldi',
    chatty:
      'I need to reach somebody from the Rinaldi family on our staff, can you pull up every LDAP user with the surname Rinaldi?',
    withoutValue: 'look up users in the directory by their last name',
  },
  startPath: '/templates/lists/list.php?type=user',
  signedIn: true,
  async play(page) {
    await page.locator('table.accountlist').waitFor()
    const box = page.locator('#filtersn')
    await box.click()
    await box.pressSequentially('Rinaldi', { delay: 30 })
    await box.press('Enter')
    await page.waitForLoadState('load')
    await page.locator('table.accountlist td', { hasText: /^julia$/ }).waitFor()
    await page
      .locator('table.accountlist td', { hasText: /^amara$/ })
      .waitFor({ state: 'detached' })
  },
  key: {
    // The filter button is an image input whose value is one space.
    target: page('POST', 'lists/list.php', 'apply_filter', ' '),
    inputs: [{ recorded: 'Rinaldi', changed: ['Haddad', 'Novak'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const answer = await postForm(
        app,
        session,
        '/templates/lists/list.php?type=user&norefresh=true',
        [
          ['filtersn', 'Haddad'],
          ['apply_filter', ' '],
        ],
        '/templates/lists/list.php?type=user',
      )
      if (answer.status !== 200) throw new Error(`the filtered list answered ${answer.status}`)
      mustPass(
        await filterUsers.key.check(app, { status: 'succeeded', result: answer.text }, session, [
          'Haddad',
        ]),
      )
    },
    async check(_app, run, _session, used) {
      const sn = String(used[0])
      const text = cellsText(run.result)
      const want = usersNamed(sn)
      if (!want.length) return `no seeded user is named ${sn}`
      for (const uid of want)
        if (!text.includes(` ${uid} `)) return `the result lacks the user ${uid} (last name ${sn})`
      for (const uid of ['chiara', 'amara'])
        if (text.includes(` ${uid} `)) return `the result lists ${uid}: the filter was not ${sn}`
      return null
    },
  },
}

/** Signs in with the login form (LAM opens the Users list), then the top menu's Groups tab. */
export const listGroups: Workflow = {
  id: 'list_groups',
  intent: 'log in to LDAP Account Manager and list all the groups with their members',
  rewordings: {
    terse: 'list ldap groups',
    chatty: 'could you sign into LAM and show me every group we have and who is in each of them?',
    withoutValue: 'show me the groups in the directory',
  },
  startPath: '/templates/login.php',
  signedIn: false,
  async play(page, app) {
    await logIn(page, app)
    await openList(page, 'Groups')
    await page.locator('table.accountlist td', { hasText: /^developers$/ }).waitFor()
  },
  key: {
    target: page('GET', 'lists/list.php', 'type', 'group'),
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const text = await getPage(app, session, '/templates/lists/list.php?type=group')
      mustPass(await listGroups.key.check(app, { status: 'succeeded', result: text }, session, []))
    },
    async check(app, run) {
      // Every group in the directory now (others' tools may have added some), with its members.
      const text = cellsText(run.result)
      const groups = await ldapEntries(app, GROUPS, '(objectClass=posixGroup)', 'one')
      for (const g of groups) {
        const cn = g.attrs.cn?.[0] ?? ''
        if (!text.includes(` ${cn} `)) return `the result lacks the group ${cn}`
        for (const uid of g.attrs.memberuid ?? [])
          if (!text.includes(uid)) return `the result lacks ${uid}, a member of ${cn}`
      }
      return null
    },
  },
}
