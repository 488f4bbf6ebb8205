/**
 * DokuWiki (Debian's `dokuwiki` package) in the real-app corpus: a PHP wiki that talks to its
 * server through classic form posts carrying a `sectok` CSRF token, GET pages with `do=` actions
 * and `lib/exe/ajax.php` calls named by `call=`.
 */
import type { AppDefinition, AppInstance } from '../types'
import { MAIN_USER } from './seed'
import { dokuUnavailable, startDokuServer } from './server'
import { fetchWithSession } from '../sessionFetch'
import { signInByHttp } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'dokuwiki',
  title: 'DokuWiki',
  source: 'apt dokuwiki 0.0.20220731 (2022-07-31b "Igor"), served by php -S (php-cli 8.2)',
  about:
    'Classic server-rendered forms: saves post the whole page text with a per-session sectok, ' +
    'the edit date and a changecheck hash; search is a GET with do=search; the quick search ' +
    'and the media manager use lib/exe/ajax.php with call=; uploads are raw XHR bodies.',
  unavailable: dokuUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startDokuServer(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: MAIN_USER.name, password: MAIN_USER.password }
    return {
      origin: server.origin,
      homePath: '/doku.php',
      user,
      signIn: () => signInByHttp(server.origin, user),
      // Redirects are not followed: DokuWiki answers a save with a 302/303, which keys check.
      fetch: (path, init) => fetchWithSession(server.origin, path, init),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
