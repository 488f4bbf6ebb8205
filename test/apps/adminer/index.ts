/**
 * Adminer (Debian's `adminer` package) in the real-app corpus: a one-file PHP database UI, here
 * over its own PostgreSQL 15. Classic server-rendered forms with a CSRF `token` field, the state
 * (server, user, database, table, row) in the query string, and a PHP session cookie.
 */
import type { AppDefinition, AppInstance } from '../types'
import { fetchWithSession } from '../sessionFetch'
import { DB_USER } from './seed'
import { adminerUnavailable, startAdminerServer } from './server'
import { signInByHttp } from './session'
import { WORKFLOWS } from './workflows/index'

/** An Adminer instance; `sql` reads the database directly (psql), for the answer keys. */
export interface AdminerInstance extends AppInstance {
  /** Runs a query in the shop database as the superuser; rows one a line, columns `|`-joined. */
  sql(query: string): Promise<string>
}

export const app: AppDefinition = {
  name: 'adminer',
  title: 'Adminer',
  source: 'apt adminer 4.8.1-1 (php-cli 8.2, php8.2-pgsql), over apt postgresql 15',
  about:
    'Classic server-rendered PHP forms: every page names server, user, database, schema and ' +
    'table in the query string (select=, edit=, sql=, dump=, create=); every post carries a ' +
    'CSRF token that is new on each page but valid for the whole PHP session; the login is a ' +
    'form post of auth[...] fields that answers with a redirect.',
  unavailable: adminerUnavailable,
  async start(options = {}): Promise<AdminerInstance> {
    const server = await startAdminerServer(options.lifetimeMs ?? 15 * 60_000)
    return {
      origin: server.origin,
      homePath: '/',
      user: { name: DB_USER.name, password: DB_USER.password },
      signIn: () => signInByHttp(server.origin),
      // Redirects are not followed: Adminer answers a saved form with a 302, which keys check.
      fetch: (path, init) => fetchWithSession(server.origin, path, init),
      sql: server.sql,
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
