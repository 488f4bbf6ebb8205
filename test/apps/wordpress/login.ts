/**
 * Logging in through wp-login.php's form. A good login answers 302 to /wp-admin/ with the auth
 * cookies, a bad one 200 with the form again; WordPress also records a session token for the
 * user, which the admin's Edit User page shows as a "Log Out Everywhere" button.
 */
import type { Workflow } from '../types'
import { form, mustPass, readPage, resultText } from './keys'
import { ADMIN, USERS } from './seed'

/** Signs in from the login page: types user name and password, presses Log In. */
export const login: Workflow = {
  id: 'login',
  intent: `log in to the blog's admin as ${ADMIN.name}`,
  rewordings: {
    terse: `wp login ${ADMIN.name}`,
    chatty: `Could you sign me in to the WordPress dashboard of the allotment blog as ${ADMIN.name}?`,
    withoutValue: "log in to the blog's admin",
  },
  startPath: '/wp-login.php',
  signedIn: false,
  async play(page, app) {
    const name = page.getByLabel('Username or Email Address')
    await name.click()
    await name.pressSequentially(app.user.name, { delay: 40 })
    await page.getByLabel('Password', { exact: true }).fill(app.user.password)
    await page.getByRole('button', { name: 'Log In' }).click()
    await page.waitForURL('**/wp-admin/')
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor()
  },
  key: {
    target: { method: 'POST', path: '/wp-login.php' },
    // The user name and password are the saved login's credentials (the password is redacted in
    // the trace): a sign-in tool takes no credential input. The form's testcookie=1 needs the wordpress_test_cookie that the GET of the form
    // set; the saved login holds it, so no request is needed before the POST.
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const name = app.user.name
      const res = await app.fetch('/wp-login.php', {
        session,
        ...form({
          log: name,
          pwd: app.user.password,
          'wp-submit': 'Log In',
          redirect_to: `${app.origin}/wp-admin/`,
          testcookie: '1',
        }),
      })
      await res.arrayBuffer()
      const result = { status: res.status, location: res.headers.get('location') ?? '' }
      mustPass(await this.check(app, { status: String(res.status), result }, session, []))
    },
    async check(app, run, session, used) {
      const text = resultText(run.result)
      if (text.includes('id="loginform"')) return 'the result is the login form again'
      const want = String(used[0] ?? app.user.name)
      // The admin is user 1 (the installer made it); the others are seeded with their ids.
      const user = [{ ...ADMIN, id: 1 }, ...USERS].find((u) => u.name === want)
      if (!user) return `no seeded user ${want}`
      // Signed in once, the user has a session token: the admin sees "Log Out Everywhere".
      const page = await readPage(app, `/wp-admin/user-edit.php?user_id=${user.id}`, session)
      if (!page.text.includes('id="destroy-sessions"')) return `${user.name} has no session`
      return null
    },
  },
}
