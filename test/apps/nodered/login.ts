import type { Workflow } from '../types'
import { resultText } from './api'
import { waitForEditor } from './editor'
import { tokenRequest } from './session'

/**
 * Signs in from the editor's login dialog. The token answer is the result; the check proves it
 * is a working token of the user named by asking `/settings` with it, as the editor does next.
 */
export const login: Workflow = {
  id: 'login',
  intent: 'log in to the Node-RED editor as operator',
  rewordings: {
    terse: 'node-red login operator',
    chatty: 'Could you sign me in to our Node-RED editor with the operator account, please?',
    withoutValue: 'log in to the Node-RED editor',
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    // Signed out, the editor asks /settings, gets 401 and shows its login dialog.
    const name = page.locator('#node-dialog-login-username')
    await name.click()
    await name.pressSequentially(app.user.name, { delay: 40 })
    await page.locator('#node-dialog-login-password').fill(app.user.password)
    await page.locator('#node-dialog-login-submit').click()
    await waitForEditor(page)
  },
  key: {
    target: { method: 'POST', path: '/auth/token' },
    // The user name and password are the saved login's credentials (the password is redacted in
    // the trace): a sign-in tool signs in as the saved login and takes no credential input.
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch('/auth/token', tokenRequest(app.user))
      const problem = await login.key.check(
        app,
        { status: res.ok ? 'ok' : 'error', result: await res.text() },
        session,
        [],
      )
      if (problem) throw new Error(problem)
    },
    async check(app, run, _session, used) {
      const token = /"access_token"\s*:\s*"([^"]+)"/.exec(resultText(run.result))?.[1]
      if (!token) return 'the result holds no access_token'
      const res = await app.fetch('/settings', { headers: { authorization: `Bearer ${token}` } })
      if (!res.ok) return `the token does not open /settings (${res.status})`
      const user = ((await res.json()) as { user?: { username?: string } }).user?.username
      const want = String(used[0] ?? app.user.name)
      return user === want ? null : `the token is not ${want}'s but ${String(user)}'s`
    },
  },
}
