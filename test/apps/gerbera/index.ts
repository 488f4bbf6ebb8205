/**
 * Gerbera (Debian's `gerbera` package) in the real-app corpus: a UPnP media server whose web UIs
 * talk to one endpoint, `/content/interface`, with the operation in the query (`req_type`, and
 * `action`), a session id the server hands out carried in the query (`sid`), object ids picked by
 * clicking folders and items in a tree, and every write a GET.
 */
import type { AppDefinition, AppInstance } from '../types'
import { fetchWithSession } from '../sessionFetch'
import { ACCOUNT } from './seed'
import { gerberaUnavailable, startGerberaServer } from './server'
import { signInByHttp } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'gerbera',
  title: 'Gerbera',
  source: 'apt gerbera 1.1.0+dfsg-3.1+b1 (libupnp 1.8.4)',
  about:
    'One endpoint, GET /content/interface, with the operation in req_type (and action for ' +
    'auth and autoscan): the session id from auth/get_sid rides in the query (sid=), the login ' +
    'sends md5(token + password) from auth/get_token, folders and items are numeric ids from ' +
    'containers/items lists (hex-encoded paths in the Filesystem view), writes (add, remove, ' +
    'edit_save, add_object, autoscan as_edit_save) are GETs too; the classic UI asks for XML ' +
    'answers (return_type=xml), the new UI reads JSON.',
  unavailable: gerberaUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startGerberaServer(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: ACCOUNT.name, password: ACCOUNT.password }
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
