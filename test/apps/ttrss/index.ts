/**
 * Tiny Tiny RSS (Debian's `tt-rss` package) in the real-app corpus: a PHP feed reader over
 * PostgreSQL whose page script (dojo) talks to `backend.php` with form POSTs that name the
 * operation in the `op` and `method` fields and carry the session's `csrf_token`, answered with
 * JSON (or HTML fragments for dialogs); feeds, articles, categories and labels are numeric ids.
 */
import type { AppDefinition, AppInstance } from '../types'
import { fetchWithSession } from '../sessionFetch'
import { MAIN_USER } from './seed'
import { startTtrssServer, ttrssUnavailable } from './server'
import { signInByHttp } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'ttrss',
  title: 'Tiny Tiny RSS',
  source:
    'apt tt-rss 21~git20210204.b4cbc79+dfsg-1.2 over PostgreSQL 15 (postgresql-15), served by ' +
    'php -S (php-cli 8.2, php-pgsql)',
  about:
    'A single-page feed reader: every UI action is a form POST to /backend.php naming the ' +
    'operation in `op` and `method` (op=feeds&method=view, op=rpc&method=markSelected, ' +
    'op=pref-feeds&method=editSave, ...) with the session CSRF token in the `csrf_token` field ' +
    '(printed into the page), answered with JSON or HTML fragments; feeds, articles, categories ' +
    'and labels are numeric ids from earlier answers; login is a form post to public.php.',
  unavailable: ttrssUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startTtrssServer(options.lifetimeMs ?? 15 * 60_000)
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
