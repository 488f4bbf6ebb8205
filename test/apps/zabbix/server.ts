/**
 * Starts a private Zabbix 6.0 frontend: a fresh PostgreSQL 15 cluster (Debian's binaries, run as
 * `../postgresBinaries.ts` says) in a temp dir loaded with Zabbix's own schema, images and data
 * (`zabbix-server-pgsql`), then PHP's built-in server over Debian's web root `/usr/share/zabbix`,
 * read-only and unchanged. Debian's frontend reads its config from the fixed path
 * `/etc/zabbix/zabbix.conf.php` (a class constant of `CConfigFile`), so PHP gets an
 * `auto_prepend_file` that defines `CConfigFile` first from a copy whose constant names the temp
 * dir's config; Zabbix's autoloader then never loads Debian's class. The seed goes in through the
 * frontend's own JSON-RPC API once it answers. No Zabbix server daemon runs: the frontend works
 * from the database alone (it shows "Zabbix server is not running").
 */
import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
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
import { seedThroughApi } from './seed'

/** Debian's Zabbix web root (`zabbix-frontend-php`) and SQL files (`zabbix-server-pgsql`). */
const ZABBIX_WWW = '/usr/share/zabbix'
const ZABBIX_SQL = '/usr/share/zabbix-server-pgsql'
const CONFIG_CLASS = join(ZABBIX_WWW, 'include/classes/core/CConfigFile.php')
const PHP = '/usr/bin/php8.2'
const DATABASE = 'zabbix'

/** A running Zabbix frontend with its PostgreSQL. */
export interface ZabbixServer {
  origin: string
  dir: string
  close(): Promise<void>
}

/** Why Zabbix cannot run here (naming the apt packages), or null. */
export function zabbixUnavailable(): string | null {
  const install =
    'apt-get install --no-install-recommends zabbix-frontend-php zabbix-server-pgsql php8.2-cli ' +
    'php8.2-pgsql php8.2-bcmath php8.2-gd php8.2-mbstring php8.2-xml'
  if (!existsSync(CONFIG_CLASS) || !existsSync(join(ZABBIX_SQL, 'data.sql.gz')))
    return `the Zabbix frontend or its PostgreSQL schema is not installed: ${install}`
  if (!existsSync(PHP)) return `PHP 8.2 is not installed: ${install}`
  try {
    const needed = ['pgsql', 'bcmath', 'gd', 'mbstring', 'xmlreader', 'ctype', 'gettext']
    const test = needed.map((e) => `extension_loaded("${e}")`).join(' && ')
    execFileSync(PHP, ['-r', `exit((${test}) ? 0 : 1);`], { stdio: 'ignore' })
  } catch {
    return `PHP lacks an extension Zabbix needs: ${install}`
  }
  return postgresUnavailable()
}

/** The frontend's config: PostgreSQL over TCP on the private cluster, no server to talk to. */
function configPhp(pgPort: number): string {
  // $ZBX_SERVER_PORT 1: the frontend's "is the server running" probe is refused at once instead
  // of waiting for a timeout on 10051.
  return `<?php
$DB['TYPE'] = 'POSTGRESQL';
$DB['SERVER'] = '127.0.0.1';
$DB['PORT'] = '${pgPort}';
$DB['DATABASE'] = '${DATABASE}';
$DB['USER'] = 'postgres';
$DB['PASSWORD'] = '';
$DB['SCHEMA'] = '';
$DB['ENCRYPTION'] = false;
$DB['KEY_FILE'] = '';
$DB['CERT_FILE'] = '';
$DB['CA_FILE'] = '';
$DB['VERIFY_HOST'] = false;
$DB['CIPHER_LIST'] = '';
$DB['VAULT_URL'] = '';
$DB['VAULT_DB_PATH'] = '';
$DB['VAULT_TOKEN'] = '';
$DB['DOUBLE_IEEE754'] = true;
$ZBX_SERVER = '127.0.0.1';
$ZBX_SERVER_PORT = '1';
$ZBX_SERVER_NAME = 'Sitecall';
$IMAGE_FORMAT_DEFAULT = IMAGE_FORMAT_PNG;
`
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
 * Builds and serves a fresh instance; stops by itself after `lifetimeMs`. Rejects, after
 * stopping and removing everything, when a step fails.
 */
export async function startZabbixServer(lifetimeMs: number): Promise<ZabbixServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-zabbix-'))
  let postgres: ServerProcess | null = null
  const forgets: Array<() => void> = []
  const stopper = instanceStopper(async () => {
    await stopPostgresCluster(postgres)
    for (const forget of forgets) forget()
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
  })
  return orStop(stopper.stop, async () => {
    chmodSync(dir, 0o755)
    const { port: pgPort, psql } = await startPostgresCluster(dir, (server, forget) => {
      postgres = server
      forgets.push(forget)
    })
    await psql('postgres', ['-c', `create database ${DATABASE}`])
    // Zabbix's own SQL, gunzipped into one file and loaded in one psql run (data.sql alone is
    // 130,000 INSERTs of the stock templates: about 11 s).
    const sql = join(dir, 'zabbix.sql')
    const parts = ['schema.sql.gz', 'images.sql.gz', 'data.sql.gz'].map((f) =>
      execFileSync('gzip', ['-dc', join(ZABBIX_SQL, f)], { maxBuffer: 1 << 27 }),
    )
    writeFileSync(sql, Buffer.concat(parts))
    chmodSync(sql, 0o644)
    await psql(DATABASE, ['-f', sql])
    rmSync(sql)
    // en_GB is the one language Zabbix does not look a system locale up for: with the default
    // (en_US) every page warns that this machine has no en_US locale.
    await psql(DATABASE, ['-c', "update config set default_lang = 'en_GB'"])

    // CConfigFile with its fixed /etc path replaced by the instance's config.
    const source = readFileSync(CONFIG_CLASS, 'utf8')
    const patched = source.replace(
      /const CONFIG_FILE_PATH = '[^']*';/,
      `const CONFIG_FILE_PATH = '${join(dir, 'zabbix.conf.php')}';`,
    )
    if (patched === source) throw new Error(`${CONFIG_CLASS} has no CONFIG_FILE_PATH to replace`)
    writeFileSync(join(dir, 'CConfigFile.php'), patched)
    // The guard: php -S runs the prepend for the router and again for the script it falls to.
    writeFileSync(
      join(dir, 'prepend.php'),
      `<?php\nif (!class_exists('CConfigFile', false)) require '${join(dir, 'CConfigFile.php')}';\n`,
    )
    writeFileSync(join(dir, 'zabbix.conf.php'), configPhp(pgPort))
    writeFileSync(join(dir, 'router.php'), ROUTER)

    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    const server = spawnServer(
      PHP,
      [
        ...['-d', `auto_prepend_file=${join(dir, 'prepend.php')}`],
        ...['-d', 'memory_limit=256M', '-d', 'post_max_size=16M', '-d', 'max_execution_time=300'],
        ...['-d', 'max_input_time=300', '-d', 'date.timezone=UTC'],
        ...['-S', `127.0.0.1:${port}`, '-t', ZABBIX_WWW, join(dir, 'router.php')],
      ],
      {
        cwd: dir,
        // Zabbix pages fire several requests at once (widgets, jsrpc.php): serve them side by side.
        env: { ...process.env, PHP_CLI_SERVER_WORKERS: '4' },
        output: { stderr: true },
      },
    )
    stopper.server = server.child
    forgets.push(killOnExit(server.child))
    await waitForHttp(`${origin}/index.php`, server.child, {
      name: 'php -S (zabbix)',
      timeoutMs: 30_000,
      requestTimeoutMs: 10_000,
      ready: (res) => res.status === 200,
    })
    await seedThroughApi(origin)
    stopper.expireAfter(lifetimeMs)
    return { origin, dir, close: stopper.stop }
  })
}
