/**
 * Sites, users and settings. A site (Management → Sites, `sites.php`) and a user (Configuration →
 * Users, `user_admin.php`) are made in an edit form that posts every field back to its page with
 * `action=save`, a `save_component_*` flag, `id=0` and `__csrf_magic`, answered 302 to the new
 * row's edit page. Settings (Configuration → Settings, `settings.php`) are drawn one tab at a
 * time; Save posts every field of the tab with `tab=<name>` and `action=save`.
 */
import type { Workflow } from '../../types'
import { literal, mustPass, post, query } from '../keys'
import { clickAdd, openMenu, saved } from '../person'
import { SETTINGS } from '../seed'
import { pageCsrf, postForm } from '../session'

/** The password the person gives the new user (any would do; it is not an input). */
const NEW_USER_PASSWORD = 'Welcome-Nina-2026'

/** Management → Sites → "+", types the name and the city, Create. */
export const createSite: Workflow = {
  id: 'create_site',
  intent: "add a site called 'Berlin Office' in the city of Berlin to Cacti",
  rewordings: {
    terse: 'new site Berlin Office, city Berlin',
    chatty:
      "we're opening an office in Berlin, could you set up a Cacti site named Berlin Office for it?",
    withoutValue: 'add a new site',
  },
  startPath: '/index.php',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'Management', 'Sites')
    await clickAdd(page, 'sites.php?action=edit')
    const name = page.locator('#name')
    await name.waitFor()
    await name.fill('Berlin Office')
    await page.locator('#city').fill('Berlin')
    await page.locator('#submit').click()
    await saved(page)
  },
  key: {
    target: post('/sites.php', 'save'),
    inputs: [
      { recorded: 'Berlin Office', changed: ['Madrid Office', 'Oslo Office'] },
      { recorded: 'Berlin', changed: ['Madrid', 'Oslo'] },
    ],
    dependencies: [{ method: 'GET', path: '/sites.php' }],
    mutating: true,
    async replayByHand(app, session) {
      const token = await pageCsrf(app, session, '/sites.php?action=edit')
      const res = await postForm(app, session, '/sites.php?header=false', [
        ['__csrf_magic', token],
        ['name', 'Madrid Office'],
        ...['address1', 'address2'].map((f): [string, string] => [f, '']),
        ['city', 'Madrid'],
        ...['state', 'postal_code', 'country', 'timezone', 'latitude', 'longitude'].map(
          (f): [string, string] => [f, ''],
        ),
        ['zoom', '12'],
        ['notes', ''],
        ['alternate_id', ''],
        ['id', '0'],
        ['save_component_site', '1'],
        ['action', 'save'],
      ])
      await res.arrayBuffer()
      mustPass(
        await createSite.key.check(app, { status: 'succeeded', result: null }, session, [
          'Madrid Office',
          'Madrid',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const rows = await query(
        app,
        `SELECT name, city FROM sites WHERE name IN (${literal(used[0]!)}, 'Berlin Office')`,
      )
      const site = rows.find(([name]) => name === String(used[0]))
      if (!site) return `there is no site "${String(used[0])}"`
      if (site[1] !== String(used[1]))
        return `"${site[0]}" is in the city "${site[1]}", not ${String(used[1])}`
      if (rows.some(([name]) => name === 'Berlin Office'))
        return 'the recorded site Berlin Office was created'
      return null
    },
  },
}

/** Configuration → Users → "+", types user name, full name and password twice, Create. */
export const createUser: Workflow = {
  id: 'create_user',
  intent: "create a Cacti user 'nina.perez' with the full name Nina Perez",
  rewordings: {
    terse: 'new user nina.perez, Nina Perez',
    chatty:
      'Nina Perez joined the NOC team today, can you make her a Cacti login called nina.perez?',
    withoutValue: 'create a new Cacti user',
  },
  startPath: '/index.php',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'Configuration', 'Users')
    await clickAdd(page, 'user_admin.php?tab=general&action=user_edit')
    const username = page.locator('#username')
    await username.waitFor()
    await username.fill('nina.perez')
    await page.locator('#full_name').fill('Nina Perez')
    await page.locator('#password').fill(NEW_USER_PASSWORD)
    await page.locator('#password_confirm').fill(NEW_USER_PASSWORD)
    await page.locator('#submit').click()
    await saved(page)
  },
  key: {
    target: post('/user_admin.php', 'save'),
    inputs: [
      { recorded: 'nina.perez', changed: ['omar.haddad', 'pia.lund'] },
      { recorded: 'Nina Perez', changed: ['Omar Haddad', 'Pia Lund'] },
      { recorded: NEW_USER_PASSWORD, changed: ['Omar-Pass-51', 'Pia-Pass-62'], secret: true },
    ],
    dependencies: [{ method: 'GET', path: '/user_admin.php' }],
    mutating: true,
    async replayByHand(app, session) {
      const token = await pageCsrf(app, session, '/user_admin.php?tab=general&action=user_edit')
      const res = await postForm(app, session, '/user_admin.php?header=false', [
        ['__csrf_magic', token],
        ['username', 'omar.haddad'],
        ['full_name', 'Omar Haddad'],
        ['email_address', ''],
        ['password', NEW_USER_PASSWORD],
        ['password_confirm', NEW_USER_PASSWORD],
        ['enabled', 'on'],
        ['realm', '0'],
        ['login_opts', '1'],
        ['id', '0'],
        ['tab', 'general'],
        ['save_component_user', '1'],
        ['action', 'save'],
      ])
      await res.arrayBuffer()
      mustPass(
        await createUser.key.check(app, { status: 'succeeded', result: null }, session, [
          'omar.haddad',
          'Omar Haddad',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const rows = await query(
        app,
        `SELECT username, full_name FROM user_auth WHERE username IN (${literal(used[0]!)}, 'nina.perez')`,
      )
      const user = rows.find(([name]) => name === String(used[0]))
      if (!user) return `there is no user "${String(used[0])}"`
      if (user[1] !== String(used[1]))
        return `"${user[0]}" has the full name "${user[1]}", not ${String(used[1])}`
      if (rows.some(([name]) => name === 'nina.perez'))
        return 'the recorded user nina.perez was created'
      return null
    },
  },
}

/** Configuration → Settings → Mail/Reporting/DNS, changes From Email Address, Save. */
export const setMailSender: Workflow = {
  id: 'set_mail_sender',
  intent: "set the From email address of Cacti's mail to alerts@example.org",
  rewordings: {
    terse: 'mail from address alerts@example.org',
    chatty:
      'our mail relay only accepts alerts@example.org as sender, can you make Cacti send its mail from that address?',
    withoutValue: "change the address Cacti's mail comes from",
  },
  startPath: '/index.php',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'Configuration', 'Settings')
    await page.locator('a[href="settings.php?tab=mail"]').click()
    const from = page.locator('#settings_from_email')
    await from.waitFor()
    await from.fill('alerts@example.org')
    await page.locator('#submit').click()
    await saved(page)
  },
  key: {
    target: {
      method: 'POST',
      path: '/settings.php',
      operation: [
        { field: 'action', value: 'save' },
        { field: 'tab', value: 'mail' },
      ],
    },
    inputs: [{ recorded: 'alerts@example.org', changed: ['noc@example.org', 'ops@example.org'] }],
    dependencies: [{ method: 'GET', path: '/settings.php' }],
    mutating: true,
    async replayByHand(app, session) {
      const token = await pageCsrf(app, session, '/settings.php?tab=mail')
      const res = await postForm(app, session, '/settings.php?header=false', [
        ['__csrf_magic', token],
        ['settings_from_email', 'noc@example.org'],
        ['settings_from_name', SETTINGS.settings_from_name!],
        ['tab', 'mail'],
        ['action', 'save'],
      ])
      await res.arrayBuffer()
      mustPass(
        await setMailSender.key.check(app, { status: 'succeeded', result: null }, session, [
          'noc@example.org',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const rows = await query(
        app,
        "SELECT name, value FROM settings WHERE name IN ('settings_from_email', 'settings_from_name')",
      )
      const value = (name: string) => rows.find(([n]) => n === name)?.[1]
      const from = value('settings_from_email')
      if (from !== String(used[0])) return `the From address is "${from}", not ${String(used[0])}`
      if (value('settings_from_name') !== SETTINGS.settings_from_name)
        return `the From name changed to "${value('settings_from_name')}"`
      return null
    },
  },
}
