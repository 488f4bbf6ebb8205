/**
 * Starts a private Icinga Web 2: a fresh PostgreSQL 15 cluster (Debian's binaries, run as
 * `../postgresBinaries.ts` says) in a temp dir loaded with Icinga Web's own schema
 * (`/usr/share/icingaweb2/schema/pgsql.schema.sql`) and the seed, then PHP's built-in server over
 * Debian's web root `/usr/share/icingaweb2/public`, unchanged. Icinga Web finds its config and
 * storage dirs through `ICINGAWEB_CONFIGDIR` and `ICINGAWEB_STORAGEDIR` (read by its
 * `ApplicationBootstrap`), so both point into the temp dir and nothing under /etc or /var is read
 * or written; PHP keeps its sessions there too. No Icinga 2 core runs: the app's own pages (users,
 * groups, roles, navigation, preferences, dashboards) work from its database and ini files alone.
 */
import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
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
import { BACKEND, ROLES_INI, seedSql } from './seed'

/** Debian's Icinga Web 2 (`icingaweb2`): its web root, schema and the front controller's router. */
const ICINGAWEB = '/usr/share/icingaweb2'
const WEB_ROUTER = '/usr/share/php/Icinga/Application/webrouter.php'
const SCHEMA = join(ICINGAWEB, 'schema/pgsql.schema.sql')
const PHP = '/usr/bin/php8.2'
const DATABASE = 'icingaweb'

/** A running Icinga Web 2 with its PostgreSQL. */
export interface IcingaWebServer {
  origin: string
  dir: string
  close(): Promise<void>
}

/** Why Icinga Web 2 cannot run here (naming the apt packages), or null. */
export function icingawebUnavailable(): string | null {
  const install = 'apt-get install --no-install-recommends icingaweb2 php8.2-cli php8.2-pgsql'
  if (!existsSync(WEB_ROUTER) || !existsSync(SCHEMA))
    return `Icinga Web 2 is not installed: ${install}`
  if (!existsSync(PHP)) return `PHP 8.2 is not installed: ${install}`
  try {
    const needed = ['pdo_pgsql', 'intl', 'mbstring', 'dom', 'gd']
    const test = needed.map((e) => `extension_loaded("${e}")`).join(' && ')
    execFileSync(PHP, ['-r', `exit((${test}) ? 0 : 1);`], { stdio: 'ignore' })
  } catch {
    return `PHP lacks an extension Icinga Web 2 needs: ${install} php8.2-intl php8.2-mbstring php8.2-xml php8.2-gd`
  }
  return postgresUnavailable()
}

/** The ini files of a config dir whose one resource is the private database. */
function configFiles(pgPort: number): Record<string, string> {
  return {
    // The app's own settings (preferences, announcements) live in the database resource.
    'config.ini': `[global]
show_stacktraces = "1"
config_resource = "icingaweb_db"
module_path = "${ICINGAWEB}/modules"

[logging]
log = "none"
`,
    'resources.ini': `[icingaweb_db]
type = "db"
db = "pgsql"
host = "127.0.0.1"
port = "${pgPort}"
dbname = "${DATABASE}"
username = "postgres"
password = ""
charset = "utf8"
`,
    'authentication.ini': `[${BACKEND}]
backend = "db"
resource = "icingaweb_db"
`,
    'groups.ini': `[${BACKEND}]
backend = "db"
resource = "icingaweb_db"
`,
    'roles.ini': ROLES_INI,
  }
}

/**
 * The php -S router: static files get a month of cache (a browser loads each once per
 * recording); everything else goes to Icinga Web's own router, which serves its bundled
 * scripts and styles and dispatches the pages.
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
return require '${WEB_ROUTER}';
`

/**
 * Builds and serves a fresh instance; stops by itself after `lifetimeMs`. Rejects, after
 * stopping and removing everything, when a step fails.
 */
export async function startIcingawebServer(lifetimeMs: number): Promise<IcingaWebServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-icingaweb2-'))
  let postgres: ServerProcess | null = null
  const forgets: Array<() => void> = []
  const stopper = instanceStopper(async () => {
    await stopPostgresCluster(postgres)
    for (const forget of forgets) forget()
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
  })
  return orStop(stopper.stop, async () => {
    chmodSync(dir, 0o755)
    // The cluster gets a dir of its own: as root it is handed to the postgres user.
    const pgDir = join(dir, 'pg')
    mkdirSync(pgDir, { mode: 0o755 })
    const { port: pgPort, psql } = await startPostgresCluster(pgDir, (server, forget) => {
      postgres = server
      forgets.push(forget)
    })
    await psql('postgres', ['-c', `create database ${DATABASE}`])
    await psql(DATABASE, ['-f', SCHEMA])
    const seed = join(pgDir, 'seed.sql')
    writeFileSync(seed, seedSql(PHP), { mode: 0o644 })
    await psql(DATABASE, ['-f', seed])

    const etc = join(dir, 'etc')
    for (const sub of ['etc/enabledModules', 'storage', 'sessions'])
      mkdirSync(join(dir, sub), { recursive: true })
    for (const [name, text] of Object.entries(configFiles(pgPort)))
      writeFileSync(join(etc, name), text)
    // Named like Icinga's own router: its bootstrap finds the web root from SCRIPT_FILENAME, and
    // under php -S accepts only a script called webrouter.php there.
    writeFileSync(join(dir, 'webrouter.php'), ROUTER)

    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    const server = spawnServer(
      PHP,
      [
        ...['-d', `session.save_path=${join(dir, 'sessions')}`, '-d', 'date.timezone=UTC'],
        ...['-d', 'memory_limit=256M', '-d', 'max_execution_time=300'],
        ...['-S', `127.0.0.1:${port}`, '-t', join(ICINGAWEB, 'public'), join(dir, 'webrouter.php')],
      ],
      {
        cwd: dir,
        env: {
          ...process.env,
          ICINGAWEB_CONFIGDIR: etc,
          ICINGAWEB_STORAGEDIR: join(dir, 'storage'),
          // A page loads its script, styles and fonts at once: serve them side by side.
          PHP_CLI_SERVER_WORKERS: '4',
        },
        output: { stderr: true },
      },
    )
    stopper.server = server.child
    forgets.push(killOnExit(server.child))
    // The login page answers a browser's first visit with a 302 that sets its cookie probe.
    await waitForHttp(`${origin}/authentication/login`, server.child, {
      name: 'php -S (icingaweb2)',
      timeoutMs: 30_000,
      requestTimeoutMs: 10_000,
      redirect: 'manual',
      ready: (res) => res.status === 302,
    })
    stopper.expireAfter(lifetimeMs)
    return { origin, dir, close: stopper.stop }
  })
}
