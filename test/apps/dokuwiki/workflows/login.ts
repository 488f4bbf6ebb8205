/**
 * Logging in with DokuWiki's login form: `POST /doku.php` with `do=login`, `u`, `p` (and an empty
 * `sectok`, which DokuWiki never checks for a visitor not yet signed in). Success is a 302 that
 * sets the `DW<md5>` auth cookie; a wrong password answers 200 with the login form again.
 */
import type { Workflow } from '../../types'
import { resultText } from '../keys'

const REFUSED = 'username or password was wrong'

/** Clicks "Log In" in the header, fills user name and password, submits, waits to be signed in. */
export const logIn: Workflow = {
  id: 'log_in',
  intent: 'log in to the team wiki',
  rewordings: {
    terse: 'wiki login',
    chatty: 'I need to sign in to our DokuWiki team wiki with my account, can you do that?',
    withoutValue: 'sign in to the wiki',
  },
  startPath: '/doku.php?id=start',
  signedIn: false,
  async play(page, app) {
    await page.getByRole('link', { name: 'Log In' }).first().click()
    await page.waitForURL(/do=login/)
    await page.getByLabel('Username').fill(app.user.name)
    await page.getByLabel('Password').fill(app.user.password)
    await page.getByRole('button', { name: 'Log In' }).click()
    await page.getByText('Logged in as').first().waitFor()
  },
  key: {
    target: { method: 'POST', path: '/doku.php', operation: { field: 'do', value: 'login' } },
    // The only values typed are the saved login's user name and password: no tool input.
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app) {
      // No session first: the login must work from a bare request, as the key's empty
      // dependencies say.
      const body = new URLSearchParams({
        sectok: '',
        id: 'start',
        do: 'login',
        u: app.user.name,
        p: app.user.password,
      })
      const res = await app.fetch('/doku.php?id=start', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      })
      const html = await res.text()
      const signedIn = res.headers.getSetCookie().some((c) => /^DW[0-9a-f]{32}=/.test(c))
      if (res.status !== 302 || !signedIn)
        throw new Error(`login answered ${res.status} without the auth cookie`)
      const problem = await logIn.key.check(
        app,
        { status: 'succeeded', result: html },
        {
          cookies: [],
          origins: [],
        },
        [],
      )
      if (problem) throw new Error(problem)
    },
    async check(_app, run) {
      // A login changes nothing a later read could show: judge the answer itself.
      return resultText(run.result).includes(REFUSED) ? 'DokuWiki refused the login' : null
    },
  },
}
