import type { Workflow } from '../types'
import { orThrow, parsed } from './answers'

/**
 * Opens the login dialog, fills user name and password, submits, waits to be signed in. The UI
 * posts JSON to `/-/verdaccio/sec/login` and keeps the JWT of the answer in localStorage.
 */
export const logIn: Workflow = {
  id: 'log_in',
  intent: 'log in to the npm registry',
  rewordings: {
    terse: 'registry login',
    chatty: "Please sign me in to our Verdaccio npm registry with my account, I'll need it later",
    withoutValue: 'sign in to the registry',
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await page.getByRole('link', { name: 'tidy-csv', exact: true }).first().waitFor()
    await page.locator('[data-testid="header--button-login"]').click()
    await page.locator('#login--dialog-username').fill(app.user.name)
    await page.locator('#login--dialog-password').fill(app.user.password)
    const answer = page.waitForResponse((r) => r.url().endsWith('/-/verdaccio/sec/login'))
    // Logged in, the UI loads the package list again with the new token: wait for its answer too.
    const list = page.waitForResponse(
      (r) =>
        r.url().endsWith('/-/verdaccio/data/packages') && !!r.request().headers().authorization,
    )
    await page.locator('#login--dialog-button-submit').click()
    if ((await answer).status() !== 200) throw new Error('Verdaccio refused the login')
    await list
    // Logged in, the header shows the account menu instead of the login button.
    await page.locator('[data-testid="header--button-login"]').waitFor({ state: 'detached' })
  },
  key: {
    target: { method: 'POST', path: '/-/verdaccio/sec/login' },
    // The only values typed are the saved login's user name and password: no tool input.
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      // No session: the login must work from a bare request, as the key's empty dependencies say.
      const res = await app.fetch('/-/verdaccio/sec/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: app.user.name, password: app.user.password }),
      })
      const result: unknown = await res.json()
      if (res.status !== 200) throw new Error(`login answered ${res.status}`)
      orThrow(await this.check(app, { status: 'succeeded', result }, session, []))
    },
    async check(app, run) {
      // A login changes nothing a later read could show: the answer's JWT must open the private
      // package list, which an anonymous request does not get.
      const token = (parsed(run.result) as { token?: unknown } | null)?.token
      if (typeof token !== 'string') return 'the answer holds no token'
      const res = await app.fetch('/-/verdaccio/data/packages', {
        headers: { authorization: `Bearer ${token}` },
      })
      const text = await res.text()
      return text.includes('@team/billing-core') ? null : 'the token does not open the private list'
    },
  },
}
