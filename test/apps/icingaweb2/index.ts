/**
 * Icinga Web 2 (Debian's `icingaweb2`) in the real-app corpus: the PHP web interface of the Icinga
 * monitoring stack, run here without any monitoring core, for its own administration: users and
 * groups in its database backend, roles, menu entries, preferences. Its pages are Zend forms that
 * post back to their own URL with a per-form `CSRFToken` and `formUID`; in the browser its script
 * loads every page and form answer by XHR into columns (`X-Requested-With`, `X-Icinga-Container`)
 * and follows `X-Icinga-Redirect` headers instead of HTTP redirects.
 */
import type { AppDefinition, AppInstance } from '../types'
import { fetchWithSession } from '../sessionFetch'
import { ADMIN } from './seed'
import { icingawebUnavailable, startIcingawebServer } from './server'
import { signInByHttp } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'icingaweb2',
  title: 'Icinga Web 2',
  source:
    'apt icingaweb2 2.11.4-2+deb12u1 (with php-icinga, icinga-php-library) over PostgreSQL 15, ' +
    'served by php -S (php8.2-cli, php8.2-pgsql)',
  about:
    'A monitoring web interface administered in its own pages: server-rendered Zend forms that ' +
    'post back to their URL (`/user/add?backend=...`, `/group/addmember?group=...`, `/role/add`, ' +
    '`/navigation/add`, `/account`) with a per-form CSRFToken and formUID, sent by XHR by the ' +
    "page's script, which follows X-Icinga-Redirect answers; rows are named by query fields " +
    '(`user=`, `group=`); the user list searches by a `q` field; login is a cookie form login.',
  unavailable: icingawebUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startIcingawebServer(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: ADMIN.name, password: ADMIN.password }
    return {
      origin: server.origin,
      homePath: '/dashboard',
      user,
      signIn: () => signInByHttp(server.origin, user),
      fetch: (path, init) => fetchWithSession(server.origin, path, init),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
