/**
 * The signed-in person's own settings, under the user menu: "My Account" (`/account`) holds the
 * preferences form (`form_config_preferences`: theme, language, timezone, ... and two submit
 * buttons, "Save to the Preferences" and "Save for the current Session"), posted back to
 * `/account` and kept in the database; its Navigation tab (`/navigation`) lists one's own menu
 * entries, and "Create a New Navigation Item" opens `/navigation/add`, whose form (`name`, the
 * hidden `type=menu-item`, `parent`, `target`, `url`, `icon`) posts back there and writes the
 * user's `menu.ini`.
 */
import type { Workflow } from '../../types'
import { mustPass, selected, TOKEN_PAGE } from '../keys'
import { linkNamed, logIn, openAccount, openTab, success } from '../person'
import { postForm } from '../session'
import { getText } from '../../sessionFetch'

/** My Account → Navigation → Create a New Navigation Item: name and URL, Save Changes. */
export const addMenuEntry: Workflow = {
  id: 'add_menu_entry',
  intent:
    "add a menu entry 'Team wiki' linking to https://wiki.example.org/ops to my Icinga Web menu",
  rewordings: {
    terse: 'menu item Team wiki https://wiki.example.org/ops',
    chatty:
      'I keep hunting for our wiki, could you put a "Team wiki" link to https://wiki.example.org/ops in my sidebar?',
    withoutValue: 'add a link to my sidebar menu',
  },
  startPath: '/dashboard',
  signedIn: true,
  async play(page) {
    await openAccount(page)
    await openTab(page, 'Navigation')
    await linkNamed(page, '#col1', 'Create a New Navigation Item').click()
    const form = page.locator('form[name=form_config_navigation]')
    await form.locator('input[name=name]').fill('Team wiki')
    await form.locator('textarea[name=url]').fill('https://wiki.example.org/ops')
    await form.locator('input[type=submit][value="Save Changes"]').click()
    await page.locator('#col1 table', { hasText: 'Team wiki' }).waitFor()
  },
  key: {
    target: { method: 'POST', path: '/navigation/add' },
    inputs: [
      { recorded: 'Team wiki', changed: ['Runbooks', 'Status page'] },
      {
        recorded: 'https://wiki.example.org/ops',
        changed: ['https://runbooks.example.org/', 'https://status.example.org/'],
      },
    ],
    dependencies: [TOKEN_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const res = await postForm(app, session, '/navigation/add', 'form_config_navigation', [
        ['name', 'Runbooks'],
        ['type', 'menu-item'],
        ['parent', ''],
        ['target', '_blank'],
        ['url', 'https://runbooks.example.org/'],
        ['icon', ''],
        ['btn_submit', 'Save Changes'],
      ])
      await res.arrayBuffer()
      mustPass(
        await addMenuEntry.key.check(app, { status: 'succeeded', result: null }, session, [
          'Runbooks',
          'https://runbooks.example.org/',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const [name, url] = used.map(String) as [string, string]
      const menu = await getText(app, session, '/layout/menu')
      const link = new RegExp(
        `<a[^>]*href="${url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}"[^>]*>[\\s\\S]*?</a>`,
      ).exec(menu)
      if (!link) return `the menu has no link to ${url}`
      if (!link[0].includes(name)) return `the link to ${url} is not named "${name}"`
      if (menu.includes('Team wiki')) return 'the recorded entry Team wiki was created'
      return null
    },
  },
}

/** Signs in, My Account, picks the time zone Europe/Berlin, Save to the Preferences. */
export const changeTimezone: Workflow = {
  id: 'change_timezone',
  intent: 'sign in to Icinga Web and set my time zone to Europe/Berlin',
  rewordings: {
    terse: 'timezone Europe/Berlin',
    chatty:
      "I've moved to the Berlin office, can you log in and switch my Icinga Web time zone to Europe/Berlin?",
    withoutValue: 'change the time zone in my preferences',
  },
  startPath: '/authentication/login',
  signedIn: false,
  async play(page, app) {
    await logIn(page, app)
    await openAccount(page)
    const form = page.locator('form[name=form_config_preferences]')
    await form.locator('select[name=timezone]').selectOption('Europe/Berlin')
    await form.locator('input[type=submit][value="Save to the Preferences"]').click()
    await success(page, /Preferences/)
  },
  key: {
    target: { method: 'POST', path: '/account' },
    inputs: [{ recorded: 'Europe/Berlin', changed: ['America/New_York', 'Asia/Tokyo'] }],
    dependencies: [TOKEN_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const res = await postForm(app, session, '/account', 'form_config_preferences', [
        ['theme', 'Icinga'],
        ['theme_mode', ''],
        ['language', 'en_US'],
        ['timezone', 'America/New_York'],
        ['show_application_state_messages', 'system'],
        ['show_stacktraces', '1'],
        ['show_benchmark', '0'],
        ['auto_refresh_speed', ''],
        ['default_page_size', ''],
        ['btn_submit', 'Save to the Preferences'],
      ])
      await res.arrayBuffer()
      mustPass(
        await changeTimezone.key.check(app, { status: 'succeeded', result: null }, session, [
          'America/New_York',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const form = await getText(app, session, '/account')
      const zone = selected(form, 'timezone')
      if (zone !== String(used[0]))
        return `the time zone is ${zone ?? 'unset'}, not ${String(used[0])}`
      return null
    },
  },
}
