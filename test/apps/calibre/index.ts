/**
 * calibre's content server (Debian's `calibre`) in the real-app corpus: an e-book library
 * served as a single-page web app behind HTTP Digest auth, whose pages talk to the server with
 * JSON reads (`/interface-data/...`, the search and sort in the query), JSON posts to
 * `/cdb/...` naming the book id and library in the path (metadata edits, deletes), raw-body
 * uploads (`/cdb/add-book/<job>/<dups>/<filename>/<library>`) and file downloads
 * (`/get/<FORMAT>/<book>/<library>`).
 */
import type { AppDefinition, AppInstance } from '../types'
import { digestClient } from './digest'
import { USER } from './seed'
import { calibreUnavailable, startCalibre } from './server'
import { signInDigest } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'calibre',
  title: 'calibre content server',
  source: 'apt calibre 6.13.0+repack-2+deb12u10 (calibre-server, --auth-mode digest)',
  about:
    'HTTP Digest auth only (no session cookie); a single-page app that loads the library with ' +
    'GET /interface-data/init and searches with GET /interface-data/books-init?search=...' +
    '&sort=...&<timestamp>; edits post JSON {changes: {...}} to /cdb/set-fields/<book id>/' +
    '<library>, deletes post to /cdb/delete-books/<ids>/<library>, an upload posts the raw ' +
    'file to /cdb/add-book/<job>/n/<file name>/<library>, downloads GET /get/<FORMAT>/<id>/' +
    '<library>, and UI preferences post JSON to /interface-data/set-session-data; book ids ' +
    'come from the search answers.',
  unavailable: calibreUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startCalibre(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: USER.name, password: USER.password }
    return {
      origin: server.origin,
      homePath: '/',
      user,
      signIn: () => signInDigest(server.origin, user),
      // With a session: curl --digest -u user:password (Digest is the whole login).
      fetch: digestClient(server.origin, user),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
