/**
 * hledger-web 1.25 (Debian's `hledger-web`, Haskell/Yesod) in the real-app corpus: the web UI of
 * the plain-text accounting tool hledger, over one journal file. Reads are server-rendered pages
 * filtered by an hledger query in `q` (`/journal?q=desc:cafe`, `/register?q=inacct:<account>`);
 * a transaction is added by a urlencoded form post to `/add` (repeated `account`/`amount`
 * fields, Yesod's CSRF `_token`); the manage page edits, uploads and downloads the journal file
 * at URLs that hold its absolute path.
 */
import type { AppDefinition, AppInstance } from '../types'
import { fetchWithSession } from '../sessionFetch'
import { openSession } from './keys'
import { hledgerWebUnavailable, startHledgerWeb } from './server'
import { WORKFLOWS } from './workflows/index'

/**
 * hledger-web has no login, so nobody signs in. The contract still wants a fixed user; this
 * password is never typed and appears in no request.
 */
const USER = { name: 'sam', password: 'hledger-no-login-Unused-41' }

export const app: AppDefinition = {
  name: 'hledgerweb',
  title: 'hledger-web',
  source: 'apt hledger-web 1.25-1 (Yesod on Warp), run in a private mount namespace',
  about:
    'No login; server-rendered pages filtered by an hledger query in `q` (GET /journal?q=, ' +
    '/register?q=inacct:<account>), a modal add form posted urlencoded to /add with repeated ' +
    '`account`/`amount` fields, `_formid` and the session-bound CSRF `_token` (answered 303), ' +
    'and the manage page: /edit/<path> posts the whole file as one textarea, /upload/<path> ' +
    'posts it as multipart, /download/<path> answers it as an attachment (<path> is the ' +
    "journal's absolute path, percent-encoded).",
  unavailable: hledgerWebUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startHledgerWeb(options.lifetimeMs ?? 15 * 60_000)
    return {
      origin: server.origin,
      homePath: '/journal',
      user: USER,
      signIn: () => openSession(server.origin),
      // Redirects are not followed: hledger-web answers a saved form with a 303, which keys see.
      fetch: (path, init) => fetchWithSession(server.origin, path, init),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
