/**
 * HAProxy's statistics page (Debian's `haproxy` package) in the real-app corpus: a server-rendered
 * page behind HTTP Basic auth whose admin forms post actions to the stats URI itself.
 */
import type { AppDefinition, AppInstance } from '../types'
import { USER } from './seed'
import { haproxyUnavailable, startHaproxy } from './server'
import { fetchBasic, signInBasic } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'haproxy',
  title: 'HAProxy statistics page',
  source: 'apt haproxy 2.6.12-1+deb12u4 (its built-in stats page, `stats admin`)',
  about:
    'HTTP Basic auth only (no cookie, no token); one server-rendered page whose per-backend ' +
    'admin forms POST s=<server>&action=<maint|ready|drain|dhlth|...>&b=#<backend id> to the ' +
    'stats URI and get a 303 to /;st=DONE; the Scope box is a GET ?scope=; exports are /;csv ' +
    'and /;json.',
  unavailable: haproxyUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startHaproxy(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: USER.name, password: USER.password }
    return {
      origin: server.origin,
      homePath: '/',
      user,
      signIn: () => signInBasic(server.origin, user),
      // With a session: curl -u user:password (Basic is the whole login); redirects not followed.
      fetch: (path, init) => fetchBasic(server.origin, user, path, init),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
