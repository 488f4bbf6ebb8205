import type { Workflow } from '../../types'
import { csrfToken } from '../http'
import { judgeByHand, resultText, signedInRedirect } from '../keys'
import { ADMIN } from '../seed'

/**
 * Signs in from the home page: "Sign in", user name, password, Login. The admin has no second
 * factor (every workflow's scripted sign-in uses it, and Redmine refuses a TOTP code used twice);
 * `log_in_2fa` signs in a person who has one.
 */
export const logIn: Workflow = {
  id: 'log_in',
  intent: `log in to Redmine as ${ADMIN.name}`,
  rewordings: {
    terse: `redmine login ${ADMIN.name}`,
    chatty: `Can you sign me in to our Redmine? My user name is ${ADMIN.name}.`,
    withoutValue: 'log in to Redmine',
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await page.getByRole('link', { name: 'Sign in' }).click()
    await page.locator('#username').fill(app.user.name)
    await page.locator('#password').fill(app.user.password)
    await page.locator('#login-submit').click()
    await page.locator('#loggedas').getByText(app.user.name).waitFor()
  },
  key: {
    // A urlencoded form post with the authenticity_token of the /login page; the answer is a 302
    // to /my/page with a new session cookie. The password is a secret (the vault's), so only the
    // user name is an input. Redmine matches logins case-insensitively, so "Admin" and "ADMIN"
    // are new values that still sign in with the admin's password.
    target: { method: 'POST', path: '/login' },
    inputs: [{ recorded: ADMIN.name, changed: ['Admin', 'ADMIN'] }],
    dependencies: [{ method: 'GET', path: '/login' }],
    mutating: false,
    async replayByHand(app) {
      const login = await app.fetch('/login')
      const cookie = login.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ')
      const res = await app.fetch('/login', {
        method: 'POST',
        headers: { cookie },
        body: new URLSearchParams({
          authenticity_token: csrfToken(await login.text()),
          username: String(this.inputs[0]!.changed[0]),
          password: ADMIN.password,
        }),
      })
      const location = res.headers.get('location') ?? ''
      if (res.status !== 302 || location.includes('/login'))
        throw new Error(`POST /login answered ${res.status} ${location}`)
      const signedIn = res.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ')
      const home = await app.fetch(new URL(location).pathname, { headers: { cookie: signedIn } })
      await judgeByHand(this, app, { cookies: [], origins: [] }, await home.text())
    },
    async check(_app, run) {
      // The run's answer is the page after the login's redirect (signed in, it names the user in
      // "Logged in as"), or the redirect itself (to the form's back_url, "/" when recorded from
      // the home page); refused, it shows the login form's error.
      const text = resultText(run.result)
      if (text.includes('Invalid user or password')) return 'Redmine refused the login'
      return signedInRedirect(run.result) || /Logged in as|\/my\/page/.test(text)
        ? null
        : 'the answer does not show a signed-in page'
    },
  },
}
