/**
 * CUPS's web interface (Debian's `cups` package) in the real-app corpus: classic server-rendered
 * CGI pages whose forms post an `OP` field and an `org.cups.sid` token that must match the
 * cookie of the same name.
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppDefinition, AppInstance } from '../types'
import { cupsUnavailable, startCups } from './server'
import { fetchCups } from './session'
import { WORKFLOWS } from './workflows/index'

/**
 * Nobody signs in to this CUPS (its policy lets local requests do everything, see NOTES.md). The
 * contract still wants a fixed user; it is never typed anywhere.
 */
const USER = { name: 'printadmin', password: 'cups-unused-Basic-58' }

/** An anonymous browser holds nothing for CUPS until a CGI page sets `org.cups.sid`. */
const NO_SESSION: StorageState = { cookies: [], origins: [] }

export const app: AppDefinition = {
  name: 'cups',
  title: 'CUPS web interface',
  source: 'apt cups 2.4.2-3+deb12u9 (cupsd and its CGI web interface)',
  about:
    'Server-rendered CGI pages: GET lists (/printers/?QUERY=, /jobs/), and HTML forms that POST ' +
    'OP=<operation> to /jobs/, /printers/<name> or /admin with an org.cups.sid field that must ' +
    'equal the org.cups.sid cookie the first page set; jobs and queues are named by job_id and ' +
    'printer name; the add-printer wizard is five POSTs of OP=add-printer, the last multipart.',
  unavailable: cupsUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startCups(options.lifetimeMs ?? 15 * 60_000)
    return {
      origin: server.origin,
      homePath: '/',
      user: USER,
      signIn: () => Promise.resolve(NO_SESSION),
      // With a session: its cookies (an org.cups.sid, when a page set one); redirects not followed.
      fetch: (path, init) => fetchCups(server.origin, path, init),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
