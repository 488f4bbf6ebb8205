/**
 * Users of the database backend, under Configuration → Access Control → Users. The list searches
 * with its `q` box: a POST of `q` to `/user/list` answered by a redirect (`X-Icinga-Redirect` for
 * the page's script) to `GET /user/list?(user=*<q>*)`, the filtered list. "Add a New User" opens
 * `/user/add?backend=icingaweb2`, whose form posts `is_active`, `user_name`, `password`, `formUID`
 * and `CSRFToken` back to the same URL. A row's remove icon opens
 * `/user/remove?backend=icingaweb2&user=<name>`, a confirmation form whose Yes posts back to it.
 */
import type { Workflow } from '../../types'
import { resultText } from '../../match'
import { mustPass, TOKEN_PAGE, userNames } from '../keys'
import { linkNamed, logIn, openMenu, openTab, success } from '../person'
import { postForm, signInByHttp } from '../session'

/** The users each search term finds among the seeded users. */
const FOUND: Record<string, string[]> = {
  ali: ['alice.martin', 'alina.popescu'],
  nov: ['david.novak'],
  wal: ['erin.walsh'],
}

/** Signs in, Configuration → Access Control → Users, types "ali" in the search box, Enter. */
export const searchUsers: Workflow = {
  id: 'search_users',
  intent: "sign in to Icinga Web and search the users for 'ali'",
  rewordings: {
    terse: 'search users ali',
    chatty: "can you log into Icinga Web and find which user accounts have 'ali' in their name?",
    withoutValue: 'look up some Icinga Web users by name',
  },
  startPath: '/authentication/login',
  signedIn: false,
  async play(page, app) {
    await logIn(page, app)
    await openMenu(page, 'Access Control')
    await openTab(page, 'Users')
    const box = page.locator('#col1 input[name=q]')
    await box.waitFor()
    await page.locator('#col1 table', { hasText: 'bruno.keller' }).waitFor()
    await box.fill('ali')
    await box.press('Enter')
    await page.locator('#col1', { hasText: 'user = *ali*' }).waitFor()
    await page.locator('#col1 table', { hasText: 'alina.popescu' }).waitFor()
  },
  key: {
    target: { method: 'GET', path: '/user/list' },
    inputs: [{ recorded: 'ali', changed: ['nov', 'wal'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch('/user/list?(user=%2Anov%2A)', { session })
      mustPass(
        await searchUsers.key.check(
          app,
          { status: 'succeeded', result: await res.text() },
          session,
          ['nov'],
        ),
      )
    },
    async check(_app, run, _session, used) {
      const text = resultText(run.result)
      const want = FOUND[String(used[0])] ?? []
      const missing = want.filter((u) => !text.includes(u))
      if (!want.length || missing.length)
        return `the search for "${String(used[0])}" does not show ${missing.join(', ')}`
      if (text.includes('alina.popescu'))
        return 'the result shows alina.popescu: the recorded search ran'
      if (text.includes('bruno.keller'))
        return 'the result shows bruno.keller: the list is not filtered'
      return null
    },
  },
}

/** Configuration → Access Control → Users → Add a New User, name and password, Add. */
export const createUser: Workflow = {
  id: 'create_user',
  intent: "create an Icinga Web user 'dana.fischer' with the password 'Welcome-Dana-7'",
  rewordings: {
    terse: 'new user dana.fischer',
    chatty:
      "Dana starts on Monday, could you set up an Icinga Web login 'dana.fischer' for her with the password Welcome-Dana-7?",
    withoutValue: 'add a new user account to Icinga Web',
  },
  startPath: '/dashboard',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'Access Control')
    await openTab(page, 'Users')
    await linkNamed(page, '#col1', 'Add a New User').click()
    const form = page.locator('form[name=IcingaFormsConfigUserUserForm]')
    await form.locator('input[name=user_name]').fill('dana.fischer')
    await form.locator('input[name=password]').fill('Welcome-Dana-7')
    await form.locator('input[type=submit][value=Add]').click()
    await page.locator('#col1 table', { hasText: 'dana.fischer' }).waitFor()
  },
  key: {
    target: { method: 'POST', path: '/user/add' },
    inputs: [
      { recorded: 'dana.fischer', changed: ['ivan.petrov', 'julia.weber'] },
      { recorded: 'Welcome-Dana-7', changed: ['Welcome-Ivan-8', 'Welcome-Julia-9'], secret: true },
    ],
    dependencies: [TOKEN_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const page = '/user/add?backend=icingaweb2'
      const res = await postForm(app, session, page, 'IcingaFormsConfigUserUserForm', [
        ['is_active', '1'],
        ['user_name', 'ivan.petrov'],
        ['password', 'Welcome-Ivan-8'],
        ['btn_submit', 'Add'],
      ])
      await res.arrayBuffer()
      mustPass(
        await createUser.key.check(app, { status: 'succeeded', result: null }, session, [
          'ivan.petrov',
          'Welcome-Ivan-8',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const users = await userNames(app, session)
      const name = String(used[0])
      if (!users.includes(name)) return `there is no user "${name}"`
      if (users.includes('dana.fischer')) return 'the recorded user dana.fischer was created'
      try {
        await signInByHttp(app.origin, { name, password: String(used[1]) })
      } catch (error) {
        return `"${name}" cannot sign in with the password given: ${String(error)}`
      }
      return null
    },
  },
}

/** Signs in, Configuration → Access Control → Users, the remove icon of frank.ortiz, Yes. */
export const deleteUser: Workflow = {
  id: 'delete_user',
  intent: "sign in to Icinga Web and delete the user 'frank.ortiz'",
  rewordings: {
    terse: 'delete user frank.ortiz',
    chatty: 'Frank has left us, can you log into Icinga Web and remove his frank.ortiz account?',
    withoutValue: 'remove one of the Icinga Web users',
  },
  startPath: '/authentication/login',
  signedIn: false,
  async play(page, app) {
    await logIn(page, app)
    await openMenu(page, 'Access Control')
    await openTab(page, 'Users')
    await page.locator('#col1').getByRole('link', { name: 'Remove user frank.ortiz' }).click()
    await page.locator('#col2 input[type=submit][value=Yes]').click()
    await success(page, 'frank.ortiz')
  },
  key: {
    target: { method: 'POST', path: '/user/remove' },
    inputs: [{ recorded: 'frank.ortiz', changed: ['greta.berg', 'hugo.lind'] }],
    dependencies: [TOKEN_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const page = '/user/remove?backend=icingaweb2&user=greta.berg'
      const res = await postForm(app, session, page, 'IcingaFormsConfigUserUserForm', [
        ['btn_submit', 'Yes'],
      ])
      await res.arrayBuffer()
      mustPass(
        await deleteUser.key.check(app, { status: 'succeeded', result: null }, session, [
          'greta.berg',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const users = await userNames(app, session)
      if (users.includes(String(used[0]))) return `the user ${String(used[0])} is still there`
      if (!users.includes('frank.ortiz')) return 'the recorded user frank.ortiz was deleted'
      if (!users.includes('alice.martin')) return 'alice.martin was deleted too'
      return null
    },
  },
}
