import type { AppInstance, Workflow } from '../../types'
import { csrfToken } from '../http'
import { judgeByHand, resultText, signedInRedirect } from '../keys'
import { PEOPLE } from '../seed'
import { totpCode } from '../totp'

/** Robin: the seeded person with Redmine's TOTP second factor paired. */
const ROBIN = PEOPLE[1]
const TOTP_KEY = ROBIN.totp

/** One request of a curl session: the `Redmine` cookie carried from answer to answer. */
async function step(
  app: AppInstance,
  jar: { cookie: string },
  path: string,
  form?: Record<string, string>,
): Promise<Response> {
  const res = await app.fetch(path, {
    headers: jar.cookie ? { cookie: jar.cookie } : {},
    ...(form ? { method: 'POST', body: new URLSearchParams(form) } : {}),
  })
  const set = res.headers.getSetCookie().find((c) => c.startsWith('Redmine='))
  if (set) jar.cookie = set.split(';')[0]!
  return res
}

/**
 * Signs in as Robin: user name and password, then Redmine's "Two-factor authentication" page asks
 * for the six-digit code of the authenticator app (computed here from the paired key).
 */
export const logInTwoFactor: Workflow = {
  id: 'log_in_2fa',
  intent: `log in to Redmine as ${ROBIN.login} with the code from my authenticator app`,
  rewordings: {
    terse: `redmine 2fa login ${ROBIN.login}`,
    chatty: `Sign me in to Redmine please, I'm ${ROBIN.login}; it will ask for the code from my authenticator app too.`,
    withoutValue: 'log in to Redmine with two-factor authentication',
  },
  startPath: '/',
  signedIn: false,
  async play(page) {
    await page.getByRole('link', { name: 'Sign in' }).click()
    await page.locator('#username').fill(ROBIN.login)
    await page.locator('#password').fill(ROBIN.password)
    await page.locator('#login-submit').click()
    await page.waitForURL('**/account/twofa/confirm')
    await page.locator('#twofa_code').fill(totpCode(TOTP_KEY))
    await page.locator('#login-submit').click()
    await page.locator('#loggedas').getByText(ROBIN.login).waitFor()
  },
  key: {
    // The second factor is its own form: POST /account/twofa with twofa_code and the
    // authenticity_token of GET /account/twofa/confirm, in the session the first factor's
    // POST /login opened (Redmine keeps a two-minute "twofa_session" token in the cookie). The
    // code is a one-time secret like the password: never a fixed input, never baked.
    target: { method: 'POST', path: '/account/twofa' },
    // The user name is typed, so an input (Redmine matches logins case-insensitively: "Rlee" and
    // "RLEE" are new values for the same person); the password and the code are secrets.
    inputs: [{ recorded: ROBIN.login, changed: ['Rlee', 'RLEE'] }],
    dependencies: [
      { method: 'POST', path: '/login' },
      { method: 'GET', path: '/account/twofa/confirm' },
    ],
    mutating: false,
    // The tool signs in as Robin with the login Robin saved: password and authenticator seed.
    login: { username: ROBIN.login, password: ROBIN.password, totpSeed: TOTP_KEY },
    async replayByHand(app) {
      const jar = { cookie: '' }
      const login = await step(app, jar, '/login')
      const first = await step(app, jar, '/login', {
        authenticity_token: csrfToken(await login.text()),
        username: String(this.inputs[0]!.changed[0]),
        password: ROBIN.password,
      })
      if (!first.headers.get('location')?.endsWith('/account/twofa/confirm'))
        throw new Error(`POST /login answered ${first.status} ${first.headers.get('location')}`)
      const confirm = await step(app, jar, '/account/twofa/confirm')
      const second = await step(app, jar, '/account/twofa', {
        authenticity_token: csrfToken(await confirm.text()),
        twofa_code: totpCode(TOTP_KEY),
      })
      const location = second.headers.get('location') ?? ''
      if (second.status !== 302 || /login|twofa/.test(location))
        throw new Error(`POST /account/twofa answered ${second.status} ${location}`)
      const home = await step(app, jar, new URL(location).pathname)
      await judgeByHand(this, app, { cookies: [], origins: [] }, await home.text())
    },
    async check(_app, run) {
      const text = resultText(run.result)
      if (/Invalid user or password|code is invalid/i.test(text)) return 'Redmine refused the login'
      // The run may end on the second factor's redirect away from the sign-in forms.
      if (signedInRedirect(run.result)) return null
      return text.includes('Logged in as') && text.includes(ROBIN.login)
        ? null
        : `the answer does not show ${ROBIN.login} signed in`
    },
  },
}
