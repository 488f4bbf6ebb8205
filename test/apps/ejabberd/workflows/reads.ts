/**
 * ejabberd workflows that only read: the host's Users page (every account), and one account's
 * roster, reached by clicking the account in that list and then "View Roster".
 */
import type { Workflow } from '../../types'
import { ROSTER_PAGE, USERS_PAGE, mustPass, resultText, rosterPath, usersPath } from '../keys'
import { openAccount, openAdminSignedIn, openHostSection, openRoster } from '../person'
import { ACCOUNTS, HOST, OTHER_HOSTS, ROSTERS } from '../seed'
import { getText } from '../session'

/**
 * Virtual Hosts, the host, Users: the page lists every account of the host with its offline
 * messages and last activity. The host is what the person picked among the server's three.
 */
export const listUsers: Workflow = {
  id: 'list_users',
  intent: 'list the user accounts on the chat.example.test XMPP server',
  rewordings: {
    terse: 'ejabberd users',
    chatty:
      "I'm doing the yearly account review, could you pull up every account registered on our chat server?",
    withoutValue: 'who has an account on the XMPP server?',
  },
  startPath: '/admin/',
  signedIn: true,
  async play(page, app) {
    await openAdminSignedIn(page, app)
    await openHostSection(page, 'Users')
    await page.getByRole('link', { name: `trent@${HOST}`, exact: true }).waitFor()
  },
  key: {
    target: { method: 'GET', path: USERS_PAGE },
    inputs: [{ recorded: HOST, changed: [OTHER_HOSTS[0]!.host, OTHER_HOSTS[1]!.host] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const host = OTHER_HOSTS[0]!.host
      const html = await getText(app, session, usersPath(host))
      mustPass(
        await listUsers.key.check(app, { status: 'succeeded', result: html }, session, [host]),
      )
    },
    async check(_app, run, _session, used) {
      const host = String(used[0])
      const text = resultText(run.result)
      const seeded = (h: string): string[] =>
        h === HOST
          ? // The accounts the writes of this app leave alone (those are deleted or added later).
            ACCOUNTS.map((a) => a.user).filter((u) => !/^(mallory|olaf|peggy)$/.test(u))
          : (OTHER_HOSTS.find((o) => o.host === h)?.users ?? [])
      const wanted = seeded(host).map((u) => `${u}@${host}`)
      if (!wanted.length) return `${host} is not a seeded host`
      const missing = wanted.filter((jid) => !text.includes(jid))
      if (missing.length) return `the answer does not list ${missing.join(', ')}`
      const others = [HOST, ...OTHER_HOSTS.map((o) => o.host)]
        .filter((h) => h !== host)
        .flatMap((h) => seeded(h).map((u) => `${u}@${h}`))
        .filter((jid) => text.includes(jid))
      return others.length ? `the answer lists other hosts' accounts ${others.join(', ')}` : null
    },
  },
}

/** The contacts of `owner`'s seeded roster that `text` does not name. */
function missingContacts(owner: string, text: string): string[] {
  return (ROSTERS[owner] ?? []).map((c) => c.jid).filter((jid) => !text.includes(jid))
}

/**
 * Users, click dave, "View Roster": the roster's table (each contact's JID, nickname,
 * subscription and groups). The account is what the person picked.
 */
export const userRoster: Workflow = {
  id: 'user_roster',
  intent: "show dave's contact list on the XMPP server",
  rewordings: {
    terse: 'roster dave',
    chatty:
      'Dave says some of his contacts vanished from his chat app, can you open his roster in the ejabberd admin so I can see who is on it?',
    withoutValue: "show a user's roster in ejabberd",
  },
  startPath: '/admin/',
  signedIn: true,
  async play(page, app) {
    await openAdminSignedIn(page, app)
    await openHostSection(page, 'Users')
    await openAccount(page, 'dave')
    await openRoster(page, 'dave')
    await page
      .locator('#content')
      .getByRole('link', { name: `bob@${HOST}` })
      .waitFor()
  },
  key: {
    target: { method: 'GET', path: ROSTER_PAGE },
    inputs: [{ recorded: 'dave', changed: ['erin', 'frank'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const owner = 'erin'
      const html = await getText(app, session, rosterPath(owner))
      mustPass(
        await userRoster.key.check(app, { status: 'succeeded', result: html }, session, [owner]),
      )
    },
    async check(_app, run, _session, used) {
      const owner = String(used[0])
      const text = resultText(run.result)
      if (!text.includes(`Roster of ${owner}@${HOST}`)) return `the answer is not ${owner}'s roster`
      const missing = missingContacts(owner, text)
      if (missing.length)
        return `the answer does not list ${owner}'s contacts ${missing.join(', ')}`
      const others = ['dave', 'erin', 'frank']
        .filter((o) => o !== owner)
        .flatMap((o) => (ROSTERS[o] ?? []).map((c) => c.jid))
        .filter((jid) => text.includes(jid))
      return others.length ? `the answer lists other rosters' contacts ${others.join(', ')}` : null
    },
  },
}
