/**
 * Starts a private Cacti 1.2: a copy of a seeded template database served by its own MariaDB
 * (socket only, see `./mariadb.ts`), a hard-linked copy of Debian's Cacti tree with its own
 * config (`./tree.ts`), and PHP's built-in server on 127.0.0.1 over that tree's web root. Nothing
 * reads `/etc/cacti`, the system's MariaDB or `/var/lib/cacti`; PHP keeps its sessions in the
 * instance dir. No poller runs: pages work from the database alone.
 *
 * The template is built once per machine, because Cacti's installer imports its eleven stock
 * template packages (about a minute): `mariadb-install-db`, Cacti's `cacti.sql`,
 * `cli/install_cacti.php`, then the seed (`./seed.ts`) and a clean shutdown, in
 * `/tmp/sitecall-cacti-<hash>/db`. The hash covers the seed, this file's template steps, Cacti's
 * version and the MariaDB binary, so a change builds a new one.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { mkdtemp, rename, rm } from 'node:fs/promises'
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
import { DB, initDataDir, MARIADB, run, sql, startMariaDb, stopMariaDb } from './mariadb'
import { ADMIN, DEVICES, SETTINGS, SITES, USERS, seedInstalledCacti } from './seed'
import { CACTI_DIR, CACTI_SQL, makeTree, siteDirOf, varDirOf } from './tree'

const PHP = '/usr/bin/php8.2'
/** Bumped when the template's steps change in a way the hash below cannot see. */
const TEMPLATE_REVISION = 1

/** A running Cacti with its MariaDB. */
export interface CactiServer {
  origin: string
  dir: string
  /** The instance's MariaDB socket (answer keys read Cacti's state through it). */
  socket: string
  close(): Promise<void>
}

/** Why Cacti cannot run here (naming the apt packages), or null. */
export function cactiUnavailable(): string | null {
  const install =
    'apt-get install --no-install-recommends cacti mariadb-server php8.2-cli php8.2-mysql ' +
    '(answer dbconfig-common with "no": cacti/dbconfig-install=false)'
  if (!existsSync(join(CACTI_DIR, 'site/include/global.php')) || !existsSync(CACTI_SQL))
    return `Cacti is not installed: ${install}`
  if (!existsSync(MARIADB.server) || !existsSync(MARIADB.install) || !existsSync(MARIADB.client))
    return `MariaDB is not installed: ${install}`
  if (!existsSync(PHP)) return `PHP 8.2 is not installed: ${install}`
  if (statSync(tmpdir()).dev !== statSync(CACTI_DIR).dev)
    return `${tmpdir()} and ${CACTI_DIR} are on different file systems (the tree is hard-linked)`
  return null
}

/** PHP's command line for Cacti (web server and CLI scripts alike) of the instance in `dir`. */
function phpArgs(dir: string): string[] {
  return [
    PHP,
    ...['-d', 'date.timezone=UTC', '-d', 'memory_limit=512M', '-d', 'max_execution_time=300'],
    ...['-d', `session.save_path=${join(varDirOf(dir), 'sessions')}`],
  ]
}

/** Points Cacti's file settings (its log, the stderr log) into the instance's `var/`. */
async function ownPaths(socket: string, dir: string): Promise<void> {
  const log = join(varDirOf(dir), 'log')
  await sql(
    socket,
    `UPDATE settings SET value = '${join(log, 'cacti.log')}' WHERE name = 'path_cactilog';\n` +
      `UPDATE settings SET value = '${join(log, 'cacti_stderr.log')}' WHERE name = 'path_stderrlog';`,
    DB.name,
  )
  mkdirSync(join(varDirOf(dir), 'sessions'), { recursive: true })
}

function templateKey(): string {
  const hash = createHash('sha256')
  hash.update(JSON.stringify({ TEMPLATE_REVISION, ADMIN, SITES, DEVICES, USERS, SETTINGS }))
  hash.update(readFileSync(join(CACTI_DIR, 'site/include/cacti_version')))
  const mariadbd = statSync(MARIADB.server)
  hash.update(`${mariadbd.size} ${mariadbd.mtimeMs}`)
  return hash.digest('hex').slice(0, 16)
}

let building: Promise<string> | null = null

/**
 * The path of a template dir whose `db/` is a cleanly shut down data dir with Cacti installed and
 * seeded; builds it when the machine has none yet (about 1.5 minutes). Concurrent builders in other
 * processes race harmlessly: each builds in its own temp dir and the first rename wins.
 */
function seededTemplate(): Promise<string> {
  building ??= buildTemplate().catch((error: unknown) => {
    building = null
    throw error
  })
  return building
}

async function buildTemplate(): Promise<string> {
  const target = join(tmpdir(), `sitecall-cacti-${templateKey()}`)
  if (existsSync(join(target, 'ready'))) return target
  // A short base: MariaDB's socket path must stay under the 108-byte limit of AF_UNIX.
  const dir = await mkdtemp(join(tmpdir(), 'sc-cat-'))
  const socket = join(dir, 'db.sock')
  let db: ServerProcess | null = null
  try {
    await initDataDir(join(dir, 'db'))
    db = await startMariaDb(join(dir, 'db'), socket)
    await sql(
      socket,
      `CREATE DATABASE ${DB.name} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;\n` +
        `CREATE USER '${DB.user}'@'localhost' IDENTIFIED BY '${DB.password}';\n` +
        `GRANT ALL ON ${DB.name}.* TO '${DB.user}'@'localhost';\n` +
        // Cacti's install check reads the time zone names.
        `GRANT SELECT ON mysql.time_zone_name TO '${DB.user}'@'localhost';`,
    )
    await sql(socket, readFileSync(CACTI_SQL, 'utf8'), DB.name)
    await makeTree(dir, socket)
    const php = phpArgs(dir)
    mkdirSync(join(varDirOf(dir), 'sessions'), { recursive: true })
    const cactiDir = join(dir, 'cacti')
    const installed = await run(
      php[0]!,
      [
        ...php.slice(1),
        join(cactiDir, 'cli/install_cacti.php'),
        '--accept-eula',
        '--install',
        '--theme=modern',
        '--lang=en-US',
        `--path=cactilog:${join(varDirOf(dir), 'log/cacti.log')}`,
      ],
      { cwd: cactiDir },
    )
    if (!/Installation has now completed/.test(installed))
      throw new Error(`Cacti's installer did not finish: ${installed.slice(-2000)}`)
    await seedInstalledCacti(cactiDir, socket, php)
    // A clean shutdown, so the copied data dir needs no crash recovery.
    await stopMariaDb(db)
    db = null
    await rm(join(dir, 'cacti'), { recursive: true, force: true })
    await rm(varDirOf(dir), { recursive: true, force: true })
    writeFileSync(join(dir, 'ready'), new Date().toISOString())
    await rename(dir, target).catch(() => rm(dir, { recursive: true, force: true }))
    if (!existsSync(join(target, 'ready'))) throw new Error(`no Cacti template at ${target}`)
    return target
  } catch (error) {
    await stopMariaDb(db)
    await rm(dir, { recursive: true, force: true })
    throw error
  }
}

/**
 * The php -S router: static files (scripts, styles, fonts, images) get a month of cache, so a
 * browser loads each once per recording instead of on every page; PHP scripts run as usual.
 */
const ROUTER = `<?php
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
$types = ['js' => 'application/javascript', 'css' => 'text/css', 'woff2' => 'font/woff2',
  'woff' => 'font/woff', 'ttf' => 'font/ttf', 'svg' => 'image/svg+xml', 'png' => 'image/png',
  'gif' => 'image/gif', 'jpg' => 'image/jpeg', 'ico' => 'image/x-icon'];
$ext = strtolower(pathinfo($path, PATHINFO_EXTENSION));
$file = $_SERVER['DOCUMENT_ROOT'] . $path;
if (isset($types[$ext]) && strpos($path, '..') === false && is_file($file)) {
  header('Content-Type: ' . $types[$ext]);
  header('Cache-Control: public, max-age=2592000');
  header('Content-Length: ' . filesize($file));
  readfile($file);
  return true;
}
return false;
`

/**
 * Builds (or reuses) the template and serves a fresh instance from a copy of it; stops by itself
 * after `lifetimeMs`. Rejects, after stopping and removing everything, when a step fails.
 */
export async function startCactiServer(lifetimeMs: number): Promise<CactiServer> {
  const template = await seededTemplate()
  const dir = await mkdtemp(join(tmpdir(), 'sc-cacti-'))
  const socket = join(dir, 'db.sock')
  let db: ServerProcess | null = null
  const forgets: Array<() => void> = []
  const stopper = instanceStopper(async () => {
    await stopMariaDb(db)
    for (const forget of forgets) forget()
    await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
  })
  return orStop(stopper.stop, async () => {
    await run('cp', ['-a', join(template, 'db'), join(dir, 'db')])
    db = await startMariaDb(join(dir, 'db'), socket)
    forgets.push(killOnExit(db.child))
    await makeTree(dir, socket)
    await ownPaths(socket, dir)
    writeFileSync(join(dir, 'router.php'), ROUTER)

    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    const php = phpArgs(dir)
    const server = spawnServer(
      php[0]!,
      [...php.slice(1), '-S', `127.0.0.1:${port}`, '-t', siteDirOf(dir), join(dir, 'router.php')],
      {
        cwd: siteDirOf(dir),
        // A Cacti page loads its scripts and styles, then its content by Ajax: serve side by side.
        env: { ...process.env, PHP_CLI_SERVER_WORKERS: '4' },
        output: { stderr: true },
      },
    )
    stopper.server = server.child
    forgets.push(killOnExit(server.child))
    await waitForHttp(`${origin}/index.php`, server.child, {
      name: 'php -S (cacti)',
      timeoutMs: 30_000,
      requestTimeoutMs: 10_000,
      ready: (res) => res.status === 200,
    })
    stopper.expireAfter(lifetimeMs)
    return { origin, dir, socket, close: stopper.stop }
  })
}
