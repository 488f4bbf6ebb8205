/**
 * The reads: a list's member page searched by part of an address (`GET
 * /postorius/lists/<list id>/members/member/?q=...`, after signing in through the login form),
 * and a list's whole member page opened from the list index (the list id in the path).
 */
import type { Workflow } from '../../types'
import { resultText } from '../../match'
import { listPage, MEMBERS_PAGE, memberEmails, mustPass } from '../keys'
import { logIn, listTab, openList } from '../person'

/** The Team members each search term finds (the seed's addresses). */
const FOUND: Record<string, string> = {
  carol: 'carol.diaz@example.com',
  bruno: 'bruno.costa@example.com',
  farid: 'farid.gupta@example.com',
}

/** Signs in, opens Team → Users → Members, types "carol" in the search box and searches. */
export const searchMembers: Workflow = {
  id: 'search_members',
  intent: "find the members of the Team mailing list whose address contains 'carol'",
  rewordings: {
    terse: 'search Team members carol',
    chatty: "someone called Carol says she's on the team list, can you look her up in the members?",
    withoutValue: 'search the members of the team list',
  },
  startPath: '/accounts/login/?next=/postorius/lists/',
  signedIn: false,
  async play(page, app) {
    await logIn(page, app)
    await openList(page, 'Team')
    await listTab(page, 'Users', 'Members')
    await page.waitForURL(/\/members\/member\/$/)
    await page.getByPlaceholder('Search members...').fill('carol')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.waitForURL(/[?&]q=carol/)
    await page.getByText('carol.diaz@example.com').first().waitFor()
  },
  key: {
    target: listPage('GET', MEMBERS_PAGE),
    inputs: [{ recorded: 'carol', changed: ['bruno', 'farid'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch(
        '/postorius/lists/team.lists.example.org/members/member/?q=bruno',
        { session },
      )
      const html = await res.text()
      mustPass(
        await searchMembers.key.check(app, { status: 'succeeded', result: html }, session, [
          'bruno',
        ]),
      )
    },
    async check(_app, run, _session, used) {
      const text = resultText(run.result)
      const want = FOUND[String(used[0])]
      if (!want) return `no seeded member matches "${String(used[0])}"`
      if (!text.includes(want)) return `the answer does not list ${want}`
      if (text.includes('alice.berger@example.com'))
        return 'the answer lists alice.berger@example.com too: the search was not applied'
      return null
    },
  },
}

/** Opens Announce from the list index, then Users → Members. */
export const listMembers: Workflow = {
  id: 'list_members',
  intent: 'show me who is subscribed to the Announce mailing list',
  rewordings: {
    terse: 'Announce list members',
    chatty: 'before I send the newsletter, could you pull up everyone subscribed to Announce?',
    withoutValue: 'list the subscribers of a mailing list',
  },
  startPath: '/postorius/lists/',
  signedIn: true,
  async play(page) {
    await openList(page, 'Announce')
    await listTab(page, 'Users', 'Members')
    await page.waitForURL(/\/members\/member\/$/)
    await page.getByText('ines.jensen@example.com').first().waitFor()
  },
  key: {
    target: listPage('GET', MEMBERS_PAGE),
    inputs: [
      {
        recorded: 'announce.lists.example.org',
        changed: ['garden.lists.example.org', 'team.lists.example.org'],
      },
    ],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch('/postorius/lists/garden.lists.example.org/members/member/', {
        session,
      })
      const html = await res.text()
      mustPass(
        await listMembers.key.check(app, { status: 'succeeded', result: html }, session, [
          'garden.lists.example.org',
        ]),
      )
    },
    async check(app, run, _session, used) {
      const text = resultText(run.result)
      const name = String(used[0]).split('.')[0]!
      const emails = await memberEmails(app, name)
      if (!emails.length) return `the list ${name} has no members to show`
      const missing = emails.filter((e) => !text.includes(e))
      if (missing.length) return `the answer does not list ${missing.join(', ')}`
      if (text.includes('ines.jensen@example.com'))
        return "the answer lists ines.jensen@example.com, a member of Announce only: it is Announce's page"
      return null
    },
  },
}
