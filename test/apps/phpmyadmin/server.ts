/**
 * Starts a private phpMyAdmin: its own MariaDB (a fresh data dir from `mariadb-install-db`,
 * seeded, on a free 127.0.0.1 port and a private socket) and PHP's built-in server over a mirror
 * of Debian's tree whose `libraries/vendor_config.php` names the instance's own config file, temp
 * and cache dirs. Nothing under /etc or /var/lib is read or written.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  freePort,
  instanceStopper,
  killGroup,
  killOnExit,
  orStop,
  runCommand,
  type ServerProcess,
  spawnServer,
  waitForHttp,
  waitUntil,
} from '../childProcess'
import { configPhp, seedSql } from './seed'

/** Where Debian's `phpmyadmin` package puts the code. */
const PMA_TREE = '/usr/share/phpmyadmin'
const PHP = '/usr/bin/php'
const MARIADBD = '/usr/sbin/mariadbd'
const INSTALL_DB = '/usr/bin/mariadb-install-db'
const MARIADB = '/usr/bin/mariadb'
/** Entry scripts copied (not linked): PHP derives ROOT_PATH from the real path of index.php. */
const COPIED = ['index.php', 'url.php']

/**
 * The private MariaDB socket of every running instance, by origin: answer keys read the
 * database directly (as root over the socket) to check what a tool changed.
 */
export const SOCKETS = new Map<string, string>()

/** A running phpMyAdmin with its database server. */
export interface PmaServer {
  origin: string
  /** The instance's temp dir (tree mirror in `www/`, database in `db/`). */
  dir: string
  close(): Promise<void>
}

/** Why phpMyAdmin cannot run here (naming the apt packages), or null. */
export function pmaUnavailable(): string | null {
  if (!existsSync(join(PMA_TREE, 'index.php')))
    return 'phpMyAdmin is not installed: apt-get install --no-install-recommends phpmyadmin'
  for (const bin of [MARIADBD, INSTALL_DB, MARIADB])
    if (!existsSync(bin)) return `${bin} is missing: apt-get install mariadb-server`
  if (!existsSync(PHP)) return 'php is not installed: apt-get install php-cli php-mysql'
  return null
}

/** mariadbd refuses to run as root unless told to; as another user it runs as that user. */
const asUser = () => (process.getuid?.() === 0 ? ['--user=root'] : [])

/**
 * Mirrors Debian's tree in `www`: links for everything but the entry scripts (copied, so
 * ROOT_PATH is the mirror) and `libraries/vendor_config.php`, written to name this instance's
 * config file, temp dir and routing cache instead of /etc/phpmyadmin and /var/lib/phpmyadmin.
 */
function mirrorTree(dir: string, www: string): void {
  mkdirSync(join(www, 'libraries'), { recursive: true })
  for (const name of readdirSync(PMA_TREE)) {
    if (name === 'libraries') continue
    if (COPIED.includes(name)) copyFileSync(join(PMA_TREE, name), join(www, name))
    else symlinkSync(join(PMA_TREE, name), join(www, name))
  }
  for (const name of readdirSync(join(PMA_TREE, 'libraries'))) {
    if (name === 'vendor_config.php' || name === 'cache') continue
    symlinkSync(join(PMA_TREE, 'libraries', name), join(www, 'libraries', name))
  }
  mkdirSync(join(dir, 'cache'))
  const routes = join(PMA_TREE, 'libraries', 'cache', 'routes.cache.php')
  if (existsSync(routes)) copyFileSync(routes, join(dir, 'cache', 'routes.cache.php'))
  mkdirSync(join(dir, 'tmp'))
  const vendor = {
    autoloadFile: join(PMA_TREE, 'autoload.php'),
    tempDir: join(dir, 'tmp') + '/',
    changeLogFile: '/usr/share/doc/phpmyadmin/changelog.gz',
    licenseFile: '/usr/share/doc/phpmyadmin/copyright',
    sqlDir: join(PMA_TREE, 'sql') + '/',
    configFile: join(dir, 'config.inc.php'),
    customHeaderFile: join(dir, 'config.header.inc.php'),
    customFooterFile: join(dir, 'config.footer.inc.php'),
    versionCheckDefault: false,
    localePath: join(PMA_TREE, 'locale') + '/',
    cacheDir: join(dir, 'cache') + '/',
    versionSuffix: 'deb1+deb12u1',
  }
  const entries = Object.entries(vendor).map(([k, v]) => `  '${k}' => ${JSON.stringify(v)},`)
  writeFileSync(
    join(www, 'libraries', 'vendor_config.php'),
    `<?php\nif (!defined('PHPMYADMIN')) { exit; }\nreturn [\n${entries.join('\n')}\n];\n`,
  )
}

/**
 * Builds a fresh database and phpMyAdmin and serves them; stops by itself after `lifetimeMs`.
 * Rejects, after removing everything, when a step fails.
 */
export async function startPmaServer(lifetimeMs: number): Promise<PmaServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-phpmyadmin-'))
  let mariadb: ServerProcess | null = null
  let forget: (() => void) | null = null
  // The stopper's server is php -S; MariaDB stops in the cleanup, after it.
  const stopper = instanceStopper(async () => {
    await killGroup(mariadb?.child, { graceMs: 5000 })
    forget?.()
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
  })
  return orStop(stopper.stop, async () => {
    const datadir = join(dir, 'db')
    const socket = join(dir, 'mysqld.sock')
    // Small redo log and buffer pool: a data dir of 20 MB, and several apps share the machine.
    const small = ['--innodb-log-file-size=4M', '--innodb-buffer-pool-size=16M']
    await runCommand(INSTALL_DB, [
      '--no-defaults',
      `--datadir=${datadir}`,
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
      '--skip-name-resolve',
      ...asUser(),
      ...small,
    ])
    const dbPort = await freePort()
    mariadb = spawnServer(
      MARIADBD,
      [
        '--no-defaults',
        `--datadir=${datadir}`,
        `--socket=${socket}`,
        `--port=${dbPort}`,
        '--bind-address=127.0.0.1',
        `--pid-file=${join(dir, 'mysqld.pid')}`,
        `--tmpdir=${dir}`,
        '--skip-name-resolve',
        '--performance-schema=OFF',
        '--skip-log-bin',
        ...asUser(),
        ...small,
      ],
      { cwd: dir, output: { stderr: true } },
    )
    forget = killOnExit(mariadb.child)
    const db = mariadb
    const client = (sql: string) =>
      runCommand(MARIADB, ['--no-defaults', `--socket=${socket}`, '-uroot'], {
        input: sql,
        timeout: 60_000,
      })
    await waitUntil(
      'mariadbd',
      db.child,
      async () =>
        existsSync(socket) &&
        (await client('SELECT 1;').then(
          () => true,
          () => false,
        )),
      { timeoutMs: 60_000, intervalMs: 300, detail: () => db.log() },
    )
    await client(seedSql())

    const www = join(dir, 'www')
    mirrorTree(dir, www)
    writeFileSync(join(dir, 'config.inc.php'), configPhp(dbPort, join(dir, 'tmp') + '/'))
    mkdirSync(join(dir, 'sessions'))
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    const child = spawnServer(
      PHP,
      [
        '-d',
        `session.save_path=${join(dir, 'sessions')}`,
        '-d',
        `upload_tmp_dir=${join(dir, 'tmp')}`,
        '-d',
        'display_errors=0',
        '-S',
        `127.0.0.1:${port}`,
        '-t',
        www,
      ],
      { cwd: www },
    ).child
    stopper.server = child
    await waitForHttp(`${origin}/index.php`, child, {
      name: 'php -S (phpMyAdmin)',
      timeoutMs: 30_000,
      redirect: 'manual',
    })
    stopper.expireAfter(lifetimeMs)
    SOCKETS.set(origin, socket)
    const close = () => {
      SOCKETS.delete(origin)
      return stopper.stop()
    }
    return { origin, dir, close }
  })
}
