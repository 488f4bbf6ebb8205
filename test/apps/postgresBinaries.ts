/**
 * Debian's PostgreSQL 15 binaries for the corpus apps that keep their data in PostgreSQL
 * (PostGraphile, Adminer, Tiny Tiny RSS): where they are, whether they can run here, and a private
 * cluster in a temp dir (`startPostgresCluster`). initdb
 * and postgres refuse to run as root, so as root (CI) they run as Debian's `postgres` system user
 * through `setpriv` (which execs, so postgres itself leads its process group), in a temp dir that
 * user owns; as any other user they run as that user.
 */
import { execFile, execFileSync } from 'node:child_process'
import { chownSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import {
  freePort,
  killGroup,
  killOnExit,
  spawnServer,
  waitUntil,
  type ServerProcess,
} from './childProcess'

const run = promisify(execFile)

/** Debian's PostgreSQL 15 server binaries (package `postgresql-15`, pulled in by `postgresql`). */
export const PG_BIN = '/usr/lib/postgresql/15/bin'
const SETPRIV = '/usr/bin/setpriv'
/** The system user Debian's package creates; initdb and postgres run as it when we are root. */
const PG_USER = 'postgres'

const isRoot = (): boolean => process.getuid?.() === 0

/** Why PostgreSQL cannot run here (naming the package to install), or null. */
export function postgresUnavailable(): string | null {
  for (const bin of ['initdb', 'postgres', 'pg_isready', 'psql'])
    if (!existsSync(join(PG_BIN, bin)))
      return `PostgreSQL 15 is not installed (${PG_BIN}/${bin}): apt-get install postgresql`
  if (isRoot()) {
    if (!existsSync(SETPRIV)) return 'setpriv is missing: apt-get install util-linux'
    try {
      execFileSync('id', ['-u', PG_USER], { stdio: 'ignore' })
    } catch {
      return `there is no ${PG_USER} user to run PostgreSQL as root: apt-get install postgresql`
    }
  }
  return null
}

/** `[command, args]` that runs a PostgreSQL binary as the postgres user when we are root. */
export function asPgUser(bin: string, args: string[]): [string, string[]] {
  const path = join(PG_BIN, bin)
  if (!isRoot()) return [path, args]
  return [
    SETPRIV,
    [`--reuid=${PG_USER}`, `--regid=${PG_USER}`, '--init-groups', '--', path, ...args],
  ]
}

/** Gives `dir` to the postgres user (as root), so initdb can write the cluster into it. */
export function handToPgUser(dir: string): void {
  if (!isRoot()) return
  const id = (flag: string) => Number(execFileSync('id', [flag, PG_USER], { encoding: 'utf8' }))
  chownSync(dir, id('-u'), id('-g'))
}

/** A private cluster started by {@link startPostgresCluster}. */
export interface PostgresCluster {
  /** Its TCP port on 127.0.0.1. */
  port: number
  /** Runs `psql` on database `db` as `postgres` over the cluster's socket; resolves its output. */
  psql(db: string, args: string[]): Promise<string>
}

/**
 * A fresh PostgreSQL 15 cluster in `dir` (which the caller made and removes), listening on a free
 * 127.0.0.1 port and a socket in `dir`, with durability off (it is thrown away with the dir).
 * Local (socket) connections are trusted; TCP ones use `hostAuth` (an app that signs in with a
 * password: `scram-sha-256`). `started` gets the postmaster as soon as it is spawned, so the
 * caller's stop can end it even when the wait for it fails. Rejects when initdb fails or the
 * server does not answer within 60 s (its log in the message).
 */
export async function startPostgresCluster(
  dir: string,
  started: (server: ServerProcess, forget: () => void) => void,
  hostAuth: 'trust' | 'scram-sha-256' = 'trust',
): Promise<PostgresCluster> {
  handToPgUser(dir)
  const data = join(dir, 'data')
  const [initdb, initdbArgs] = asPgUser('initdb', [
    ...['-D', data, '-U', 'postgres', '--auth-local=trust', `--auth-host=${hostAuth}`],
    ...['-E', 'UTF8', '--locale=C.UTF-8', '--no-sync', '--no-instructions'],
  ])
  await run(initdb, initdbArgs, { cwd: dir, timeout: 120_000 })
  const port = await freePort()
  const [pgBin, pgArgs] = asPgUser('postgres', [
    ...['-D', data, '-k', dir, '-h', '127.0.0.1', '-p', String(port)],
    ...['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
  ])
  const server = spawnServer(pgBin, pgArgs, { cwd: dir, output: { stderr: true } })
  started(server, killOnExit(server.child))
  await waitUntil(
    'postgres',
    server.child,
    async () => {
      try {
        await run(join(PG_BIN, 'pg_isready'), ['-q', '-h', '127.0.0.1', '-p', String(port)])
        return true
      } catch {
        return false
      }
    },
    { timeoutMs: 60_000, intervalMs: 200, detail: () => server.log() },
  )
  return {
    port,
    psql: async (db, args) => {
      const { stdout } = await run(
        join(PG_BIN, 'psql'),
        [
          ...['-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', '-h', dir, '-p', String(port)],
          ...['-U', 'postgres', '-d', db, ...args],
        ],
        { cwd: dir, timeout: 60_000 },
      )
      return stdout
    },
  }
}

/**
 * Stops a cluster's postmaster: a fast shutdown (SIGINT), then SIGKILL after 5 s. Its children
 * each call setsid(), so the group signal reaches the postmaster only; it ends them itself.
 */
export async function stopPostgresCluster(server: ServerProcess | null): Promise<void> {
  await killGroup(server?.child, { first: 'SIGINT', graceMs: 5000 })
}
