/**
 * ZNC (Debian's `znc` package) in the real-app corpus: an IRC bouncer whose webadmin module is
 * server-rendered HTML with a cookie form login and full-form posts that carry a per-session
 * `_CSRF_Check` token, with users and networks picked from lists and confirmation pages before
 * deletes.
 */
import type { AppDefinition, AppInstance } from '../types'
import { fetchWithSession } from '../sessionFetch'
import { ADMIN } from './seed'
import { startZncServer, zncUnavailable } from './server'
import { signInByHttp } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'znc',
  title: 'ZNC',
  source: 'apt znc 1.8.2-3.1+deb12u2 (webadmin module)',
  about:
    'Server-rendered webadmin pages under /mods/global/webadmin/: a cookie form login at /login, ' +
    'forms that post every field of a user, network or the global settings back with the ' +
    "session's _CSRF_Check token read from the form page, the user or network named in the " +
    'body (the form page names it in the query), and a confirmation page before a delete.',
  unavailable: zncUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startZncServer(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: ADMIN.name, password: ADMIN.password }
    return {
      origin: server.origin,
      homePath: '/',
      user,
      signIn: () => signInByHttp(server.origin, user),
      // Redirects are not followed: ZNC answers a saved form with a 302, which keys check.
      fetch: (path, init) => fetchWithSession(server.origin, path, init),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
