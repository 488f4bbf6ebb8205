import type { StorageState } from '../../../src/shared/trace'
import type { AppDefinition, AppInstance } from '../types'
import { jupyterUnavailable, startJupyter } from './server'
import { cookieHeader, fetchWithSession } from '../sessionFetch'
import { mergeCookies, parseSetCookies } from './session'
import { WORKFLOWS } from './workflows'

/**
 * The one password of the notebook server. Classic Jupyter has no user names; `name` is only
 * there because the contract asks for one.
 */
const USER = { name: 'jupyter', password: 'ledger-teal-42' }

/** Signs in like the login form does: GET /login for the `_xsrf` cookie, then POST the form. */
async function signIn(origin: string, password: string): Promise<StorageState> {
  const host = new URL(origin).hostname
  const page = await fetch(`${origin}/login`)
  let cookies = parseSetCookies(page.headers, host)
  const xsrf = cookies.find((c) => c.name === '_xsrf')?.value
  if (!xsrf) throw new Error('Jupyter /login set no _xsrf cookie')
  const res = await fetch(`${origin}/login?next=%2Ftree`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      cookie: cookieHeader(cookies),
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ _xsrf: xsrf, password }).toString(),
  })
  cookies = mergeCookies(cookies, parseSetCookies(res.headers, host))
  if (res.status !== 302 || !cookies.some((c) => c.name.startsWith('username-')))
    throw new Error(`Jupyter refused the password (${res.status})`)
  return { cookies, origins: [] }
}

export const app: AppDefinition = {
  name: 'jupyter',
  title: 'Jupyter Notebook',
  source: 'apt jupyter-notebook 6.4.12',
  about:
    'The classic notebook file browser drives a REST Contents API (/api/contents/<path>: GET, ' +
    'POST, PUT as base64 JSON, PATCH to rename, DELETE) with the _xsrf cookie echoed in an ' +
    'X-XSRFToken header (double-submit CSRF), behind a password form with a hidden _xsrf field.',
  unavailable: jupyterUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startJupyter(USER.password, options.lifetimeMs ?? 15 * 60_000)
    const { origin } = server
    return {
      origin,
      homePath: '/tree',
      user: USER,
      signIn: () => signIn(origin, USER.password),
      fetch: (path, init) => fetchWithSession(origin, path, init, { follow: true }),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
