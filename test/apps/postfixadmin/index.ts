/**
 * PostfixAdmin (Debian's `postfixadmin` package) in the real-app corpus: a PHP admin for virtual
 * mail domains that talks to its server through classic form posts to `edit.php?table=...`
 * carrying the session's CSRF `token`, GET links with the token (`editactive.php`), and a search
 * form posted to `list-virtual.php`.
 */
import type { AppDefinition, AppInstance } from '../types'
import { fetchWithSession } from '../sessionFetch'
import { ADMIN } from './seed'
import { pfaUnavailable, startPfaServer } from './server'
import { signInByHttp } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'postfixadmin',
  title: 'PostfixAdmin',
  source: 'apt postfixadmin 3.3.13-1+deb12u1 (SQLite), served by php -S (php-cli 8.2)',
  about:
    'Server-rendered forms: every create/edit posts value[field] pairs to edit.php?table=<t> ' +
    '(the edited id in the query as edit=) with a per-session CSRF token; enable/disable is a ' +
    'GET link carrying the token; delete a small POST form; search a POST of search[_].',
  unavailable: pfaUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startPfaServer(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: ADMIN.name, password: ADMIN.password }
    return {
      origin: server.origin,
      homePath: '/main.php',
      user,
      signIn: () => signInByHttp(server.origin, user),
      // Redirects are not followed: PostfixAdmin answers a saved form with a 302 to its list.
      fetch: (path, init) => fetchWithSession(server.origin, path, init),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
