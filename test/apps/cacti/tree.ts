/**
 * The Cacti tree one instance serves: a hard-linked copy of Debian's `/usr/share/cacti` (`cli`,
 * `site`, `resource`, `conf_templates`) with its own `include/config.php`. Debian makes that file
 * a symlink to `/etc/cacti/debian.php`, and Cacti finds it as `dirname(__FILE__) . '/config.php'`
 * next to `include/global.php`; PHP resolves symlinks in `__FILE__` but not hard links, so a
 * hard-linked `global.php` reads the copy's config and takes the copy as its base path. The
 * package's relative symlinks (fonts, jQuery themes, docs) are made absolute so they still
 * resolve from the copy, and the ones into `/var` (log, rra, cache) point into the instance dir.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { DB, run } from './mariadb'

/** Debian's Cacti (`cacti` package). */
export const CACTI_DIR = '/usr/share/cacti'
/** Cacti's own empty schema (`cacti` package). */
export const CACTI_SQL = '/usr/share/doc/cacti/cacti.sql'

/** Where a tree made by {@link makeTree} keeps what Cacti writes (log, rra, cache, csrf secret). */
export const varDirOf = (dir: string) => join(dir, 'var')
/** The web root of a tree made by {@link makeTree}. */
export const siteDirOf = (dir: string) => join(dir, 'cacti', 'site')

function walk(dir: string, each: (path: string) => void): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isSymbolicLink()) each(path)
    else if (entry.isDirectory()) walk(path, each)
  }
}

/** Cacti's config: MariaDB on the instance's socket, served at the root of the origin. */
function configPhp(socket: string, varDir: string): string {
  // A hostname with a slash is taken as a socket path by Cacti's db_connect_real().
  return `<?php
$database_type     = 'mysql';
$database_default  = '${DB.name}';
$database_hostname = '${socket}';
$database_username = '${DB.user}';
$database_password = '${DB.password}';
$database_port     = '3306';
$database_retries  = 5;
$database_ssl      = false;
$database_ssl_key  = '';
$database_ssl_cert = '';
$database_ssl_ca   = '';
$database_persist  = false;
$poller_id = 1;
$url_path = '/';
$cacti_session_name = 'Cacti';
$cacti_db_session = false;
$disable_log_rotation = true;
$path_csrf_secret = '${join(varDir, 'csrf', 'secret.php')}';
$proxy_headers = null;
`
}

/**
 * Makes the tree in `dir/cacti` (and `dir/var` for what Cacti writes) for a MariaDB on `socket`.
 * Resolves when done; rejects when `cp` fails (for instance `/tmp` on another file system than
 * `/usr`, where hard links cannot be made).
 */
export async function makeTree(dir: string, socket: string): Promise<void> {
  const root = join(dir, 'cacti')
  mkdirSync(root, { recursive: true })
  const parts = ['cli', 'site', 'resource', 'conf_templates'].map((p) => join(CACTI_DIR, p))
  await run('cp', ['-al', ...parts, root])
  const varDir = varDirOf(dir)
  for (const sub of [
    'log',
    'rra',
    'csrf',
    'cache/boost',
    'cache/mibcache',
    'cache/realtime',
    'cache/spikekill',
  ])
    mkdirSync(join(varDir, sub), { recursive: true })
  const own: Record<string, string> = {
    'site/log': join(varDir, 'log'),
    'site/rra': join(varDir, 'rra'),
    'site/cache': join(varDir, 'cache'),
    'site/resource': join(root, 'resource'),
  }
  walk(root, (link) => {
    const rel = relative(root, link)
    const original = join(CACTI_DIR, rel)
    const target = own[rel] ?? (existsSync(original) ? realpathSync(original) : null)
    unlinkSync(link)
    if (rel === 'site/include/config.php') return
    if (target) symlinkSync(target, link)
    else symlinkSync(join(dirname(original), readlinkSync(original)), link)
  })
  writeFileSync(join(root, 'site/include/config.php'), configPhp(socket, varDir))
}
