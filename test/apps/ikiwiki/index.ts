/**
 * ikiwiki (Debian's `ikiwiki` package) in the real-app corpus: a wiki compiler whose pages are
 * static HTML files and whose every change goes through one CGI, `ikiwiki.cgi`, driven by a
 * `do=` field (edit, create, blog, rename, remove, prefs, signin) in GET queries and
 * multipart or urlencoded form posts that echo the session id (`sid`) as their CSRF token.
 */
import type { AppDefinition, AppInstance } from '../types'
import { fetchWithSession } from '../sessionFetch'
import { signInByHttp } from './keys'
import { MAIN_USER } from './seed'
import { ikiwikiUnavailable, startIkiwikiServer } from './server'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'ikiwiki',
  title: 'ikiwiki',
  source:
    'apt ikiwiki 3.20200202.3-1 (git as its RCS), its CGI run per request by a tiny Node server',
  about:
    'Static pages plus one CGI: forms come from GET ikiwiki.cgi?do=edit|create|blog|rename|' +
    'remove|prefs and post back to ikiwiki.cgi (the edit form as multipart, with the page, ' +
    'the text, the git rcsinfo and the sid that must equal the session cookie); a save answers ' +
    'a 302 to the rebuilt static page; attachments upload by XHR into a holding area first.',
  unavailable: ikiwikiUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startIkiwikiServer(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: MAIN_USER.name, password: MAIN_USER.password }
    return {
      origin: server.origin,
      homePath: '/',
      user,
      signIn: () => signInByHttp(server.origin, user),
      // Redirects are not followed: ikiwiki answers a save with a 302, which keys check.
      fetch: (path, init) => fetchWithSession(server.origin, path, init),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
