/**
 * ejabberd workflows that change accounts and rosters. Each page of web admin has one form that
 * posts back to the page's own URL, the pressed submit button's `name` (with its label as value)
 * telling the action: `addnewuser` on the Users page, `chpassword` and `removeuser` on an
 * account's page, `addjid` on a roster page. ejabberd answers 200 with the page again.
 */
import type { Workflow } from '../../types'
import {
  ACCOUNT_PAGE,
  ROSTER_PAGE,
  USERS_PATH,
  accountExists,
  accountPath,
  buttonKey,
  mustPass,
  passwordIs,
  rosterOf,
  rosterPath,
} from '../keys'
import {
  answerLogin,
  openAccount,
  openAdminSignedIn,
  openHostSection,
  openRoster,
  press,
  submitted,
} from '../person'
import { HOST, USER } from '../seed'
import { postForm } from '../session'

/** Users page, "Add User": a new account zoe with the password the person typed. */
export const registerUser: Workflow = {
  id: 'register_user',
  intent: 'register a new XMPP account zoe with the password Blue-Harbor-58',
  rewordings: {
    terse: 'new jabber user zoe, password Blue-Harbor-58',
    chatty:
      'Zoe starts on Monday and needs a chat account, can you create zoe on the server with Blue-Harbor-58 as her first password?',
    withoutValue: 'create a user account on the ejabberd server',
  },
  startPath: '/admin/',
  signedIn: true,
  async play(page, app) {
    await openAdminSignedIn(page, app)
    await openHostSection(page, 'Users')
    await page.locator('#content input[name="newusername"]').fill('zoe')
    await page.locator('#content input[name="newuserpassword"]').fill('Blue-Harbor-58')
    await press(page, 'Add User')
    await page.getByRole('link', { name: `zoe@${HOST}`, exact: true }).waitFor()
  },
  key: {
    target: buttonKey(USERS_PATH, 'addnewuser', 'Add User'),
    inputs: [
      { recorded: 'zoe', changed: ['yusuf', 'xena'] },
      { recorded: 'Blue-Harbor-58', changed: ['Green-Field-31', 'Red-Canyon-74'], secret: true },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const [user, password] = ['yusuf', 'Green-Field-31']
      await postForm(app, session, USERS_PATH, [
        ['newusername', user],
        ['newuserpassword', password],
        ['addnewuser', 'Add User'],
      ])
      mustPass(
        await registerUser.key.check(app, { status: 'succeeded', result: null }, session, [
          user,
          password,
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const [user, password] = used.map(String) as [string, string]
      if (!(await accountExists(app, user))) return `there is no account ${user}@${HOST}`
      return (await passwordIs(app, user, password))
        ? null
        : `${user}@${HOST} exists but its password is not ${password}`
    },
  },
}

/**
 * Users, click carol, type the new password into the account page's Password box, "Change
 * Password". Signed out first: the person answers the browser's login prompt.
 */
export const changePassword: Workflow = {
  id: 'change_password',
  intent: "change carol's XMPP password to Spring-Rain-42",
  rewordings: {
    terse: 'set password carol Spring-Rain-42',
    chatty:
      "Carol forgot her chat password again, could you reset it to Spring-Rain-42 and I'll pass it on to her?",
    withoutValue: "reset a user's password on the chat server",
  },
  startPath: '/admin/',
  signedIn: false,
  async play(page, app) {
    await answerLogin(page, app)
    await openHostSection(page, 'Users')
    await openAccount(page, 'carol')
    await page.locator('#content input[name="password"]').fill('Spring-Rain-42')
    await press(page, 'Change Password')
    await submitted(page)
  },
  key: {
    target: buttonKey(ACCOUNT_PAGE, 'chpassword', 'Change Password'),
    inputs: [
      { recorded: 'carol', changed: ['heidi', 'ivan'] },
      { recorded: 'Spring-Rain-42', changed: ['Autumn-Leaf-17', 'Winter-Frost-93'], secret: true },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const [user, password] = ['heidi', 'Autumn-Leaf-17']
      await postForm(app, session, accountPath(user), [
        ['password', password],
        ['chpassword', 'Change Password'],
      ])
      mustPass(
        await changePassword.key.check(app, { status: 'succeeded', result: null }, session, [
          user,
          password,
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const [user, password] = used.map(String) as [string, string]
      if (!(await passwordIs(app, user, password)))
        return `${user}@${HOST}'s password is not ${password}`
      if (user !== 'carol' && (await passwordIs(app, 'carol', password)))
        return `carol's password was changed to ${password} as well`
      return (await passwordIs(app, 'admin', USER.password)) ? null : "the admin's password changed"
    },
  },
}

/**
 * Users, click mallory, "Remove User" (ejabberd answers the account's page with "Submitted"),
 * then Users again to see the account gone. The account is what the person picked.
 */
export const deleteUser: Workflow = {
  id: 'delete_user',
  intent: 'delete the XMPP account mallory',
  rewordings: {
    terse: 'remove user mallory',
    chatty:
      "Mallory left the company last week, please get rid of her account on our chat server, it shouldn't be there anymore.",
    withoutValue: 'delete a user from ejabberd',
  },
  startPath: '/admin/',
  signedIn: true,
  async play(page, app) {
    await openAdminSignedIn(page, app)
    await openHostSection(page, 'Users')
    await openAccount(page, 'mallory')
    await press(page, 'Remove User')
    await submitted(page)
    await page.locator('#navigation').getByRole('link', { name: 'Users', exact: true }).click()
    await page.getByRole('link', { name: `trent@${HOST}`, exact: true }).waitFor()
    if (await page.getByRole('link', { name: `mallory@${HOST}`, exact: true }).count())
      throw new Error('mallory is still listed after Remove User')
  },
  key: {
    target: buttonKey(ACCOUNT_PAGE, 'removeuser', 'Remove User'),
    inputs: [{ recorded: 'mallory', changed: ['olaf', 'peggy'] }],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const user = 'olaf'
      await postForm(app, session, accountPath(user), [['removeuser', 'Remove User']])
      mustPass(
        await deleteUser.key.check(app, { status: 'succeeded', result: null }, session, [user]),
      )
    },
    async check(app, _run, _session, used) {
      const user = String(used[0])
      if (await accountExists(app, user)) return `${user}@${HOST} still exists`
      // Accounts no workflow deletes: a tool that removed more than the one asked shows here.
      const gone = []
      for (const other of ['alice', 'trent'])
        if (!(await accountExists(app, other))) gone.push(other)
      return gone.length ? `${gone.join(', ')} were deleted too` : null
    },
  },
}

/**
 * Users, click alice, "View Roster", type a JID into the box under the table, "Add Jabber ID":
 * the contact is added to alice's roster (and asked for a subscription). The owner is what the
 * person picked, the JID what they typed.
 */
export const addRosterContact: Workflow = {
  id: 'add_roster_contact',
  intent: "add oscar@partner.example.org to alice's roster",
  rewordings: {
    terse: 'alice roster add oscar@partner.example.org',
    chatty:
      'Alice is working with Oscar from our partner company this month, could you put oscar@partner.example.org in her contact list for her?',
    withoutValue: "add a contact to a user's roster",
  },
  startPath: '/admin/',
  signedIn: true,
  async play(page, app) {
    await openAdminSignedIn(page, app)
    await openHostSection(page, 'Users')
    await openAccount(page, 'alice')
    await openRoster(page, 'alice')
    await page.locator('#content input[name="newjid"]').fill('oscar@partner.example.org')
    await press(page, 'Add Jabber ID')
    await page.locator('#content').getByText('oscar@partner.example.org').first().waitFor()
  },
  key: {
    target: buttonKey(ROSTER_PAGE, 'addjid', 'Add Jabber ID'),
    inputs: [
      { recorded: 'alice', changed: ['ken', 'leo'] },
      {
        recorded: 'oscar@partner.example.org',
        changed: ['rupert@partner.example.org', 'sybil@partner.example.org'],
      },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const [owner, jid] = ['ken', 'rupert@partner.example.org']
      await postForm(app, session, rosterPath(owner), [
        ['newjid', jid],
        ['addjid', 'Add Jabber ID'],
      ])
      mustPass(
        await addRosterContact.key.check(app, { status: 'succeeded', result: null }, session, [
          owner,
          jid,
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const [owner, jid] = used.map(String) as [string, string]
      if (!(await rosterOf(app, owner)).some((item) => item.jid === jid))
        return `${jid} is not in ${owner}'s roster`
      if (owner !== 'alice' && (await rosterOf(app, 'alice')).some((item) => item.jid === jid))
        return `${jid} was added to alice's roster instead or too`
      return null
    },
  },
}
