import type { AnswerKey, Workflow } from '../types'
import { resultText } from './keys'
import { cookieHeader } from '../sessionFetch'
import { parseSetCookies } from './session'

/**
 * Login's check: the run succeeded and did not land back on the login form (a wrong password or
 * a missing/mismatched `_xsrf` answers the form again, with "Invalid credentials" or a 403).
 */
const checkLogin: AnswerKey['check'] = async (_app, run) => {
  if (run.status !== 'succeeded') return `the run ${run.status}`
  const text = resultText(run.result)
  if (text.includes('Invalid credentials')) return 'Jupyter answered "Invalid credentials"'
  if (text.includes('password_input')) return 'the result is the login form again'
  return null
}

/** Opens the login page signed out, types the password and clicks Log in. */
export const login: Workflow = {
  id: 'login',
  intent: 'log in to the notebook server with my password',
  rewordings: {
    terse: 'jupyter login',
    chatty: 'I got logged out of Jupyter, could you sign me back in with my password please?',
    withoutValue: 'log in',
  },
  startPath: '/login?next=%2Ftree',
  signedIn: false,
  async play(page, app) {
    await page.getByLabel('Password').fill(app.user.password)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL('**/tree')
    await page.getByRole('link', { name: 'todo.md' }).waitFor()
  },
  key: {
    target: { method: 'POST', path: '/login' },
    // The password is the saved credential, not a per-run value: no changed value can log in.
    inputs: [],
    // The form's hidden _xsrf must equal the _xsrf cookie that GET /login sets.
    dependencies: [{ method: 'GET', path: '/login' }],
    mutating: false,
    async replayByHand(app) {
      const host = new URL(app.origin).hostname
      const form = await app.fetch('/login?next=%2Ftree')
      await form.text()
      const cookies = parseSetCookies(form.headers, host)
      const xsrf = cookies.find((c) => c.name === '_xsrf')?.value ?? ''
      const res = await app.fetch('/login?next=%2Ftree', {
        method: 'POST',
        redirect: 'manual',
        headers: {
          cookie: cookieHeader(cookies),
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ _xsrf: xsrf, password: app.user.password }).toString(),
      })
      const text = await res.text()
      if (res.status !== 302 || res.headers.get('location') !== '/tree')
        throw new Error(`POST /login answered ${res.status}, not a redirect to /tree`)
      if (!res.headers.getSetCookie().some((c) => c.startsWith('username-')))
        throw new Error('POST /login set no login cookie')
      const problem = await checkLogin(
        app,
        { status: 'succeeded', result: text },
        { cookies, origins: [] },
        [],
      )
      if (problem) throw new Error(problem)
    },
    check: checkLogin,
  },
}
