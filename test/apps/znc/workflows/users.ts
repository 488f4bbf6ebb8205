/**
 * ZNC workflows on users, all on the webadmin's Manage Users page (`listusers`), which lists every
 * user with Edit / Clone / Delete links. A user's edit page (`edituser?user=<name>`) is one big
 * form that posts every field back to `edituser`, the user named by a hidden `user` field; adding
 * posts the same form to `adduser`; deleting goes through a confirmation page (`deluser?user=`)
 * whose Yes button posts `user` to `deluser`. Every post carries the session's `_CSRF_Check`.
 */
import type { RequestKey, Workflow } from '../../types'
import {
  WEBADMIN,
  formFields,
  getPage,
  listUsers,
  mustPass,
  postForm,
  readUser,
  resultText,
  setField,
} from '../keys'
import { seedUser } from '../seed'
import { clickUserRow, logInFromTopBar, openMenu } from './person'

const get = (page: string): RequestKey => ({ method: 'GET', path: `${WEBADMIN}/${page}` })
const post = (page: string): RequestKey => ({ method: 'POST', path: `${WEBADMIN}/${page}` })

/** Users no workflow deletes: a list that holds them is the user list. */
const KEPT_USERS = ['alice', 'bob', 'carol', 'dave']

/** From the home page: Manage Users in the menu; the list of users is the answer. */
export const listUsersWorkflow: Workflow = {
  id: 'list_users',
  intent: 'list the users of my ZNC bouncer',
  rewordings: {
    terse: 'znc users',
    chatty: 'who has an account on our ZNC bouncer? can you list all the users for me?',
    withoutValue: 'show all bouncer users',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'Manage Users', 'listusers')
    await page.locator('#content tbody tr').first().waitFor()
  },
  key: {
    target: get('listusers'),
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const html = await getPage(app, session, `${WEBADMIN}/listusers`)
      mustPass(await this.check(app, { status: 'succeeded', result: html }, session, []))
    },
    async check(_app, run) {
      const text = resultText(run.result)
      const missing = KEPT_USERS.filter((u) => !text.includes(u))
      return missing.length ? `the answer does not list ${missing.join(', ')}` : null
    },
  },
}

/** Each user the network read may be called with, and the networks the seed gives them. */
const NETWORKS_OF: Record<string, string[]> = {
  alice: ['libera', 'oftc'],
  bob: ['hackint', 'libera'],
  carol: ['libera', 'rizon'],
}

/**
 * Signed out on the home page: logs in with the top bar, opens Manage Users, clicks Edit in
 * carol's row and reads the Networks table of her settings.
 */
export const userNetworks: Workflow = {
  id: 'user_networks',
  intent: 'which IRC networks does the ZNC user carol have?',
  rewordings: {
    terse: 'networks of carol',
    chatty: 'I need to know what networks carol has set up on the bouncer, can you look that up?',
    withoutValue: "list a bouncer user's IRC networks",
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await logInFromTopBar(page, app)
    await openMenu(page, 'Manage Users', 'listusers')
    await clickUserRow(page, 'carol', 'Edit')
    await page.waitForURL('**/edituser?user=carol')
    await page.locator('#content').getByRole('cell', { name: 'rizon', exact: true }).waitFor()
  },
  key: {
    target: get('edituser'),
    inputs: [{ recorded: 'carol', changed: ['bob', 'alice'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const user = 'bob'
      const html = await getPage(app, session, `${WEBADMIN}/edituser?user=${user}`)
      mustPass(await this.check(app, { status: 'succeeded', result: html }, session, [user]))
    },
    async check(_app, run, _session, used) {
      const user = String(used[0])
      const want = NETWORKS_OF[user]
      if (!want) return `no expectation for the user ${user}`
      const text = resultText(run.result)
      // Whole words: the page's time zone list holds "US/Arizona".
      const has = (name: string) => new RegExp(`\\b${name}\\b`).test(text)
      const missing = want.filter((n) => !has(n))
      if (missing.length) return `the answer does not list ${missing.join(', ')} of ${user}`
      // A network only another user has means the tool read that user's page.
      const foreign = Object.entries(NETWORKS_OF)
        .filter(([u]) => u !== user)
        .flatMap(([, nets]) => nets)
        .filter((n) => !want.includes(n) && has(n))
      return foreign.length ? `the answer lists ${foreign.join(', ')}, not ${user}'s` : null
    },
  },
}

/** The user the person creates, and what the changed runs create instead. */
const NEW_USER = { name: 'hana', nick: 'hanas', ident: 'hsato', realName: 'Hana Sato' }
const NEW_PASSWORD = 'Hana-irc-2026'

/**
 * From the home page: Manage Users, [Add], types user name, password twice, nickname, ident and
 * real name, clicks "Create and return" and waits for the new row in the list.
 */
export const addUser: Workflow = {
  id: 'add_user',
  intent: `add a ZNC user ${NEW_USER.name} with nick ${NEW_USER.nick}, ident ${NEW_USER.ident} and real name ${NEW_USER.realName}`,
  rewordings: {
    terse: `new bouncer user ${NEW_USER.name}, nick ${NEW_USER.nick}, ident ${NEW_USER.ident}, ${NEW_USER.realName}`,
    chatty: `Hana is joining us: could you create her a user "${NEW_USER.name}" on the bouncer, nick ${NEW_USER.nick}, ident ${NEW_USER.ident}, real name ${NEW_USER.realName}?`,
    withoutValue: 'create a new user on the bouncer',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'Manage Users', 'listusers')
    await page.locator('#content').getByRole('link', { name: 'Add', exact: true }).click()
    await page.waitForURL('**/adduser')
    await page.getByLabel('Username:').fill(NEW_USER.name)
    await page.getByLabel('Password:', { exact: true }).fill(NEW_PASSWORD)
    await page.getByLabel('Confirm password:').fill(NEW_PASSWORD)
    await page.getByLabel('Nickname:', { exact: true }).fill(NEW_USER.nick)
    await page.getByLabel('Ident:').fill(NEW_USER.ident)
    await page.getByLabel('Realname:').fill(NEW_USER.realName)
    await page.getByRole('button', { name: 'Create and return' }).click()
    await page.waitForURL('**/listusers')
    await page.locator('#content td', { hasText: /^hana$/ }).waitFor()
  },
  key: {
    target: post('adduser'),
    // The password is typed too; the recording seals it, so the tool asks for it at each run.
    inputs: [
      { recorded: NEW_USER.name, changed: ['ivan', 'judy'] },
      { recorded: NEW_USER.nick, changed: ['ivanp', 'judyk'] },
      { recorded: NEW_USER.ident, changed: ['ipetrov', 'jkim'] },
      { recorded: NEW_USER.realName, changed: ['Ivan Petrov', 'Judy Kim'] },
      { recorded: NEW_PASSWORD, changed: ['Ivan-Pass-51', 'Judy-Pass-62'], secret: true },
    ],
    dependencies: [get('adduser')],
    mutating: true,
    async replayByHand(app, session) {
      const used = this.inputs.map((i) => String(i.changed[0]))
      const fields = formFields(await getPage(app, session, `${WEBADMIN}/adduser`), 'adduser')
      const [name, nick, ident, realName] = used as [string, string, string, string]
      for (const [k, v] of Object.entries({ user: name, nick, ident, realname: realName }))
        setField(fields, k, v)
      setField(fields, 'password', 'Ivan-irc-2026')
      setField(fields, 'password2', 'Ivan-irc-2026')
      fields.push(['submit_return', 'Create and return'])
      const res = await postForm(app, session, 'adduser', fields)
      if (res.status !== 302) throw new Error(`adduser answered ${res.status}, not a redirect`)
      mustPass(await this.check(app, { status: 'succeeded', result: null }, session, used))
    },
    async check(app, _run, session, used) {
      const [name, nick, ident, realName] = used.map(String) as [string, string, string, string]
      const user = await readUser(app, session, name)
      if (!user) return `ZNC has no user ${name}`
      const want = { nick, ident, realName }
      for (const [k, v] of Object.entries(want))
        if (user[k as keyof typeof want] !== v)
          return `${name}'s ${k} is ${JSON.stringify(user[k as keyof typeof want])}, not ${JSON.stringify(v)}`
      // The recorded user must not have been created again on this instance.
      return (await readUser(app, session, NEW_USER.name))
        ? `the recorded user ${NEW_USER.name} was created`
        : null
    },
  },
}

const NEW_NICK = 'alice_afk'

/**
 * From the home page: Manage Users, Edit in alice's row, replaces the Nickname, clicks "Save and
 * return" and waits for the user list.
 */
export const changeNick: Workflow = {
  id: 'change_nick',
  intent: `change the nick of ZNC user alice to ${NEW_NICK}`,
  rewordings: {
    terse: `alice nick -> ${NEW_NICK}`,
    chatty: `alice is going on holiday, could you set her nickname on the bouncer to ${NEW_NICK}?`,
    withoutValue: "change a bouncer user's nickname",
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'Manage Users', 'listusers')
    await clickUserRow(page, 'alice', 'Edit')
    await page.waitForURL('**/edituser?user=alice')
    await page.getByLabel('Nickname:', { exact: true }).fill(NEW_NICK)
    await page.getByRole('button', { name: 'Save and return' }).click()
    await page.waitForURL('**/listusers')
  },
  key: {
    target: post('edituser'),
    inputs: [
      { recorded: 'alice', changed: ['bob', 'carol'] },
      { recorded: NEW_NICK, changed: ['nightowl', 'daybreak'] },
    ],
    // The edit form: the CSRF token, and every other field of the user, which the post must
    // send back unchanged (ZNC resets any field a post leaves out).
    dependencies: [get('edituser')],
    mutating: true,
    async replayByHand(app, session) {
      const used = this.inputs.map((i) => String(i.changed[0]))
      const [name, nick] = used as [string, string]
      const html = await getPage(app, session, `${WEBADMIN}/edituser?user=${name}`)
      const fields = formFields(html, 'edituser')
      setField(fields, 'nick', nick)
      fields.push(['submit_return', 'Save and return'])
      const res = await postForm(app, session, 'edituser', fields)
      if (res.status !== 302) throw new Error(`edituser answered ${res.status}, not a redirect`)
      mustPass(await this.check(app, { status: 'succeeded', result: null }, session, used))
    },
    async check(app, _run, session, used) {
      const [name, nick] = used.map(String) as [string, string]
      const user = await readUser(app, session, name)
      if (!user) return `ZNC has no user ${name}`
      if (user.nick !== nick) return `${name}'s nick is ${JSON.stringify(user.nick)}, not ${nick}`
      // The rest of the user must stay as it was: a post with another user's fields clobbers it.
      const seed = seedUser(name)
      if (user.realName !== seed.realName || user.ident !== seed.ident)
        return `${name}'s ident/real name changed to ${user.ident} / ${user.realName}`
      const alice = await readUser(app, session, 'alice')
      return alice?.nick === seedUser('alice').nick
        ? null
        : `the recorded user alice's nick changed to ${alice?.nick}`
    },
  },
}

/**
 * From the home page: Manage Users, Delete in dave's row, Yes on the confirmation page; waits
 * for the list without dave.
 */
export const deleteUser: Workflow = {
  id: 'delete_user',
  intent: 'delete the ZNC user dave',
  rewordings: {
    terse: 'remove bouncer user dave',
    chatty: 'dave left the team, please delete his account from our ZNC bouncer',
    withoutValue: 'delete a user from the bouncer',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'Manage Users', 'listusers')
    await clickUserRow(page, 'dave', 'Delete')
    await page.waitForURL('**/deluser?user=dave')
    await page.getByRole('button', { name: 'Yes' }).click()
    await page.waitForURL('**/listusers')
    await page.locator('#content td', { hasText: /^carol$/ }).waitFor()
  },
  key: {
    target: post('deluser'),
    inputs: [{ recorded: 'dave', changed: ['erin', 'frank'] }],
    // The confirmation page: its Yes form holds the CSRF token.
    dependencies: [get('deluser')],
    mutating: true,
    async replayByHand(app, session) {
      const name = 'erin'
      const html = await getPage(app, session, `${WEBADMIN}/deluser?user=${name}`)
      const res = await postForm(app, session, 'deluser', formFields(html, 'deluser'))
      if (res.status !== 302) throw new Error(`deluser answered ${res.status}, not a redirect`)
      mustPass(await this.check(app, { status: 'succeeded', result: null }, session, [name]))
    },
    async check(app, _run, session, used) {
      const name = String(used[0])
      const users = await listUsers(app, session)
      if (users.includes(name)) return `ZNC still has the user ${name}`
      return users.includes('dave') ? null : 'the recorded user dave was deleted'
    },
  },
}
