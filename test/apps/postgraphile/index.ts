/**
 * PostGraphile 4.14.1 (npm) over Debian's PostgreSQL 15 in the real-app corpus: a GraphQL API
 * generated from a PostgreSQL schema, used through its enhanced GraphiQL page, where a developer
 * types queries and mutations and runs them. Every operation is `POST /graphql` with a JSON body
 * `{query, variables, operationName}`: the operation's name tells the requests apart.
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppDefinition, AppInstance } from '../types'
import { postgraphileUnavailable, startPostGraphile } from './server'
import { WORKFLOWS } from './workflows/index'

/**
 * The API runs anonymous (see NOTES.md: no JWT), so nobody signs in. The contract still wants a
 * fixed user: PostgreSQL's superuser, whom PostGraphile connects as (trust auth on loopback, so
 * the password is never asked for nor typed).
 */
const USER = { name: 'postgres', password: 'pg-Trust-unused-15' }

/** An anonymous GraphiQL holds nothing: no cookie, no localStorage. */
const NO_SESSION: StorageState = { cookies: [], origins: [] }

export const app: AppDefinition = {
  name: 'postgraphile',
  title: "PostGraphile's GraphiQL",
  source: 'npm postgraphile@4.14.1 over apt postgresql 15 (postgresql-15 15.18-0+deb12u1)',
  about:
    'GraphQL over one URL: GraphiQL posts every operation to POST /graphql as JSON ' +
    '{query, variables, operationName}; values sit inline in the query text or in variables, ' +
    'ids and Relay nodeIds come from earlier answers; the page loads the schema by introspection.',
  unavailable: postgraphileUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startPostGraphile(options.lifetimeMs ?? 15 * 60_000)
    const { origin } = server
    return {
      origin,
      homePath: '/graphiql',
      user: USER,
      signIn: () => Promise.resolve(NO_SESSION),
      fetch(path, init = {}) {
        // No session to add: the API takes plain requests.
        const { session: _session, ...rest } = init
        return fetch(`${origin}${path}`, rest)
      },
      close: () => server.close(),
    }
  },
  workflows: WORKFLOWS,
}
