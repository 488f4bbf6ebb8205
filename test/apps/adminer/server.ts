/**
 * Starts a private Adminer: a fresh PostgreSQL 15 cluster (Debian's binaries) in a temp dir,
 * seeded with the shop database, and PHP's built-in server serving Debian's single-file
 * `adminer.php` from the same dir. Two process groups, both on 127.0.0.1: `postgres` and `php -S`.
 *
 * initdb and postgres refuse to run as root, so as root (CI) both run as Debian's `postgres`
 * system user through `setpriv` (which execs, so postgres itself leads its process group), in a
 * temp dir that user owns; as any other user they run as that user.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  freePort,
  instanceStopper,
  killOnExit,
  orStop,
  spawnServer,
  waitForHttp,
  type ServerProcess,
} from '../childProcess'
import { postgresUnavailable, startPostgresCluster, stopPostgresCluster } from '../postgresBinaries'
import { DATABASE, DB_USER, seedSql } from './seed'

/** Debian's compiled Adminer (package `adminer`). */
const ADMINER_PHP = '/usr/share/adminer/adminer.php'
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
    await stopPostgresCluster(postgres)
    for (const forget of forgets) forget()
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
  })
  return orStop(stopper.stop, async () => {
    // TCP, which Adminer uses, asks for the password.
    const cluster = await startPostgresCluster(
      dir,
      (server, forget) => {
        postgres = server
        forgets.push(forget)
      },
      'scram-sha-256',
    )
    const { psql } = cluster
    const pgPort = cluster.port
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
