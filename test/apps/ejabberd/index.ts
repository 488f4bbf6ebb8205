/**
 * ejabberd's web admin (Debian's `ejabberd` package, XMPP server) in the real-app corpus:
 * server-rendered pages behind HTTP Basic auth whose forms post back to their own URL, the pressed
 * submit button's name telling the action apart; ids are JIDs' local parts and group names in
 * path segments, and one per-row button is named by an encoded Erlang term.
 */
import type { AppDefinition } from '../types'
import { USER } from './seed'
import { ejabberdUnavailable, startEjabberd } from './server'
import { fetchBasic, signInBasic, type EjabberdInstance } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'ejabberd',
  title: 'ejabberd web admin',
  source: 'apt ejabberd 23.01-1 (its web admin, `ejabberd_web_admin`)',
  about:
    'HTTP Basic auth only, the user name a whole JID (no cookie, no token); server-rendered ' +
    'pages under /admin/server/<host>/ whose one form posts back to the page itself with the ' +
    'pressed submit button as a field (addnewuser, chpassword, removeuser, addjid, addnew, ' +
    "submit); accounts and groups are path segments, a roster row's Remove button is named " +
    'remove<base64 of an Erlang term>.',
  unavailable: ejabberdUnavailable,
  async start(options = {}): Promise<EjabberdInstance> {
    const server = await startEjabberd(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: USER.name, password: USER.password }
    return {
      origin: server.origin,
      homePath: '/admin/',
      user,
      signIn: () => signInBasic(server.origin, user),
      // With a session: curl -u user:password (Basic is the whole login); redirects not followed.
      fetch: (path, init) => fetchBasic(server.origin, user, path, init),
      close: server.close,
      api: server.api,
    }
  },
  workflows: WORKFLOWS,
}
