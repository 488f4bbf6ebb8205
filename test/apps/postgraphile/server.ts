/**
 * Starts a private PostGraphile: a fresh PostgreSQL 15 cluster (Debian's binaries) in a temp
 * dir, seeded with the task tracker, and PostGraphile's CLI over it with the enhanced GraphiQL.
 * Two process groups, both on 127.0.0.1: `postgres` (run as `../postgresBinaries.ts` says) and
 * `node postgraphile/cli.js`.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import {
  freePort,
  instanceStopper,
  killOnExit,
  orStop,
  spawnServer,
  waitUntil,
  type ServerProcess,
} from '../childProcess'
import { postgresUnavailable, startPostgresCluster, stopPostgresCluster } from '../postgresBinaries'
import { DATABASE, seedSql } from './seed'

/** A running PostGraphile over its own PostgreSQL. */
export interface PostGraphileServer {
  origin: string
  /** `postgres://postgres@127.0.0.1:PORT/tracker`, for a look at the database itself. */
  databaseUrl: string
  /** Stops both servers and removes the temp dir. Safe to call twice. */
  close(): Promise<void>
}

/** Where postgraphile's `cli.js` is (a dev dependency of the repo), or null. */
function postgraphileCli(): string | null {
  try {
    const pkg = createRequire(import.meta.url).resolve('postgraphile/package.json')
    const cli = join(dirname(pkg), 'cli.js')
    return existsSync(cli) ? cli : null
  } catch {
    return null
  }
}

/** Why PostGraphile cannot start here (naming what to install), or null. */
export function postgraphileUnavailable(): string | null {
  const postgres = postgresUnavailable()
  if (postgres) return postgres
  if (!postgraphileCli())
    return 'postgraphile is missing from node_modules: it is a dev dependency of the repo (npm ci installs postgraphile@4.14.1)'
  return null
}

/**
 * A server plugin (`--plugins`, PostGraphile's `postgraphile:graphiql:html` hook) that keeps the
 * GraphiQL page from reaching the internet: the page loads Prettier 1.13 from unpkg.com (only
 * for its Prettify button, which falls back to GraphiQL's own printer when Prettier is absent)
 * and its logo from graphile.org. Everything else (React, GraphiQL, the explorer) is inline in
 * the page the package serves. The logo becomes the package's own favicon.
 */
const OFFLINE_GRAPHIQL_PLUGIN = `
module.exports = {
  'postgraphile:graphiql:html'(html) {
    return html
      .replace(/<script src="https:\\/\\/unpkg\\.com\\/[^"]*"><\\/script>/g, '')
      .split('https://www.graphile.org/images/postgraphile-tiny.optimized.svg')
      .join('/favicon.ico')
  },
}
`

/**
 * A `node -r` preload that makes every `require('graphql')` in the PostGraphile process load one
 * copy. npm's install of postgraphile 4.14.1 in this repo holds graphql 15.11.0 twice
 * (`postgraphile/node_modules/graphql` and `graphile-build-pg/node_modules/graphql`) next to the
 * repo's own graphql 16, and graphql refuses types from another copy: every query that reads a
 * column fails with 'Cannot use GraphQLNonNull "String!" from another module or realm'.
 */
function oneGraphqlPreload(graphqlDir: string): string {
  return `
const Module = require('module')
const root = ${JSON.stringify(graphqlDir)}
const resolve = Module._resolveFilename
Module._resolveFilename = function (request, parent, ...rest) {
  if (request === 'graphql' || request.startsWith('graphql/'))
    return resolve.call(this, root + request.slice('graphql'.length), parent, ...rest)
  return resolve.call(this, request, parent, ...rest)
}
`
}

/** postgraphile's own graphql 15 (the copy its schema builders were written against). */
function postgraphileGraphqlDir(cli: string): string {
  const pkg = createRequire(cli).resolve('graphql/package.json')
  return dirname(pkg)
}

/**
 * Builds a fresh cluster, seeds it and serves PostGraphile over it; stops by itself after
 * `lifetimeMs`. Rejects, after stopping and removing everything, when a step fails.
 */
export async function startPostGraphile(lifetimeMs: number): Promise<PostGraphileServer> {
  const cli = postgraphileCli()
  if (!cli)
    throw new Error('postgraphile is not installed (npm dev dependency postgraphile@4.14.1)')
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-postgraphile-'))
  let postgres: ServerProcess | null = null
  const forgets: Array<() => void> = []
  // The stopper's server is PostGraphile; postgres stops in the cleanup, after it.
  const stopper = instanceStopper(
    async () => {
      await stopPostgresCluster(postgres)
      for (const forget of forgets) forget()
      rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
    },
    { first: 'SIGKILL', graceMs: 5000 },
  )
  return orStop(stopper.stop, async () => {
    const { port: pgPort, psql } = await startPostgresCluster(dir, (server, forget) => {
      postgres = server
      forgets.push(forget)
    })
    await psql('postgres', ['-c', `create database ${DATABASE}`])
    const seedFile = join(dir, 'seed.sql')
    writeFileSync(seedFile, seedSql())
    await psql(DATABASE, ['-f', seedFile])

    // PostGraphile's own files: its server plugin and the graphql preload (see above).
    const own = join(dir, 'postgraphile')
    mkdirSync(own)
    const plugin = join(own, 'offline-graphiql.cjs')
    writeFileSync(plugin, OFFLINE_GRAPHIQL_PLUGIN)
    const preload = join(own, 'one-graphql.cjs')
    writeFileSync(preload, oneGraphqlPreload(postgraphileGraphqlDir(cli)))

    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    const databaseUrl = `postgres://postgres@127.0.0.1:${pgPort}/${DATABASE}`
    // --plugins must come first. No --watch (off by default: it would need a superuser event
    // trigger and adds a /graphql/stream event source to the page). cwd is the private dir so
    // no stray .postgraphilerc.js or postgraphile.tags.json5 is read.
    const server = spawnServer(
      process.execPath,
      [
        '-r',
        preload,
        cli,
        '--plugins',
        plugin,
        '-c',
        databaseUrl,
        '--host',
        '127.0.0.1',
        '--port',
        String(port),
        '--enhance-graphiql',
        '--disable-query-log',
      ],
      { cwd: own, output: { stdout: true, stderr: true } },
    )
    stopper.server = server.child
    forgets.push(killOnExit(server.child))
    stopper.expireAfter(lifetimeMs)
    // The page answers as soon as the server listens; the schema is ready once a query runs.
    let last = 'no answer'
    await waitUntil(
      'postgraphile',
      server.child,
      async () => {
        try {
          const res = await fetch(`${origin}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query: '{ allProjects { totalCount } }' }),
            signal: AbortSignal.timeout(5000),
          })
          last = `HTTP ${res.status}: ${(await res.text()).slice(0, 300)}`
          return res.ok && last.includes('"totalCount"')
        } catch (error) {
          last = String(error)
          return false
        }
      },
      { timeoutMs: 90_000, intervalMs: 250, detail: () => `${last}\n${server.log()}` },
    )
    return { origin, databaseUrl, close: stopper.stop }
  })
}
