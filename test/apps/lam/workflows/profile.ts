/**
 * A setting: a new account profile for users (Tools → Profile editor, "Create a new profile" for
 * Users, a form of defaults that new accounts made with the profile get). The main page posts
 * `createProfile=user` and redirects to `profedit/profilepage.php?type=user`, whose form (with
 * the sec_token) is posted back with `save`; LAM writes the profile (one `field: value` line each) to
 * `config/profiles/<server profile>/<name>.user`.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Workflow } from '../../types'
import { mustPass, page, postForm } from '../keys'
import { openTool } from '../person'
import { CONFIG_DIRS } from '../server'

/**
 * The profile `name`'s saved values (LAM writes one `field: value` line per field), or null when
 * there is none.
 */
function savedProfile(origin: string, name: string): Record<string, string> | null {
  const dir = CONFIG_DIRS.get(origin)
  if (!dir) throw new Error(`no LAM config dir for ${origin}`)
  const file = join(dir, 'profiles', 'lam', `${name}.user`)
  if (!existsSync(file)) return null
  const fields: Record<string, string> = {}
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const at = line.indexOf(': ')
    if (at > 0) fields[line.slice(0, at)] = line.slice(at + 2)
  }
  return fields
}

/**
 * Tools, Profile editor, Users picked under "Create a new profile", Create; the name typed, the
 * primary group and login shell picked, Save.
 */
export const createProfile: Workflow = {
  id: 'create_profile',
  intent:
    'create a user profile called contractors with the login shell /bin/sh and the primary group support',
  rewordings: {
    terse: 'user profile contractors: /bin/sh, group support',
    chatty:
      'we keep making contractor accounts by hand, could you add an account profile named contractors so new ones default to the support group and /bin/sh as their shell?',
    withoutValue: 'set up a new account profile for users',
  },
  startPath: '/templates/lists/list.php?type=user',
  signedIn: true,
  async play(page) {
    await openTool(page, 'Profile editor')
    await page.waitForURL(/profedit\/profilemain\.php/)
    await page.locator('#createProfile').selectOption('user')
    await page.locator('#btn_createProfileButton').click()
    await page.waitForURL(/profedit\/profilepage\.php/)
    await page.locator('#profname').fill('contractors')
    await page.locator('#posixAccount_primaryGroup').selectOption({ label: 'support' })
    await page.locator('#posixAccount_loginShell').selectOption('/bin/sh')
    await page.locator('#btn_save').click()
    await page.getByText(/saved/i).first().waitFor()
  },
  key: {
    target: page('POST', 'profedit/profilepage.php', 'save'),
    inputs: [
      { recorded: 'contractors', changed: ['freelancers', 'seasonal'] },
      { recorded: '/bin/sh', changed: ['/bin/ksh', '/bin/dash'] },
      { recorded: 'support', changed: ['finance', 'interns'] },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const answer = await postForm(
        app,
        session,
        '/templates/profedit/profilepage.php?type=user',
        [
          ['profname', 'freelancers'],
          ['ldap_suffix', 'ou=people,dc=example,dc=org'],
          ['ldap_rdn', 'uid'],
          ['posixAccount_primaryGroup', 'finance'],
          ['posixAccount_homeDirectory', '/home/$user'],
          ['posixAccount_loginShell', '/bin/ksh'],
          ['accounttype', 'user'],
          ['save', ''],
        ],
        '/templates/profedit/profilepage.php?type=user',
      )
      if (answer.status !== 200) throw new Error(`the profile's save answered ${answer.status}`)
      mustPass(
        await createProfile.key.check(app, { status: 'succeeded', result: answer.text }, session, [
          'freelancers',
          '/bin/ksh',
          'finance',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const [name, shell, group] = used.map(String)
      const saved = savedProfile(app.origin, name!)
      if (!saved) return `no user profile ${name}`
      if (saved.posixAccount_loginShell !== shell)
        return `profile ${name} has the login shell ${saved.posixAccount_loginShell}, not ${shell}`
      if (saved.posixAccount_primaryGroup !== group)
        return `profile ${name} has the primary group ${saved.posixAccount_primaryGroup}, not ${group}`
      if (savedProfile(app.origin, 'contractors'))
        return 'the recorded profile contractors was saved too'
      return null
    },
  },
}
