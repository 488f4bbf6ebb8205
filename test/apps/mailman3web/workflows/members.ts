/**
 * Members and bans of the Team list. Mass subscribe (Mass operations → Mass subscribe) posts the
 * addresses one a line in `emails`, with the pre-confirm/approve/verify boxes and the welcome
 * message choice, to `/postorius/lists/<list id>/mass_subscribe/`. Removing members ticks their
 * rows in the member list (checkboxes `choices=<address>`) and posts that form back to
 * `.../members/member/` with "Remove Selected". A ban posts `email` and the button `add` to
 * `.../bans/`. Every form carries `csrfmiddlewaretoken`.
 */
import type { Workflow } from '../../types'
import { bannedEmails, listPage, MEMBERS_PAGE, memberEmails, mustPass } from '../keys'
import { listTab, openList, success, tickMember } from '../person'
import { postForm } from '../session'

const TEAM_PAGE = '/postorius/lists/team.lists.example.org'

/**
 * Opens Team, Mass operations → Mass subscribe, types one address, ticks Pre Verified (the
 * colleague's address needs no proof), Subscribe Users.
 */
export const subscribeMember: Workflow = {
  id: 'subscribe_member',
  intent: 'subscribe hugo.ito@example.com to the Team mailing list',
  rewordings: {
    terse: 'add hugo.ito@example.com to Team',
    chatty: 'Hugo joined us this week, could you put hugo.ito@example.com on the team list?',
    withoutValue: 'subscribe someone to the team list',
  },
  startPath: '/postorius/lists/',
  signedIn: true,
  async play(page) {
    await openList(page, 'Team')
    await listTab(page, 'Mass operations', 'Mass subscribe')
    await page.waitForURL(/\/mass_subscribe\/$/)
    await page.locator('#id_emails').fill('hugo.ito@example.com')
    // Without "Pre Verified" core only mails a verification link and the address stays pending.
    await page.getByLabel('Pre Verified').check()
    await page.getByRole('button', { name: 'Subscribe users' }).click()
    await success(page, 'hugo.ito@example.com has been subscribed to team@lists.example.org.')
    const pending = page.locator('.alert-success', { hasText: 'pending' })
    if (await pending.count()) throw new Error('the subscription was left pending')
  },
  key: {
    target: listPage('POST', 'mass_subscribe/'),
    inputs: [
      {
        recorded: 'hugo.ito@example.com',
        changed: ['iris.jung@example.com', 'jack.kerr@example.com'],
      },
    ],
    dependencies: [listPage('GET', 'mass_subscribe/')],
    mutating: true,
    async replayByHand(app, session) {
      const res = await postForm(app, session, `${TEAM_PAGE}/mass_subscribe/`, [
        ['emails', 'iris.jung@example.com'],
        ['pre_confirmed', 'on'],
        ['pre_approved', 'on'],
        ['pre_verified', 'on'],
        ['send_welcome_message', 'default'],
      ])
      await res.arrayBuffer()
      mustPass(
        await subscribeMember.key.check(app, { status: 'succeeded', result: null }, session, [
          'iris.jung@example.com',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const members = await memberEmails(app, 'team')
      if (!members.includes(String(used[0]))) return `${String(used[0])} is not a member of Team`
      if (members.includes('hugo.ito@example.com'))
        return 'the recorded hugo.ito@example.com was subscribed'
      return null
    },
  },
}

/** Opens Team, Users → Members, ticks carol.diaz@example.com, Remove Selected. */
export const removeMember: Workflow = {
  id: 'remove_member',
  intent: 'remove carol.diaz@example.com from the Team mailing list',
  rewordings: {
    terse: 'unsubscribe carol.diaz@example.com from Team',
    chatty:
      'Carol left the company last month, can you take carol.diaz@example.com off the team list?',
    withoutValue: 'remove a member from the team list',
  },
  startPath: '/postorius/lists/',
  signedIn: true,
  async play(page) {
    await openList(page, 'Team')
    await listTab(page, 'Users', 'Members')
    await page.waitForURL(/\/members\/member\/$/)
    await tickMember(page, 'carol.diaz@example.com')
    await page.getByRole('button', { name: 'Remove Selected' }).click()
    await success(page, 'The selected members have been unsubscribed')
  },
  key: {
    target: listPage('POST', MEMBERS_PAGE),
    inputs: [
      {
        recorded: 'carol.diaz@example.com',
        changed: ['dan.evans@example.com', 'erin.fox@example.com'],
      },
    ],
    dependencies: [listPage('GET', MEMBERS_PAGE)],
    mutating: true,
    async replayByHand(app, session) {
      const res = await postForm(app, session, `${TEAM_PAGE}/members/member/`, [
        ['choices', 'dan.evans@example.com'],
      ])
      await res.arrayBuffer()
      mustPass(
        await removeMember.key.check(app, { status: 'succeeded', result: null }, session, [
          'dan.evans@example.com',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const members = await memberEmails(app, 'team')
      if (members.includes(String(used[0]))) return `${String(used[0])} is still a member of Team`
      if (!members.includes('carol.diaz@example.com'))
        return 'the recorded carol.diaz@example.com was removed'
      if (!members.includes('alice.berger@example.com'))
        return 'alice.berger@example.com was removed too'
      return null
    },
  },
}

/** Opens Team, Ban List, types an address, Ban email. */
export const banAddress: Workflow = {
  id: 'ban_address',
  intent: 'ban spam.king@junk.example from the Team mailing list',
  rewordings: {
    terse: 'ban spam.king@junk.example on Team',
    chatty:
      'spam.king@junk.example keeps trying to join the team list, can you block that address?',
    withoutValue: 'ban an address from the team list',
  },
  startPath: '/postorius/lists/',
  signedIn: true,
  async play(page) {
    await openList(page, 'Team')
    await listTab(page, 'Ban List')
    await page.waitForURL(/\/bans\/$/)
    await page.locator('#id_email').fill('spam.king@junk.example')
    await page.getByRole('button', { name: 'Ban email' }).click()
    await success(page, /spam\.king@junk\.example/)
  },
  key: {
    target: { ...listPage('POST', 'bans/'), operation: { field: 'add', value: '' } },
    inputs: [
      { recorded: 'spam.king@junk.example', changed: ['promo@junk.example', 'bot@junk.example'] },
    ],
    dependencies: [listPage('GET', 'bans/')],
    mutating: true,
    async replayByHand(app, session) {
      const res = await postForm(app, session, `${TEAM_PAGE}/bans/`, [
        ['email', 'promo@junk.example'],
        ['add', ''],
      ])
      await res.arrayBuffer()
      mustPass(
        await banAddress.key.check(app, { status: 'succeeded', result: null }, session, [
          'promo@junk.example',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const bans = await bannedEmails(app, 'team')
      if (!bans.includes(String(used[0]))) return `${String(used[0])} is not banned from Team`
      if (bans.includes('spam.king@junk.example'))
        return 'the recorded spam.king@junk.example was banned'
      return null
    },
  },
}
