/**
 * Monit's web interface (Debian's `monit` package) in the real-app corpus: server-rendered pages
 * behind HTTP Basic auth, one page per service whose buttons POST a form with an `action` field
 * and a CSRF token that the server sets as a cookie and the form echoes.
 */
import type { AppDefinition } from '../types'
import { USER } from './seed'
import { monitUnavailable, startMonit } from './server'
import { fetchBasic, signInBasic } from './session'
import type { MonitInstance } from './keys'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'monit',
  title: 'Monit',
  source: 'apt monit 1:5.33.0-1 (its built-in web interface, `set httpd`)',
  about:
    'HTTP Basic auth only (no session); a server-rendered page per service (GET /<service>) ' +
    'whose buttons POST securitytoken=<token>&action=<start|stop|restart|monitor|unmonitor> ' +
    'to the same path and get a 302 back to it; the token is a double-submit CSRF check: every ' +
    'page sets it as the `securitytoken` cookie and writes it into its forms.',
  unavailable: monitUnavailable,
  async start(options = {}): Promise<MonitInstance> {
    const server = await startMonit(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: USER.name, password: USER.password }
    return {
      origin: server.origin,
      homePath: '/',
      user,
      signIn: () => signInBasic(server.origin, user),
      // With a session: curl -u user:password (Basic is the whole login); redirects not followed.
      fetch: (path, init) => fetchBasic(server.origin, user, path, init),
      close: server.close,
      seededPids: server.seededPids,
    }
  },
  workflows: WORKFLOWS,
}
