/**
 * DAViCal 1.1.12 (Debian's `davical`) in the real-app corpus: a PHP CalDAV/CardDAV server over
 * PostgreSQL whose web admin pages (`admin.php?action=browse|edit&t=principal|collection`) list
 * principals in tables and edit them with multipart form posts carrying a CSRF token kept in PHP's
 * session; picks are ids from selects or from the row links of a list, and deletes are GET links
 * confirmed by a second GET that adds a hash.
 */
import type { AppDefinition, AppInstance } from '../types'
import { fetchWithSession } from '../sessionFetch'
import { ADMIN } from './seed'
import { davicalUnavailable, startDavicalServer } from './server'
import { signInByHttp } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'davical',
  title: 'DAViCal',
  source:
    'apt davical 1.1.12-2 (with libawl-php 0.64) over PostgreSQL 15, database built by its own ' +
    'dba/create-database.sh (libdbd-pg-perl, libyaml-perl), served by php -S (php8.2-cli, php8.2-pgsql)',
  about:
    'A CalDAV server administered through server-rendered pages: lists are GET ' +
    'admin.php?action=browse&t=principal&type=N (rows link to admin.php?action=edit&t=principal&id=N), ' +
    "every form is a multipart POST back to its page carrying a csrf_token from PHP's session and " +
    'naming the operation by its submit button (submit=Create, savegrouprow=Add, savegrantrow=Create), ' +
    'other principals are picked by id from selects, privileges are ticked checkboxes ' +
    "(grant_privileges[read]=on), a collection is created under the owner's user_no (not the " +
    'principal id), and a delete is a GET link confirmed by a second GET adding confirm=<hash>; ' +
    'login is a form post to index.php setting the sid cookie.',
  unavailable: davicalUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startDavicalServer(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: ADMIN.name, password: ADMIN.password }
    return {
      origin: server.origin,
      homePath: '/index.php',
      user,
      signIn: () => signInByHttp(server.origin, user),
      fetch: (path, init) => fetchWithSession(server.origin, path, init),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
