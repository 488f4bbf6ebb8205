/**
 * The admin and preference pages. Admin → Users → Create opens `Admin/Users/Modify.html?Create=1`,
 * whose multipart form posts `id=new` with `Name`, `EmailAddress`, `RealName`, the
 * `Privileged`/`Enabled` boxes and their `Set...` companions back to `Admin/Users/Modify.html`.
 * Logged in as → Settings → About me is `Prefs/AboutMe.html`, a multipart form of the user's own
 * record (`id`, `Name`, `EmailAddress`, `Signature`, ...) posted back to itself with no submit
 * field named.
 */
import type { Workflow } from '../../types'
import { mustPass, page, userByName } from '../keys'
import { openMenu, resultShown, typeMessage } from '../person'
import { ROOT } from '../seed'
import { postForm } from '../session'

/** Admin → Users → Create, types the username, email and real name, Create. */
export const createUser: Workflow = {
  id: 'create_user',
  intent: "add an RT user 'dana.reyes' with email dana.reyes@example.com and real name Dana Reyes",
  rewordings: {
    terse: 'create user dana.reyes dana.reyes@example.com',
    chatty:
      'Dana Reyes joined the support team today, can you set her up in RT as dana.reyes with dana.reyes@example.com?',
    withoutValue: 'create a new user account',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'li-admin', 'li-admin-users', 'li-admin-users-create')
    await page.waitForURL(/Admin\/Users\/Modify\.html/)
    await page.locator('input[name=Name]').fill('dana.reyes')
    await page.locator('input[name=EmailAddress]').fill('dana.reyes@example.com')
    await page.locator('input[name=RealName]').fill('Dana Reyes')
    await page.locator('form[name=UserCreate] input[type=submit]').last().click()
    await resultShown(page, /User created/)
  },
  key: {
    target: page('POST', '/Admin/Users/Modify.html', 'id', 'new'),
    inputs: [
      { recorded: 'dana.reyes', changed: ['erik.lund', 'fatima.noor'] },
      {
        recorded: 'dana.reyes@example.com',
        changed: ['erik.lund@example.com', 'fatima.noor@example.com'],
      },
      { recorded: 'Dana Reyes', changed: ['Erik Lund', 'Fatima Noor'] },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const res = await postForm(
        app,
        session,
        '/Admin/Users/Modify.html',
        [
          ['id', 'new'],
          ['Name', 'erik.lund'],
          ['EmailAddress', 'erik.lund@example.com'],
          ['RealName', 'Erik Lund'],
          ['SetEnabled', '1'],
          ['Enabled', '1'],
          ['SetPrivileged', '1'],
          ['Privileged', '1'],
        ],
        { page: '/Admin/Users/Modify.html?Create=1', multipart: true },
      )
      await res.arrayBuffer()
      mustPass(
        await createUser.key.check(app, { status: 'succeeded', result: null }, session, [
          'erik.lund',
          'erik.lund@example.com',
          'Erik Lund',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const [name, email, realName] = used.map(String) as [string, string, string]
      const user = userByName(app, name)
      if (!user) return `there is no user "${name}"`
      if (user.EmailAddress !== email)
        return `${name}'s email is ${user.EmailAddress}, not ${email}`
      if (user.RealName !== realName)
        return `${name}'s real name is ${user.RealName}, not ${realName}`
      if (userByName(app, 'dana.reyes')) return 'the recorded user dana.reyes was created'
      return null
    },
  },
}

/** Logged in as root → Settings → About me, types a signature, Save Preferences. */
export const setSignature: Workflow = {
  id: 'set_signature',
  intent: "set my RT signature to 'Enoch Root, IT helpdesk, ext. 4410'",
  rewordings: {
    terse: 'signature: Enoch Root, IT helpdesk, ext. 4410',
    chatty:
      "I'd like my replies to end with 'Enoch Root, IT helpdesk, ext. 4410', can you put that in as my signature?",
    withoutValue: 'change my email signature',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await openMenu(
      page,
      'li-preferences',
      'li-preferences-settings',
      'li-preferences-settings-about_me',
    )
    await page.waitForURL(/Prefs\/AboutMe\.html/)
    await typeMessage(page, 'Enoch Root, IT helpdesk, ext. 4410')
    await page.getByRole('button', { name: 'Save Preferences' }).click()
    await resultShown(page, /Signature changed|Signature/)
  },
  key: {
    target: page('POST', '/Prefs/AboutMe.html'),
    inputs: [
      {
        recorded: 'Enoch Root, IT helpdesk, ext. 4410',
        changed: ['Enoch Root, Service desk, room 2.14', 'E. Root, Helpdesk lead, ext. 4411'],
      },
    ],
    dependencies: [{ method: 'GET', path: '/Prefs/AboutMe.html' }],
    mutating: true,
    async replayByHand(app, session) {
      const me = userByName(app, ROOT.name)
      if (!me) throw new Error('RT has no root user')
      const res = await postForm(
        app,
        session,
        '/Prefs/AboutMe.html',
        [
          ['id', String(me.id)],
          ['Name', ROOT.name],
          ['EmailAddress', me.EmailAddress],
          ['RealName', me.RealName],
          ['Signature', 'Enoch Root, Service desk, room 2.14'],
        ],
        { page: '/Prefs/AboutMe.html', multipart: true },
      )
      await res.arrayBuffer()
      mustPass(
        await setSignature.key.check(app, { status: 'succeeded', result: null }, session, [
          'Enoch Root, Service desk, room 2.14',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      // The editor sends HTML (`<p>...</p>`): compare the text.
      const signature = (userByName(app, ROOT.name)?.Signature ?? '')
        .replace(/<[^>]*>/g, ' ')
        .replace(/&nbsp;/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
      if (signature !== String(used[0]))
        return `root's signature is "${signature}", not "${String(used[0])}"`
      return null
    },
  },
}
