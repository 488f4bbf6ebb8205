/**
 * Starts a private Roundcube: its own Dovecot (IMAP only, a passwd-file user, Maildir in the
 * instance's temp dir) on one free port, the seed appended over IMAP, a fresh SQLite database
 * with the seeded user, identities and contacts, and PHP's built-in server serving Debian's
 * Roundcube tree with a config dir of its own (Roundcube reads `ROUNDCUBE_CONFIG_DIR`).
 */
import { execFileSync } from 'node:child_process'
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  freePort,
  instanceStopper,
  orStop,
  spawnServer,
  waitForHttp,
  waitUntil,
} from '../childProcess'
import { appendSeed, imapAnswers } from './imap'
import { FOLDERS, MAIN_USER, seedSql } from './seed'

/** Debian's Roundcube tree: `public_html` is the web root, its parent the INSTALL_PATH. */
const RC_ROOT = '/var/lib/roundcube'
const RC_DEFAULTS = '/etc/roundcube/defaults.inc.php'
const RC_SQL = '/usr/share/roundcube/SQL/sqlite.initial.sql'
const PHP = '/usr/bin/php'
const DOVECOT = '/usr/sbin/dovecot'
/** Dovecot refuses to run mail processes as root: the Maildir belongs to Debian's `mail` user. */
const MAIL_UID = 8
const MAIL_GID = 8

/** A running Roundcube with its Dovecot. */
export interface RoundcubeServer {
  origin: string
  imapPort: number
  dir: string
  close(): Promise<void>
}

/** Why Roundcube cannot run here (naming the apt packages), or null. */
export function roundcubeUnavailable(): string | null {
  if (!existsSync(join(RC_ROOT, 'public_html', 'index.php')) || !existsSync(RC_DEFAULTS))
    return 'Roundcube is not installed: apt-get install roundcube roundcube-sqlite3'
  if (!existsSync(DOVECOT) || !existsSync('/usr/lib/dovecot/imap'))
    return 'Dovecot IMAP is not installed: apt-get install dovecot-imapd'
  if (!existsSync(PHP)) return 'php is not installed: apt-get install php-cli'
  if (process.getuid?.() !== 0) return 'Dovecot needs root here (it runs mail as uid 8)'
  return null
}

/** Dovecot's whole config: IMAP on 127.0.0.1:`port` only, plaintext login, no TLS, no system paths. */
function dovecotConf(dir: string, port: number): string {
  const box = (name: string) =>
    ['Drafts', 'Sent', 'Trash', 'Junk', 'Archive'].includes(name)
      ? `  mailbox ${name} {\n    special_use = \\${name}\n    auto = subscribe\n  }`
      : `  mailbox ${name} {\n    auto = subscribe\n  }`
  return `base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
first_valid_uid = ${MAIL_UID}
mail_location = maildir:~/Maildir
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%n ${dir}/passwd
}
userdb {
  driver = static
  args = uid=${MAIL_UID} gid=${MAIL_GID} home=${dir}/mail/%n
}
namespace inbox {
  inbox = yes
  separator = /
${FOLDERS.map(box).join('\n')}
}
`
}

/**
 * The php -S router: static files (skin, scripts, fonts) are served with the one-month expiry
 * Roundcube's own .htaccess gives them under Apache (mod_expires), so a browser loads each once
 * per recording instead of on every page and frame; everything else goes to index.php.
 */
const ROUTER = `<?php
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
$types = ['js' => 'application/javascript', 'css' => 'text/css', 'woff2' => 'font/woff2',
  'woff' => 'font/woff', 'ttf' => 'font/ttf', 'eot' => 'application/vnd.ms-fontobject',
  'svg' => 'image/svg+xml', 'png' => 'image/png', 'gif' => 'image/gif', 'jpg' => 'image/jpeg',
  'ico' => 'image/x-icon', 'webp' => 'image/webp', 'tiff' => 'image/tiff', 'html' => 'text/html',
  'json' => 'application/json'];
$ext = strtolower(pathinfo($path, PATHINFO_EXTENSION));
$file = $_SERVER['DOCUMENT_ROOT'] . $path;
if (isset($types[$ext]) && strpos($path, '..') === false && is_file($file)) {
  header('Content-Type: ' . $types[$ext]);
  header('Cache-Control: public, max-age=2592000');
  header('Expires: ' . gmdate('D, d M Y H:i:s', time() + 2592000) . ' GMT');
  header('Content-Length: ' . filesize($file));
  readfile($file);
  return true;
}
return false;
`

/** Roundcube's local config: the private Dovecot, SQLite in the temp dir, nothing in the background. */
function roundcubeConf(dir: string, imapPort: number): string {
  return `<?php
$config = [];
$config['db_dsnw'] = 'sqlite:///${dir}/roundcube.db?mode=0646';
$config['imap_host'] = '127.0.0.1:${imapPort}';
$config['imap_cache'] = null;
$config['messages_cache'] = false;
$config['smtp_host'] = '';
$config['des_key'] = 'sitecall-roundcube-key-24';
$config['plugins'] = [];
$config['skin'] = 'elastic';
$config['language'] = 'en_US';
$config['timezone'] = 'UTC';
$config['log_dir'] = '${dir}/logs/';
$config['temp_dir'] = '${dir}/temp/';
$config['enable_installer'] = false;
$config['enable_spellcheck'] = false;
$config['support_url'] = '';
$config['product_name'] = 'Roundcube Webmail';
// A long session: evaluations run for many minutes on one saved login.
$config['session_lifetime'] = 1440;
// No timers that send requests by themselves (new-mail checks, draft saves, mark-as-read).
$config['refresh_interval'] = 0;
$config['draft_autosave'] = 0;
$config['mail_read_time'] = -1;
// The wide three-column list, the same on every start.
$config['layout'] = 'widescreen';
$config['message_sort_col'] = 'date';
$config['message_sort_order'] = 'DESC';
`
}

/**
 * Builds and serves a fresh instance; stops by itself after `lifetimeMs`. Rejects, after
 * removing everything, when a step fails.
 */
export async function startRoundcubeServer(lifetimeMs: number): Promise<RoundcubeServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-roundcube-'))
  const stopper = instanceStopper(() =>
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 }),
  )
  return orStop(stopper.stop, async () => {
    // Dovecot's login and mail processes (dovenull, mail) must reach their sockets and Maildir.
    chmodSync(dir, 0o755)
    for (const sub of ['run', 'state', 'logs', 'temp', 'config']) mkdirSync(join(dir, sub))
    mkdirSync(join(dir, 'mail'))
    chownSync(join(dir, 'mail'), MAIL_UID, MAIL_GID)
    writeFileSync(join(dir, 'passwd'), `${MAIN_USER.name}:{PLAIN}${MAIN_USER.password}::::::\n`)
    const imapPort = await freePort()
    const port = await freePort()
    writeFileSync(join(dir, 'dovecot.conf'), dovecotConf(dir, imapPort))
    // Roundcube reads defaults.inc.php, then config.inc.php, from its config dir.
    copyFileSync(RC_DEFAULTS, join(dir, 'config', 'defaults.inc.php'))
    copyFileSync('/etc/roundcube/mimetypes.php', join(dir, 'config', 'mimetypes.php'))
    writeFileSync(join(dir, 'config', 'config.inc.php'), roundcubeConf(dir, imapPort))
    writeFileSync(join(dir, 'seed.sql'), seedSql())
    writeFileSync(join(dir, 'router.php'), ROUTER)
    // The schema and the seed rows, through PHP's own SQLite (no sqlite3 CLI needed).
    execFileSync(
      PHP,
      [
        '-r',
        '$db = new PDO("sqlite:" . $argv[1]); $db->exec(file_get_contents($argv[2])); ' +
          'if ($db->errorCode() !== "00000") { fwrite(STDERR, implode(" ", $db->errorInfo())); exit(1); } ' +
          '$db->exec(file_get_contents($argv[3])); ' +
          'if ($db->errorCode() !== "00000") { fwrite(STDERR, implode(" ", $db->errorInfo())); exit(1); }',
        join(dir, 'roundcube.db'),
        RC_SQL,
        join(dir, 'seed.sql'),
      ],
      { stdio: ['ignore', 'ignore', 'pipe'], timeout: 60_000 },
    )
    const origin = `http://127.0.0.1:${port}`
    // One process group for both servers: the shell starts Dovecot in the background and then
    // becomes php -S, so stopping the group ends Dovecot and its workers too.
    const server = spawnServer(
      '/bin/sh',
      [
        '-c',
        `"${DOVECOT}" -F -c "${dir}/dovecot.conf" & exec "${PHP}" -d session.save_path="${dir}/temp" ` +
          `-S 127.0.0.1:${port} -t "${RC_ROOT}/public_html" "${dir}/router.php"`,
      ],
      {
        cwd: dir,
        env: { ...process.env, ROUNDCUBE_CONFIG_DIR: join(dir, 'config') },
        output: { stderr: true },
      },
    )
    stopper.server = server.child
    await waitUntil('Dovecot', server.child, () => imapAnswers(imapPort), {
      timeoutMs: 30_000,
      intervalMs: 200,
      detail: server.log,
    })
    await appendSeed(imapPort, MAIN_USER)
    await waitForHttp(`${origin}/`, server.child, {
      name: 'php -S (Roundcube)',
      timeoutMs: 30_000,
      redirect: 'manual',
    })
    stopper.expireAfter(lifetimeMs)
    return { origin, imapPort, dir, close: stopper.stop }
  })
}
