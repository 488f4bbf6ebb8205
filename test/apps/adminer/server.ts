/**
 * Starts a private Adminer: a fresh PostgreSQL 15 cluster (Debian's binaries) in a temp dir,
 * seeded with the shop database, and PHP's built-in server serving Debian's single-file
 * `adminer.php` from the same dir. Two process groups, both on 127.0.0.1: `postgres` and `php -S`.
 *
 * initdb and postgres refuse to run as root, so as root (CI) both run as Debian's `postgres`
 * system user through `setpriv` (which execs, so postgres itself leads its process group), in a
 * temp dir that user owns; as any other user they run as that user.
 */
import { execFile, execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import {
  freePort,
  instanceStopper,
  killGroup,
  killOnExit,
  orStop,
  spawnServer,
  waitForHttp,
  waitUntil,
  type ServerProcess,
} from '../childProcess'
import { asPgUser, handToPgUser, PG_BIN, postgresUnavailable } from '../postgresBinaries'
import { DATABASE, DB_USER, seedSql } from './seed'

const run = promisify(execFile)

/** Debian's compiled Adminer (package `adminer`). */
export const ADMINER_PHP = '/usr/share/adminer/adminer.php'
const PHP = '/usr/bin/php'

/** A running Adminer over its own PostgreSQL. */
export interface AdminerServer {
  origin: string
  /** The port PostgreSQL listens on (127.0.0.1), which php passes to libpq as PGPORT. */
  pgPort: number
  /**
   * Runs `query` in the shop database as the superuser (psql over the cluster's socket, no
   * Adminer involved) and returns its rows, one a line, columns joined by `|` (psql -At).
   * Throws with psql's error when the query fails.
   */
  sql(query: string): Promise<string>
  /** Stops both servers and removes the temp dir. Safe to call twice. */
  close(): Promise<void>
}

/** Why Adminer cannot start here (naming what to install), or null. */
export function adminerUnavailable(): string | null {
  if (!existsSync(ADMINER_PHP)) return 'Adminer is not installed: apt-get install adminer'
  if (!existsSync(PHP)) return 'php is not installed: apt-get install php-cli'
  try {
    execFileSync(PHP, ['-r', 'exit(extension_loaded("pgsql") ? 0 : 1);'], { stdio: 'ignore' })
  } catch {
    return "php's PostgreSQL extension is missing: apt-get install php-pgsql"
  }
  const postgres = postgresUnavailable()
  if (postgres) return postgres
  return null
}

/**
 * Adminer's entry script: Debian's adminer.php, with one thing set first. Adminer's pages load
 * an iframe from www.adminer.org to check for a newer version unless the browser holds an
 * `adminer_version` cookie; this closed network has no internet, so the instance says the
 * version is known and no page reaches out.
 */
const INDEX_PHP = `<?php
$_COOKIE['adminer_version'] = '4.8.1';
include __DIR__ . '/adminer.php';
`

/**
 * Builds a fresh cluster, seeds it and serves Adminer; stops by itself after `lifetimeMs`.
 * Rejects, after stopping and removing everything, when a step fails.
 */
export async function startAdminerServer(lifetimeMs: number): Promise<AdminerServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-adminer-'))
  let postgres: ServerProcess | null = null
  const forgets: Array<() => void> = []
  // The stopper's server is php; postgres stops in the cleanup, after it.
  const stopper = instanceStopper(async () => {
    // A fast shutdown (SIGINT to the postmaster, which ends its own children), then SIGKILL.
    await killGroup(postgres?.child, { first: 'SIGINT', graceMs: 5000 })
    for (const forget of forgets) forget()
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
  })
  return orStop(stopper.stop, async () => {
    handToPgUser(dir)
    const data = join(dir, 'data')
    // Local (socket) connections are trusted, for the seed and the keys' reads; TCP, which
    // Adminer uses, asks for the password.
    const [initdb, initdbArgs] = asPgUser('initdb', [
      ...['-D', data, '-U', 'postgres', '--auth-local=trust', '--auth-host=scram-sha-256'],
      ...['-E', 'UTF8', '--locale=C.UTF-8', '--no-sync', '--no-instructions'],
    ])
    await run(initdb, initdbArgs, { cwd: dir, timeout: 120_000 })

    const pgPort = await freePort()
    // Durability off: the cluster is thrown away with the temp dir.
    const [pgBin, pgArgs] = asPgUser('postgres', [
      ...['-D', data, '-k', dir, '-h', '127.0.0.1', '-p', String(pgPort)],
      ...['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    ])
    postgres = spawnServer(pgBin, pgArgs, { cwd: dir, output: { stderr: true } })
    forgets.push(killOnExit(postgres.child))
    const pg = postgres
    await waitUntil(
      'postgres',
      pg.child,
      async () => {
        try {
          await run(join(PG_BIN, 'pg_isready'), ['-q', '-h', '127.0.0.1', '-p', String(pgPort)])
          return true
        } catch {
          return false
        }
      },
      { timeoutMs: 60_000, intervalMs: 200, detail: () => pg.log() },
    )

    const psql = async (db: string, args: string[]): Promise<string> => {
      const { stdout } = await run(
        join(PG_BIN, 'psql'),
        [
          ...['-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', '-h', dir, '-p', String(pgPort)],
          ...['-U', 'postgres', '-d', db, ...args],
        ],
        { cwd: dir, timeout: 60_000 },
      )
      return stdout
    }
    const password = DB_USER.password.replace(/'/g, "''")
    await psql('postgres', [
      '-c',
      `create role ${DB_USER.name} login password '${password}'`,
      '-c',
      `create database ${DATABASE} owner ${DB_USER.name}`,
    ])
    const seedFile = join(dir, 'seed.sql')
    writeFileSync(seedFile, seedSql())
    await psql(DATABASE, ['-f', seedFile])

    // Adminer's files: the entry script, a link to Debian's adminer.php, PHP's sessions and
    // temp dir (Adminer keeps its failed-login counter there) inside the instance.
    const www = join(dir, 'www')
    mkdirSync(www)
    symlinkSync(ADMINER_PHP, join(www, 'adminer.php'))
    writeFileSync(join(www, 'index.php'), INDEX_PHP)
    mkdirSync(join(dir, 'sessions'))
    mkdirSync(join(dir, 'phptmp'))
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    const server = spawnServer(
      PHP,
      [
        ...['-d', `session.save_path=${join(dir, 'sessions')}`],
        ...[
          '-d',
          `sys_temp_dir=${join(dir, 'phptmp')}`,
          '-d',
          `upload_tmp_dir=${join(dir, 'phptmp')}`,
        ],
        ...['-d', 'display_errors=stderr', '-S', `127.0.0.1:${port}`, '-t', www],
      ],
      // libpq reads the port from PGPORT when the server the person typed names none.
      { cwd: www, env: { ...process.env, PGPORT: String(pgPort) }, output: { stderr: true } },
    )
    stopper.server = server.child
    forgets.push(killOnExit(server.child))
    stopper.expireAfter(lifetimeMs)
    await waitForHttp(`${origin}/`, server.child, {
      name: 'php -S (Adminer)',
      timeoutMs: 30_000,
      redirect: 'manual',
      ready: (res) => res.status === 200,
    })
    return { origin, pgPort, sql: (query) => psql(DATABASE, ['-c', query]), close: stopper.stop }
  })
}
