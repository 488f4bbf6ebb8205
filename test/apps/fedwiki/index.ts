/**
 * Federated Wiki (npm `wiki`, Ward Cunningham's wiki of JSON pages) in the real-app corpus. The
 * browser client reads each page as `GET /<slug>.json`, renders it, and saves every edit as one
 * entry of the page's action journal, `PUT /page/<slug>/action` with a form field `action` that
 * holds the action as JSON (`create`, `add`, `edit`, `move`, `remove`, `fork`), naming paragraphs
 * by random 16-hex ids; search runs in the browser over `/system/site-index.json`; a page is
 * deleted with `DELETE /<slug>.json`. Writing needs the site's owner, signed in with the friends
 * security module's reclaim code (a session cookie).
 */
import type { AppDefinition, AppInstance } from '../types'
import { fetchWithSession } from '../sessionFetch'
import { OWNER } from './seed'
import { fedWikiUnavailable, startFedWiki } from './server'
import { signInByHttp } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'fedwiki',
  title: 'Federated Wiki',
  source: 'npm wiki@0.40.2 (wiki-server 0.x, wiki-client 0.32, wiki-security-friends 0.3.1)',
  about:
    'A wiki of JSON pages rendered by its browser client, which saves every edit as a journal ' +
    'action: PUT /page/<slug>/action with a form field `action` holding JSON (create, add, edit, ' +
    'move, remove) that names paragraphs by random ids; search runs in the browser over ' +
    '/system/site-index.json; DELETE /<slug>.json deletes a page; the owner signs in by posting ' +
    'a reclaim code (session cookie).',
  unavailable: fedWikiUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startFedWiki(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: OWNER.name, password: OWNER.secret }
    return {
      origin: server.origin,
      homePath: '/view/welcome-visitors',
      user,
      signIn: () => signInByHttp(server.origin, user.password),
      fetch: (path, init) => fetchWithSession(server.origin, path, init),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
