/**
 * Roundcube webmail (Debian's `roundcube` with `roundcube-sqlite3`) in the real-app corpus, with
 * a private Dovecot IMAP server behind it: a PHP app whose page script talks to its server
 * through `?_task=&_action=` GETs and form POSTs flagged `_remote=1`, answered with JSON that
 * carries JavaScript to run, and guarded by a per-session request token.
 */
import type { AppDefinition, AppInstance } from '../types'
import { fetchWithSession } from '../sessionFetch'
import { MAIN_USER } from './seed'
import { roundcubeUnavailable, startRoundcubeServer } from './server'
import { signInByHttp } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'roundcube',
  title: 'Roundcube Webmail',
  source:
    'apt roundcube 1.6.5+dfsg-1+deb12u13 (roundcube-core, roundcube-sqlite3) with dovecot-imapd ' +
    '2.3.19.1, served by php -S (php-cli 8.2)',
  about:
    'AJAX webmail: the page script sends GETs and form POSTs to /?_task=<task>&_action=<action> ' +
    'with _remote=1 and the session request token in the X-Roundcube-Request header, and gets ' +
    'JSON holding JavaScript to run; settings and contacts are classic form posts in iframes ' +
    'with a _token field; messages are named by IMAP UIDs.',
  unavailable: roundcubeUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startRoundcubeServer(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: MAIN_USER.name, password: MAIN_USER.password }
    return {
      origin: server.origin,
      homePath: '/',
      user,
      signIn: () => signInByHttp(server.origin, user),
      fetch: (path, init) => fetchWithSession(server.origin, path, init),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
