/**
 * Starts a private DAViCal 1.1.12 (Debian's `davical`): a fresh PostgreSQL 15 cluster (Debian's
 * binaries, run as `../postgresBinaries.ts` says) in a temp dir, DAViCal's database built there by
 * its own `dba/create-database.sh` (which calls psql, createdb and the Perl
 * `update-davical-database`, all pointed at the private cluster by PGHOST/PGPORT/PGUSER), a web
 * root of its own and PHP's built-in server over it, then the seed through the admin pages.
 *
 * DAViCal reads its config from fixed paths (`/etc/davical/<host>-conf.php`, then
 * `/etc/davical/config.php`) in `htdocs/always.php`, which every page includes as `./always.php`.
 * The web root therefore holds copies of Debian's top-level scripts, `always.php` patched to
 * include the instance's config first, and symlinks to everything else; `<tmp>/inc` links to
 * Debian's `inc`, since always.php puts `../inc` (relative to the web root, php -S's working dir)
 * on the include path. /etc is never read or written.
 */
import { execFile, execFileSync } from 'node:child_process'
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
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
import { ADMIN, seedThroughUi } from './seed'

const run = promisify(execFile)

/** Debian's DAViCal tree (`davical` package): web root, libraries and database scripts. */
const DAVICAL_HOME = '/usr/share/davical'
const CREATE_DATABASE = join(DAVICAL_HOME, 'dba/create-database.sh')
const PHP = '/usr/bin/php8.2'
const DATABASE = 'davical'

/** A running DAViCal with its PostgreSQL. */
export interface DavicalServer {
  origin: string
  /** The instance's temp dir (its cluster, web root, config and PHP sessions). */
  dir: string
  close(): Promise<void>
}

const INSTALL =
  'apt-get install --no-install-recommends davical php8.2-cli php8.2-pgsql libdbd-pg-perl ' +
  'libyaml-perl libawl-php postgresql'

/** Why DAViCal cannot run here (naming the apt packages), or null. */
export function davicalUnavailable(): string | null {
  if (!existsSync(join(DAVICAL_HOME, 'htdocs/always.php')) || !existsSync(CREATE_DATABASE))
    return `DAViCal is not installed: ${INSTALL}`
  if (!existsSync('/usr/share/awl/dba/awl-tables.sql'))
    return `AWL (libawl-php) is not installed: ${INSTALL}`
  if (!existsSync(PHP)) return `PHP 8.2 is not installed: ${INSTALL}`
  try {
    execFileSync(PHP, ['-r', 'exit(extension_loaded("pgsql") ? 0 : 1);'], { stdio: 'ignore' })
  } catch {
    return `PHP has no PostgreSQL driver: ${INSTALL}`
  }
  try {
    execFileSync('perl', ['-MDBD::Pg', '-MYAML', '-e', '1'], { stdio: 'ignore' })
  } catch {
    return `Perl lacks DBD::Pg or YAML (DAViCal's database script needs them): ${INSTALL}`
  }
  return postgresUnavailable()
}

/**
 * The instance's config: the application user over TCP on the private cluster (trusted), the
 * host name pages are served under, and nothing else changed from DAViCal's defaults.
 */
function configPhp(pgPort: number): string {
  return `<?php
$c->pg_connect[] = "host=127.0.0.1 port=${pgPort} dbname=${DATABASE} user=davical_app";
$c->domain_name = '127.0.0.1';
$c->system_name = 'DAViCal';
$c->admin_email = 'admin@example.org';
`
}

/**
 * The php -S router: static files (styles, scripts, images) get a month of cache, so a browser
 * loads each once per recording instead of on every page; PHP scripts run as usual.
 */
const ROUTER = `<?php
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
$types = ['js' => 'application/javascript', 'css' => 'text/css', 'png' => 'image/png',
  'gif' => 'image/gif', 'jpg' => 'image/jpeg', 'ico' => 'image/x-icon', 'txt' => 'text/plain'];
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
 * The web root `<dir>/www`: Debian's top-level scripts copied (PHP resolves a symlinked script to
 * Debian's dir, whose `./always.php` is the unpatched one), always.php patched to include
 * `config` before looking in /etc, everything else symlinked; `<dir>/inc` links to Debian's.
 */
function buildWebRoot(dir: string, config: string): void {
  const www = join(dir, 'www')
  mkdirSync(www)
  const htdocs = join(DAVICAL_HOME, 'htdocs')
  for (const entry of readdirSync(htdocs, { withFileTypes: true })) {
    const from = join(htdocs, entry.name)
    if (entry.isFile() && entry.name.endsWith('.php')) copyFileSync(from, join(www, entry.name))
    else symlinkSync(from, join(www, entry.name))
  }
  symlinkSync(join(DAVICAL_HOME, 'inc'), join(dir, 'inc'))
  const always = join(www, 'always.php')
  const source = readFileSync(always, 'utf8')
  const lookup = "if ( @file_exists('/etc/davical/'.$_SERVER['SERVER_NAME'].'-conf.php') ) {"
  if (!source.includes(lookup)) throw new Error(`${always} does not look for /etc/davical`)
  writeFileSync(
    always,
    source.replace(lookup, `if ( true ) {\n  include('${config}');\n}\nelse ${lookup}`),
  )
}

/**
 * Builds and serves a fresh instance; stops by itself after `lifetimeMs`. Rejects, after
 * stopping and removing everything, when a step fails.
 */
export async function startDavicalServer(lifetimeMs: number): Promise<DavicalServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-davical-'))
  let postgres: ServerProcess | null = null
  const forgets: Array<() => void> = []
  const stopper = instanceStopper(async () => {
    await stopPostgresCluster(postgres)
    for (const forget of forgets) forget()
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
  })
  return orStop(stopper.stop, async () => {
    chmodSync(dir, 0o755)
    const { port: pgPort } = await startPostgresCluster(dir, (server, forget) => {
      postgres = server
      forgets.push(forget)
    })
    // DAViCal's own script: roles davical_dba and davical_app, the schema, its functions and
    // base data, and the admin's password (stored as `**<plain>`, which DAViCal accepts).
    try {
      await run(CREATE_DATABASE, [DATABASE, ADMIN.password], {
        cwd: dir,
        timeout: 120_000,
        env: {
          ...process.env,
          PGHOST: dir,
          PGPORT: String(pgPort),
          PGUSER: 'postgres',
          PGDATABASE: 'postgres',
        },
      })
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; message: string }
      throw new Error(`create-database.sh failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`)
    }

    const config = join(dir, 'davical-conf.php')
    writeFileSync(config, configPhp(pgPort))
    buildWebRoot(dir, config)
    writeFileSync(join(dir, 'router.php'), ROUTER)
    mkdirSync(join(dir, 'sessions'))

    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    const www = join(dir, 'www')
    const server = spawnServer(
      PHP,
      [
        // The CSRF token lives in PHP's own session: kept in the instance, not /var/lib/php.
        ...['-d', `session.save_path=${join(dir, 'sessions')}`, '-d', 'date.timezone=UTC'],
        ...['-d', 'memory_limit=256M', '-d', 'display_errors=0'],
        ...['-S', `127.0.0.1:${port}`, '-t', www, join(dir, 'router.php')],
      ],
      {
        cwd: www,
        env: { ...process.env, PHP_CLI_SERVER_WORKERS: '4' },
        output: { stderr: true },
      },
    )
    stopper.server = server.child
    forgets.push(killOnExit(server.child))
    await waitForHttp(`${origin}/index.php`, server.child, {
      name: 'php -S (davical)',
      timeoutMs: 30_000,
      requestTimeoutMs: 10_000,
      ready: (res) => res.status === 200,
    })
    await seedThroughUi(origin)
    stopper.expireAfter(lifetimeMs)
    return { origin, dir, close: stopper.stop }
  })
}
