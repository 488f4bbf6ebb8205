/**
 * Shaarli (Debian's `shaarli` package) in the real-app corpus: a single-user PHP bookmarking app
 * whose UI talks to its server through server-rendered pages and classic forms, each carrying a
 * one-time CSRF `token` from the page's HTML; bookmarks are addressed by numeric ids picked from
 * the list. Its REST API (`/api/v1`, JWT) is not used by the UI; the keys read state through it.
 */
import type { AppDefinition, AppInstance } from '../types'
import { fetchWithSession } from '../sessionFetch'
import { USER } from './seed'
import { shaarliUnavailable, startShaarliServer } from './server'
import { signInByHttp } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'shaarli',
  title: 'Shaarli',
  source: 'apt shaarli 0.12.1+dfsg-8+deb12u2 (Slim 3, RainTPL), served by php -S (php-cli 8.2)',
  about:
    'Server-rendered pages and urlencoded/multipart form posts, each with a one-time `token` ' +
    'read from the page (Shaarli forgets a token once checked); search and tag filters are GET ' +
    'query fields on the home page; edits name the bookmark by the numeric `lf_id` taken from the ' +
    'list, deletes are a GET link carrying the id and the list page token; the login is a form ' +
    'post that sets a PHP session and a stay-signed-in cookie.',
  unavailable: shaarliUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startShaarliServer(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: USER.name, password: USER.password }
    return {
      origin: server.origin,
      homePath: '/',
      user,
      signIn: () => signInByHttp(server.origin, user),
      // Redirects are not followed: Shaarli answers every save with a 302, which keys check.
      fetch: (path, init) => fetchWithSession(server.origin, path, init),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
