/**
 * mlmmj's PHP web admin (Debian's `mlmmj-php-web-admin`) in the real-app corpus: four
 * server-rendered PHP pages over mlmmj's list directories, behind HTTP Basic auth (Debian's
 * `.htaccess`), with plain HTML forms and no script, no cookie and no token.
 */
import type { AppDefinition, AppInstance } from '../types'
import { USER } from './seed'
import { mlmmjUnavailable, startMlmmjServer } from './server'
import { fetchBasic, signInBasic } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'mlmmj',
  title: 'mlmmj web admin',
  source:
    'apt mlmmj-php-web-admin 1.3.0-4 (with mlmmj 1.3.0-4), served by php -S (php8.2-cli); ' +
    'its template class and tunables.pl get the mechanical fixes PHP 8 needs (NOTES.md)',
  about:
    'HTTP Basic auth only (no cookie, no token); four PHP pages with plain HTML forms, the list ' +
    'named by a `list` query or form field: the Config page (GET /edit.php?list=) whose one form ' +
    'POSTs every tunable to /save.php, which rewrites them all (a field left out is deleted, a ' +
    'box left out switched off); the Subscribers page (GET /subscribers.php?list=) whose forms ' +
    "POST back to it, `tosubscribe` with submit=Add, or a row's `email` with delete=Remove.",
  unavailable: mlmmjUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startMlmmjServer(options.lifetimeMs ?? 15 * 60_000)
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
