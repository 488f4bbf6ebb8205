/**
 * phpLDAPadmin (Debian's `phpldapadmin` package) in the real-app corpus: a PHP admin UI for an
 * LDAP directory (here a private OpenLDAP slapd) whose every page is `cmd.php?cmd=...`, with the
 * entry a page works on named by its whole DN in the query or the form body.
 */
import type { AppDefinition, AppInstance } from '../types'
import { fetchWithSession } from '../sessionFetch'
import { ADMIN } from './seed'
import { plaUnavailable, startPlaServer } from './server'
import { signInByHttp } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'phpldapadmin',
  title: 'phpLDAPadmin',
  source:
    'apt phpldapadmin 1.2.6.3-0.3+deb12u1 over slapd 2.5.13+dfsg-5 (OpenLDAP), served by php -S (php-cli 8.2)',
  about:
    'Every page and action is cmd.php?cmd=<name>: entries are named by their whole DN in the ' +
    'query (dn=uid%3Dalice%2Cou%3Dpeople...) or the form body, edits go through a confirm page ' +
    '(update_confirm) whose form carries the old and new values, and the login is a session ' +
    'cookie set by a form post, with no CSRF token anywhere.',
  unavailable: plaUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startPlaServer(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: ADMIN.dn, password: ADMIN.password }
    return {
      origin: server.origin,
      homePath: '/index.php',
      user,
      signIn: () => signInByHttp(server.origin, user),
      fetch: (path, init) => fetchWithSession(server.origin, path, init),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
