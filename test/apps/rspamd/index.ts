/**
 * Rspamd's controller web UI (Debian's `rspamd` package) in the real-app corpus: a jQuery
 * single-page app that talks JSON to the controller worker, authenticated by a `Password` request
 * header it keeps in sessionStorage after its login dialog.
 */
import type { AppDefinition, AppInstance } from '../types'
import { USER } from './seed'
import { rspamdUnavailable, startRspamd } from './server'
import { fetchRspamd, signInRspamd } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'rspamd',
  title: 'Rspamd web UI',
  source: 'apt rspamd 3.4-1 (the controller worker and its web UI)',
  about:
    'A jQuery single-page UI whose every call to the controller carries the password as a ' +
    '`Password` header (no cookie, no token); reads are GETs answering JSON (/stat, /history, ' +
    '/symbols, /maps, /getmap with a `Map: <id>` header), writes POST a raw message ' +
    '(/checkv2, /learnspam, /learnham), a JSON array of {name, value} (/savesymbols) or a ' +
    "map's whole text (/savemap with `Map: <id>`); resetting history is a GET /historyreset.",
  unavailable: rspamdUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startRspamd(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: USER.name, password: USER.password }
    return {
      origin: server.origin,
      homePath: '/',
      user,
      signIn: () => signInRspamd(server.origin, user.password),
      // With a session: curl -H 'Password: …' (the header is the whole login).
      fetch: (path, init) => fetchRspamd(server.origin, user.password, path, init),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
