/**
 * A private MariaDB for one Cacti: data dir and socket in a temp dir, no TCP, no config file read
 * (`--no-defaults`), run as root from Debian's `mariadb-server` binaries. The system's own MariaDB
 * service is never started or touched.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { killGroup, spawnServer, waitUntil, type ServerProcess } from '../childProcess'

/** Debian's MariaDB binaries (`mariadb-server`, `mariadb-client`). */
export const MARIADB = {
  server: '/usr/sbin/mariadbd',
  install: '/usr/bin/mariadb-install-db',
  client: '/usr/bin/mariadb',
}

/** The database Cacti uses and its account (reachable only through the instance's socket). */
export const DB = { name: 'cacti', user: 'cacti', password: 'cacti' }

/**
 * Runs `command` to its end with `input` on stdin (when given); resolves its stdout, rejects with
 * its output when it exits non-zero.
 */
export function run(
  command: string,
  args: string[],
  options: { input?: string; cwd?: string } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], cwd: options.cwd })
    let out = ''
    let err = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => {
      if (code === 0) resolve(out)
      else
        reject(
          new Error(`${command} ${args.join(' ')} exited ${code}: ${(err || out).slice(-2000)}`),
        )
    })
    child.stdin.end(options.input ?? '')
  })
}

/** Creates an empty data dir (system tables only) in `datadir`. */
export async function initDataDir(datadir: string): Promise<void> {
  await run(MARIADB.install, [
    '--no-defaults',
    `--datadir=${datadir}`,
    '--auth-root-authentication-method=normal',
    '--user=root',
    '--skip-test-db',
  ])
}

/**
 * Starts mariadbd on `datadir`, listening on `socket` only, as the leader of its own process
 * group; resolves once the socket exists (60 s at most).
 */
export async function startMariaDb(datadir: string, socket: string): Promise<ServerProcess> {
  const server = spawnServer(
    MARIADB.server,
    [
      '--no-defaults',
      `--datadir=${datadir}`,
      `--socket=${socket}`,
      '--skip-networking',
      `--pid-file=${socket}.pid`,
      '--user=root',
      // Small redo log and pool: several instances share a small machine.
      '--innodb-log-file-size=8M',
      '--innodb-buffer-pool-size=64M',
      '--skip-log-bin',
      // Cacti's installer and pages want these SQL modes off (its own install check says so).
      '--sql-mode=NO_ENGINE_SUBSTITUTION',
      '--character-set-server=utf8mb4',
      '--collation-server=utf8mb4_unicode_ci',
    ],
    { output: { stdout: true, stderr: true }, unref: true },
  )
  await waitUntil('mariadbd', server.child, async () => existsSync(socket), {
    timeoutMs: 60_000,
    detail: server.log,
  })
  return server
}

/** Stops mariadbd cleanly (SIGTERM lets it flush), SIGKILL after 15 s. */
export function stopMariaDb(server: ServerProcess | null): Promise<void> {
  return killGroup(server?.child, { graceMs: 15_000 })
}

/**
 * Runs SQL over `socket` as root (in database `database` when given) and resolves the rows as
 * arrays of tab-separated fields (`mariadb -N -B`: no header, NULL as the text `NULL`).
 */
export async function sql(
  socket: string,
  statements: string,
  database?: string,
): Promise<string[][]> {
  const out = await run(
    MARIADB.client,
    ['--no-defaults', `--socket=${socket}`, '-uroot', '-N', '-B', ...(database ? [database] : [])],
    { input: statements },
  )
  return out
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('\t'))
}
