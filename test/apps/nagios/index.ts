/**
 * Nagios Core 4's web interface (Debian's `nagios4`) in the real-app corpus: CGIs behind HTTP
 * Basic auth, read as server-rendered pages, whose commands are one form POST to cmd.cgi told
 * apart by `cmd_typ`, guarded by a double-submit CSRF cookie.
 */
import type { AppDefinition, AppInstance } from '../types'
import { USER } from './seed'
import { nagiosUnavailable, startNagios } from './server'
import { fetchBasic, signInBasic } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'nagios',
  title: 'Nagios Core',
  source: 'apt nagios4 4.4.6-4+deb12u2 (nagios4-core, nagios4-cgi; served by apt apache2 2.4.71)',
  about:
    'HTTP Basic auth only (Apache, htpasswd); a frames page (PHP) whose menu opens CGI pages ' +
    '(status.cgi, extinfo.cgi) in the main frame; every command is a GET of cmd.cgi?cmd_typ=N ' +
    '(a form that sets the CSRF cookie NagFormId and the hidden field nagFormId) then a POST of ' +
    'cmd.cgi with cmd_typ, cmd_mod=2, the fields and the token; hosts, services and comments ' +
    'are named by name and comment id.',
  unavailable: nagiosUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startNagios(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: USER.name, password: USER.password }
    return {
      origin: server.origin,
      homePath: '/nagios4/',
      user,
      signIn: () => signInBasic(server.origin, user),
      // With a session: curl -u user:password (Basic is the whole login); redirects not followed.
      fetch: (path, init) => fetchBasic(server.origin, user, path, init),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
