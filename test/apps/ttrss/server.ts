/**
 * Starts a private Tiny Tiny RSS: a fresh PostgreSQL 15 cluster (Debian's binaries, run as
 * `../postgresBinaries.ts` says) in a temp dir with tt-rss's own schema and the seed, a web root of
 * its own (Debian's tree symlinked, the entry scripts copied next to our `config.php`), a feed
 * proxy in this process that serves the seeded feeds as `http://feeds.example/...`, the
 * subscribed feeds fetched once with tt-rss's `update.php --update-feed`, and PHP's built-in
 * server over the web root. tt-rss refuses to run as root, so as root PHP runs as the same
 * unprivileged user as PostgreSQL.
 */
import { execFile, execFileSync } from 'node:child_process'
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { createServer, type Server } from 'node:http'
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
import { afterFetchSql, FEED_HOST, FEEDS, feedXml, seedSql, SUBSCRIBED } from './seed'

const run = promisify(execFile)

/** Debian's tt-rss web root (`tt-rss` package) and its PostgreSQL schema. */
const TTRSS_WWW = '/usr/share/tt-rss/www'
const TTRSS_SCHEMA = '/usr/share/tt-rss/schema/ttrss_schema_pgsql.sql'
const PHP = '/usr/bin/php'
const SETPRIV = '/usr/bin/setpriv'
const DATABASE = 'ttrss'

/** A running tt-rss with its PostgreSQL and feed proxy. */
export interface TtrssServer {
  origin: string
  /** The instance's temp dir (its cluster, web root and config). */
  dir: string
  close(): Promise<void>
}

/** Why tt-rss cannot run here (naming the apt packages), or null. */
export function ttrssUnavailable(): string | null {
  if (!existsSync(join(TTRSS_WWW, 'backend.php')) || !existsSync(TTRSS_SCHEMA))
    return 'Tiny Tiny RSS is not installed: apt-get install tt-rss (debconf: tt-rss/dbconfig-install false)'
  if (!existsSync(PHP)) return 'php is not installed: apt-get install php-cli'
  try {
    execFileSync(PHP, ['-r', 'exit(extension_loaded("pdo_pgsql") ? 0 : 1);'], { stdio: 'ignore' })
  } catch {
    return 'PHP has no PostgreSQL driver: apt-get install php-pgsql'
  }
  return postgresUnavailable()
}

const isRoot = (): boolean => process.getuid?.() === 0

/** `[command, args]` that runs PHP as the PostgreSQL user when we are root (tt-rss refuses root). */
function asPhpUser(args: string[]): [string, string[]] {
  if (!isRoot()) return [PHP, args]
  return [SETPRIV, ['--reuid=postgres', '--regid=postgres', '--init-groups', '--', PHP, ...args]]
}

/** Gives `path` and everything under it to the PostgreSQL user (as root). */
function chownTree(path: string): void {
  if (!isRoot()) return
  execFileSync('chown', ['-R', '--no-dereference', 'postgres:postgres', path])
}

/**
 * tt-rss's config.php (config version 26): PostgreSQL over TCP on the private cluster, every
 * writable dir in the instance, updates by hand only, and `_HTTP_PROXY` pointing at the feed
 * proxy (tt-rss refuses feed URLs on loopback addresses, so feeds are named by a made-up host
 * that only the proxy answers). `_SESSION_SKIP_UA_CHECKS`: a saved login is replayed by a client
 * whose User-Agent differs from the browser that logged in.
 */
function configPhp(dir: string, origin: string, pgPort: number, proxyPort: number): string {
  return `<?php
define('DB_TYPE', 'pgsql');
define('DB_HOST', '127.0.0.1');
define('DB_PORT', '${pgPort}');
define('DB_USER', 'postgres');
define('DB_NAME', '${DATABASE}');
define('DB_PASS', '');
define('MYSQL_CHARSET', 'UTF8');
define('SELF_URL_PATH', '${origin}/');
define('SINGLE_USER_MODE', false);
define('SIMPLE_UPDATE_MODE', false);
define('PHP_EXECUTABLE', '${PHP}');
define('LOCK_DIRECTORY', '${dir}/lock');
define('CACHE_DIR', '${dir}/cache');
define('ICONS_DIR', '${dir}/www/feed-icons');
define('ICONS_URL', 'feed-icons');
define('AUTH_AUTO_CREATE', false);
define('AUTH_AUTO_LOGIN', false);
define('FORCE_ARTICLE_PURGE', 0);
define('ENABLE_REGISTRATION', false);
define('REG_NOTIFY_ADDRESS', 'user@example.org');
define('REG_MAX_USERS', 10);
define('SESSION_COOKIE_LIFETIME', 86400);
define('SMTP_FROM_NAME', 'Tiny Tiny RSS');
define('SMTP_FROM_ADDRESS', 'noreply@example.org');
define('DIGEST_SUBJECT', '[tt-rss] New headlines for last 24 hours');
define('CHECK_FOR_UPDATES', false);
define('ENABLE_GZIP_OUTPUT', false);
define('PLUGINS', 'auth_internal, note');
define('LOG_DESTINATION', 'sql');
define('CONFIG_VERSION', 26);
define('_HTTP_PROXY', '127.0.0.1:${proxyPort}');
define('_SESSION_SKIP_UA_CHECKS', true);
`
}

/**
 * The php -S router: static files (dojo, scripts, styles, icons) get a month of cache, so a
 * browser loads each once per recording instead of on every page; PHP scripts run as usual.
 */
const ROUTER = `<?php
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
$types = ['js' => 'application/javascript', 'css' => 'text/css', 'woff2' => 'font/woff2',
  'woff' => 'font/woff', 'ttf' => 'font/ttf', 'svg' => 'image/svg+xml', 'png' => 'image/png',
  'gif' => 'image/gif', 'jpg' => 'image/jpeg', 'ico' => 'image/x-icon', 'html' => 'text/html',
  'json' => 'application/json'];
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
 * The web root: every entry of Debian's tree symlinked, except config.php (ours) and the
 * top-level PHP scripts, which are copied. tt-rss finds config.php through the include path that
 * each entry script builds from its own `dirname(__FILE__)`, and PHP resolves a symlinked
 * script's __FILE__ to Debian's tree, where config.php is the system's /etc one.
 */
function buildWebRoot(www: string): void {
  mkdirSync(www)
  for (const entry of readdirSync(TTRSS_WWW, { withFileTypes: true })) {
    const from = join(TTRSS_WWW, entry.name)
    if (entry.name === 'config.php' || entry.name === 'feed-icons') continue
    if (entry.isFile() && entry.name.endsWith('.php')) copyFileSync(from, join(www, entry.name))
    else symlinkSync(from, join(www, entry.name))
  }
  mkdirSync(join(www, 'feed-icons'))
}

/** The feed proxy: answers `GET http://feeds.example/<file>` with the seeded feed, else 404. */
function startFeedProxy(port: number): Promise<Server> {
  const files = new Map(FEEDS.map((f) => [f.file, feedXml(f)]))
  const server = createServer((req, res) => {
    // A proxy request names the whole URL; a direct one (a person's check) only the path.
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? FEED_HOST}`)
    const body = url.hostname === FEED_HOST ? files.get(url.pathname.slice(1)) : undefined
    if (!body) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n')
      return
    }
    res
      .writeHead(200, {
        'content-type': 'application/rss+xml; charset=utf-8',
        'last-modified': 'Tue, 24 Nov 2026 06:00:00 GMT',
      })
      .end(body)
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve(server))
  })
}

/**
 * Builds and serves a fresh instance; stops by itself after `lifetimeMs`. Rejects, after
 * stopping and removing everything, when a step fails.
 */
export async function startTtrssServer(lifetimeMs: number): Promise<TtrssServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-ttrss-'))
  let postgres: ServerProcess | null = null
  let proxy: Server | null = null
  const forgets: Array<() => void> = []
  const stopper = instanceStopper(async () => {
    await stopPostgresCluster(postgres)
    proxy?.closeAllConnections()
    await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()))
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
    await psql(DATABASE, ['-f', TTRSS_SCHEMA])
    writeFileSync(join(dir, 'seed.sql'), seedSql())
    await psql(DATABASE, ['-f', join(dir, 'seed.sql')])

    const proxyPort = await freePort()
    proxy = await startFeedProxy(proxyPort)
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    const www = join(dir, 'www')
    buildWebRoot(www)
    writeFileSync(join(www, 'config.php'), configPhp(dir, origin, pgPort, proxyPort))
    writeFileSync(join(dir, 'router.php'), ROUTER)
    for (const sub of ['lock', 'cache', 'cache/images', 'cache/upload', 'cache/export', 'sessions'])
      mkdirSync(join(dir, sub))
    chownTree(dir)
    const include = `include_path=${www}:.:/usr/share/php`
    // The subscribed feeds, fetched one by one in id order so article ids are the same every time.
    for (let id = 1; id <= SUBSCRIBED.length; id++) {
      const [cmd, args] = asPhpUser(['-d', include, 'update.php', '--update-feed', String(id)])
      await run(cmd, args, { cwd: www, timeout: 60_000 })
    }
    writeFileSync(join(dir, 'after.sql'), afterFetchSql())
    await psql(DATABASE, ['-f', join(dir, 'after.sql')])
    const [cmd, args] = asPhpUser([
      '-d',
      include,
      '-d',
      `session.save_path=${dir}/sessions`,
      '-S',
      `127.0.0.1:${port}`,
      '-t',
      www,
      join(dir, 'router.php'),
    ])
    const server = spawnServer(cmd, args, { cwd: www, output: { stderr: true } })
    stopper.server = server.child
    forgets.push(killOnExit(server.child))
    await waitForHttp(`${origin}/public.php?op=getProfiles&login=x`, server.child, {
      name: 'php -S (tt-rss)',
      timeoutMs: 30_000,
      requestTimeoutMs: 10_000,
    })
    stopper.expireAfter(lifetimeMs)
    return { origin, dir, close: stopper.stop }
  })
}
