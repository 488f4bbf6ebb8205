/**
 * The reads: the header's search box (`GET zabbix.php?action=search&search=...`, a page listing
 * the hosts, host groups and templates that match), the host list opened from the menu after
 * signing in (`GET zabbix.php?action=host.list`), and the user list filtered by username
 * (`GET zabbix.php?action=user.list&filter_username=...&filter_set=1`; Zabbix keeps the filter in
 * the user's profile, so this workflow comes last: a later unfiltered list would be filtered).
 */
import type { Workflow } from '../../types'
import { resultText } from '../../match'
import { action, mustPass } from '../keys'
import { logIn, openMenu } from '../person'

/** The technical host names each search term finds among the seeded hosts. */
const FOUND: Record<string, string[]> = {
  web: ['web-01', 'web-02'],
  db: ['db-01', 'db-02'],
  lab: ['lab-pi'],
}

/** Types "web" in the header's search box and presses Enter. */
export const searchHosts: Workflow = {
  id: 'search_hosts',
  intent: "search Zabbix for hosts matching 'web'",
  rewordings: {
    terse: 'search web',
    chatty: "can you look up which of our monitored hosts have 'web' in their name?",
    withoutValue: 'search the monitoring for some hosts by name',
  },
  startPath: '/zabbix.php?action=dashboard.view',
  signedIn: true,
  async play(page) {
    const box = page.locator('#search')
    await box.click()
    await box.pressSequentially('web', { delay: 30 })
    await box.press('Enter')
    await page.waitForURL(/action=search/)
    await page.locator('table.list-table', { hasText: 'web-02' }).first().waitFor()
  },
  key: {
    target: action('GET', 'search'),
    inputs: [{ recorded: 'web', changed: ['db', 'lab'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch('/zabbix.php?action=search&search=db', { session })
      mustPass(
        await searchHosts.key.check(
          app,
          { status: 'succeeded', result: await res.text() },
          session,
          ['db'],
        ),
      )
    },
    async check(_app, run, _session, used) {
      // Zabbix marks the matched part of each name (`<span class="suggest-found">db</span>-01`),
      // which a page read as text may split ("db -01"): compare without tags and white space.
      const text = resultText(run.result)
        .replace(/<[^>]*>/g, '')
        .replace(/\s+/g, '')
      const want = FOUND[String(used[0])] ?? []
      const missing = want.filter((h) => !text.includes(h))
      if (!want.length || missing.length)
        return `the search for "${String(used[0])}" does not show ${missing.join(', ')}`
      if (text.includes('web-01')) return 'the result shows web-01: the recorded search ran'
      return null
    },
  },
}

/** Signs in with the login form, then Configuration → Hosts. */
export const listHosts: Workflow = {
  id: 'list_hosts',
  intent: 'sign in to Zabbix and list all the hosts it monitors',
  rewordings: {
    terse: 'list hosts',
    chatty: 'could you log into Zabbix and show me every host we have configured?',
    withoutValue: 'show me the monitored hosts',
  },
  startPath: '/index.php',
  signedIn: false,
  async play(page, app) {
    await logIn(page, app)
    await openMenu(page, 'Configuration', 'Hosts')
    await page.waitForURL(/action=host\.list/)
    await page.locator('table.list-table', { hasText: 'Lab Raspberry Pi' }).waitFor()
  },
  key: {
    target: action('GET', 'host.list'),
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch('/zabbix.php?action=host.list', { session })
      mustPass(
        await listHosts.key.check(
          app,
          { status: 'succeeded', result: await res.text() },
          session,
          [],
        ),
      )
    },
    async check(_app, run) {
      const text = resultText(run.result)
      const want = ['Web frontend 1', 'Web frontend 2', 'Primary database', 'Replica database']
      const missing = [...want, 'Hall printer', 'Lab Raspberry Pi'].filter((h) => !text.includes(h))
      return missing.length ? `the host list lacks ${missing.join(', ')}` : null
    },
  },
}

/** Administration → Users, types "alice" in the filter's Username, Apply. */
export const filterUsers: Workflow = {
  id: 'filter_users',
  intent: "show the Zabbix users whose username contains 'alice'",
  rewordings: {
    terse: 'users matching alice',
    chatty: "I need to find alice's Zabbix account, can you filter the user list by 'alice'?",
    withoutValue: 'filter the Zabbix users by username',
  },
  startPath: '/zabbix.php?action=dashboard.view',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'Administration', 'Users')
    await page.waitForURL(/action=user\.list/)
    const field = page.locator('#filter_username')
    await field.fill('alice')
    await page.getByRole('button', { name: 'Apply', exact: true }).click()
    await page.waitForURL(/filter_username=alice/)
    await page.locator('table.list-table', { hasText: 'alice.martin' }).waitFor()
  },
  key: {
    target: action('GET', 'user.list'),
    inputs: [{ recorded: 'alice', changed: ['bruno', 'chloe'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch(
        '/zabbix.php?action=user.list&filter_username=bruno&filter_name=&filter_surname=&filter_set=1',
        { session },
      )
      mustPass(
        await filterUsers.key.check(
          app,
          { status: 'succeeded', result: await res.text() },
          session,
          ['bruno'],
        ),
      )
    },
    async check(_app, run, _session, used) {
      const text = resultText(run.result)
      const wanted = { bruno: 'bruno.keller', chloe: 'chloe.dubois' }[String(used[0])]
      if (!wanted || !text.includes(wanted)) return `the list does not show ${String(wanted)}`
      // The users the filter must leave out (never deleted by another workflow).
      const others = ['alice.martin', 'bruno.keller', 'chloe.dubois'].filter((u) => u !== wanted)
      const shown = others.filter((u) => text.includes(u))
      return shown.length ? `the list also shows ${shown.join(', ')}: not filtered` : null
    },
  },
}
