/**
 * Starts a private mlmmj web admin: a temp dir holding a copy of Debian's four pages (and their
 * template class) under `htdocs/`, a `conf/config.php` beside it pointing the pages at the
 * instance's own spool (`spool/`, the seeded lists) while keeping Debian's templates and
 * `tunables.pl` from /etc/mlmmj-php-web-admin, a Basic password file, and PHP's built-in server
 * with a router that does what Debian's `.htaccess` asks of Apache (`Require valid-user`,
 * `AuthType Basic`, an htpasswd file). The pages find `conf/` as `dirname(dirname(__FILE__))`,
 * which is why they are copied rather than linked (PHP resolves links in `__FILE__`).
 *
 * Debian 12 ships this package unchanged since 2020 and it does not run on Debian 12's only PHP,
 * 8.2, nor read its own `tunables.pl` (NOTES.md has the details). The instance's copies get the
 * smallest mechanical fixes, each checked to apply (another version of a file fails the start):
 * - `class.rFastTemplate.php`: its PHP 4 constructor `function rFastTemplate(` becomes
 *   `function __construct(` (PHP 8 no longer calls a method named like its class, so no template
 *   dir was ever set), and its four character reads `$s{$i}` become `$s[$i]` (a syntax PHP 8
 *   removed: a parse error on every page). `each()` (removed in PHP 8) is defined again, as PHP 7
 *   had it, in a file PHP prepends to every request.
 * - `tunables.pl` (the list of tunables edit.php and save.php `eval`): the modonlypost text has
 *   unescaped quotes around "From:", a parse error in any PHP; they get their backslashes, as the
 *   same words in subonlypost have. The instance's `conf/` holds that copy; the templates stay
 *   Debian's.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  freePort,
  instanceStopper,
  killOnExit,
  orStop,
  runCommand,
  spawnServer,
  waitForHttp,
} from '../childProcess'
import { seedLists, USER } from './seed'

/** Debian's `mlmmj-php-web-admin`: the pages, and its config dir (templates, tunables.pl). */
const HTDOCS = '/usr/share/mlmmj-php-web-admin/htdocs'
const ETC = '/etc/mlmmj-php-web-admin'
const PAGES = ['index.php', 'edit.php', 'save.php', 'subscribers.php', 'class.rFastTemplate.php']
const PHP = '/usr/bin/php'
/** The template class's PHP 4 constructor. */
const OLD_CONSTRUCTOR = 'function rFastTemplate ('
/** tunables.pl's unescaped quotes (modonlypost), and the same words escaped. */
const BAD_QUOTES = 'made against the "From:" header.");'
const GOOD_QUOTES = 'made against the \\"From:\\" header.");'
/** The template class's string offsets in braces (`$rest{$offbeg}`), PHP 8's parse error. */
const BRACE_OFFSET = /\$(\w+)\{(\$\w+)\}/g
/** PHP 7's `each()` (removed in PHP 8.0), which the template class still calls. */
const EACH_PHP = `<?php
if (!function_exists('each')) {
  function each(array &$array) {
    $key = key($array);
    if ($key === null) return false;
    $value = current($array);
    next($array);
    return [1 => $value, 'value' => $value, 0 => $key, 'key' => $key];
  }
}
`
/** The realm Debian's `.htaccess` names. */
const REALM = 'mlmmj web-interface on Debian GNU/Linux'

/** A running web admin. */
export interface MlmmjServer {
  origin: string
  /** The instance's temp dir (the lists are under `spool/`). */
  dir: string
  close(): Promise<void>
}

/** Why the web admin cannot run here (naming the apt packages), or null. */
export function mlmmjUnavailable(): string | null {
  const install = 'apt-get install --no-install-recommends mlmmj-php-web-admin php-cli'
  if (!PAGES.every((p) => existsSync(join(HTDOCS, p))) || !existsSync(join(ETC, 'tunables.pl')))
    return `mlmmj-php-web-admin is not installed: ${install}`
  for (const bin of ['mlmmj-make-ml', 'mlmmj-sub', 'mlmmj-unsub', 'mlmmj-list'])
    if (!existsSync(`/usr/bin/${bin}`)) return `mlmmj is not installed: ${install}`
  if (!existsSync(PHP)) return `php is not installed: ${install}`
  return null
}

/** Debian's config.php, with the spool and the conf dir (tunables.pl) moved into the instance. */
function configPhp(spool: string, conf: string): string {
  return `<?php

$topdir = ${JSON.stringify(spool)};
$confdir = ${JSON.stringify(conf)};
$templatedir = ${JSON.stringify(`${ETC}/templates`)};

?>
`
}

/**
 * The php -S router: Apache's Basic check from Debian's `.htaccess` (every page needs a user of
 * the htpasswd file; a miss gets 401 with the realm), then the request goes on to the page as
 * Apache would send it (php -S runs the existing `.php` files, `/` is `index.php`); anything else
 * is 404. The pages never read the user: the login only lets a person in.
 */
function routerPhp(htpasswd: string): string {
  return `<?php
$user = $_SERVER['PHP_AUTH_USER'] ?? null;
$password = $_SERVER['PHP_AUTH_PW'] ?? '';
$ok = false;
if ($user !== null) {
  foreach (file(${JSON.stringify(htpasswd)}, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
    $entry = explode(':', $line, 2);
    if (count($entry) === 2 && $entry[0] === $user && password_verify($password, $entry[1])) $ok = true;
  }
}
if (!$ok) {
  http_response_code(401);
  header('WWW-Authenticate: Basic realm="${REALM}"');
  header('Content-Type: text/html; charset=iso-8859-1');
  echo "<html><head><title>401 Unauthorized</title></head><body><h1>Unauthorized</h1>" .
    "<p>This server could not verify that you are authorized to access the document requested.</p></body></html>";
  return true;
}
$_SERVER['REMOTE_USER'] = $user;
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
if ($path === '/' || (str_ends_with($path, '.php') && is_file(__DIR__ . '/htdocs' . $path))) {
  return false;
}
http_response_code(404);
echo "<html><body><h1>Not Found</h1></body></html>";
return true;
`
}

/**
 * Builds a fresh instance and serves it; stops by itself after `lifetimeMs`. Rejects, after
 * removing everything, when a step fails.
 */
export async function startMlmmjServer(lifetimeMs: number): Promise<MlmmjServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-mlmmj-'))
  const removeDir = () => rmSync(dir, { recursive: true, force: true, maxRetries: 3 })
  let unhook = (): void => {}
  const stopper = instanceStopper(() => {
    unhook()
    removeDir()
  })
  return orStop(stopper.stop, async () => {
    const htdocs = join(dir, 'htdocs')
    const spool = join(dir, 'spool')
    for (const d of [htdocs, join(dir, 'conf')]) mkdirSync(d, { recursive: true })
    for (const page of PAGES) copyFileSync(join(HTDOCS, page), join(htdocs, page))
    const template = readFileSync(join(HTDOCS, 'class.rFastTemplate.php'), 'latin1')
    if (!template.includes(OLD_CONSTRUCTOR) || !template.match(BRACE_OFFSET))
      throw new Error('class.rFastTemplate.php is not the one this was written for')
    const patched = template
      .replace(OLD_CONSTRUCTOR, 'function __construct (')
      .replace(BRACE_OFFSET, '$$$1[$2]')
    writeFileSync(join(htdocs, 'class.rFastTemplate.php'), patched, 'latin1')
    const tunables = readFileSync(join(ETC, 'tunables.pl'), 'latin1')
    if (!tunables.includes(BAD_QUOTES)) throw new Error('tunables.pl is not the one expected')
    writeFileSync(join(dir, 'conf', 'tunables.pl'), tunables.replace(BAD_QUOTES, GOOD_QUOTES))
    writeFileSync(join(dir, 'php8-each.php'), EACH_PHP)
    writeFileSync(join(dir, 'conf', 'config.php'), configPhp(spool, join(dir, 'conf')))
    const htpasswd = join(dir, 'htpasswd')
    const hash = await runCommand(
      PHP,
      ['-r', 'echo password_hash(stream_get_contents(STDIN), PASSWORD_BCRYPT);'],
      { input: USER.password },
    )
    writeFileSync(htpasswd, `${USER.name}:${hash.trim()}\n`)
    writeFileSync(join(dir, 'router.php'), routerPhp(htpasswd))
    await seedLists(spool)

    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    const server = spawnServer(
      PHP,
      [
        ...['-d', 'date.timezone=UTC', '-d', 'display_errors=stderr'],
        ...['-d', `auto_prepend_file=${join(dir, 'php8-each.php')}`],
        ...['-S', `127.0.0.1:${port}`, '-t', htdocs, join(dir, 'router.php')],
      ],
      {
        cwd: dir,
        // The engine may send a tool's steps while a page still loads: two workers.
        env: { ...process.env, PHP_CLI_SERVER_WORKERS: '2' },
        output: { stderr: true },
      },
    )
    stopper.server = server.child
    unhook = killOnExit(server.child)
    await waitForHttp(`${origin}/index.php`, server.child, {
      name: 'php -S (mlmmj)',
      timeoutMs: 20_000,
      requestTimeoutMs: 5_000,
      redirect: 'manual',
      ready: (res) => res.status === 401,
    })
    stopper.expireAfter(lifetimeMs)
    return { origin, dir, close: stopper.stop }
  })
}
