/**
 * Starts a private Shaarli: a small tree in a temp dir whose `index.php` is Debian's with the
 * config path pointed at the instance's own data dir (Debian's build hard-codes
 * /var/lib/shaarli/data/config), links to the rest of Debian's tree, the seeded config and
 * datastore, and PHP's built-in server on 127.0.0.1 with a router in place of Apache's rewrites.
 */
import { execFileSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  freePort,
  instanceStopper,
  killOnExit,
  orStop,
  spawnServer,
  waitForHttp,
} from '../childProcess'
import { BOOKMARKS, configFile, TIMEZONE, updatesFile, type DataPaths } from './seed'

/** Where Debian's `shaarli` package puts the code. */
const SHAARLI_TREE = '/usr/share/shaarli'
const PHP = '/usr/bin/php'
/** The parts of Debian's tree the instance links to (everything but index.php and the cache link). */
const LINKED = [
  'application',
  'assets',
  'inc',
  'plugins',
  'tpl',
  'init.php',
  'autoload.php',
  'shaarli_version.php',
]
/** The line of Debian's index.php that loads the config from /var/lib/shaarli. */
const CONFIG_LINE = '$conf = new ConfigManager();'
const HERE = dirname(fileURLToPath(import.meta.url))

/**
 * php -S has no rewrites: serve the files that exist (CSS, JS, fonts, images), and send every
 * other path to index.php, as Shaarli's .htaccess does under Apache. PHP files other than the
 * entry point are never run directly.
 */
const ROUTER = `<?php
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
if ($path !== '/' && !str_ends_with($path, '.php') && is_file(__DIR__ . $path)) {
    return false;
}
$_SERVER['SCRIPT_NAME'] = '/index.php';
$_SERVER['SCRIPT_FILENAME'] = __DIR__ . '/index.php';
require __DIR__ . '/index.php';
`

/** A running Shaarli server. */
export interface ShaarliServer {
  origin: string
  /** The instance's temp dir (tree in `www/`, config and datastore in `data/`). */
  dir: string
  /** Short hash (permalink `/shaare/<hash>`) of each seeded bookmark, by id. */
  hashes: Record<number, string>
  close(): Promise<void>
}

/** Why Shaarli cannot run here (naming the apt package), or null. */
export function shaarliUnavailable(): string | null {
  if (!existsSync(join(SHAARLI_TREE, 'index.php')))
    return 'Shaarli is not installed: apt-get install shaarli'
  if (!existsSync(PHP)) return 'php is not installed: apt-get install php-cli'
  return null
}

/** Debian's index.php with the config path replaced by the instance's. */
function entryPoint(dataDir: string): string {
  const source = readFileSync(join(SHAARLI_TREE, 'index.php'), 'utf8')
  if (!source.includes(CONFIG_LINE))
    throw new Error(`${SHAARLI_TREE}/index.php has no "${CONFIG_LINE}": another Shaarli version?`)
  return source.replace(
    CONFIG_LINE,
    `$conf = new ConfigManager(${JSON.stringify(`${dataDir}/config`)});`,
  )
}

/**
 * Builds a fresh instance and serves it; stops by itself after `lifetimeMs`. Rejects, after
 * removing everything, when a step fails.
 */
export async function startShaarliServer(lifetimeMs: number): Promise<ShaarliServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-shaarli-'))
  const www = join(dir, 'www')
  const paths: DataPaths = {
    data: join(dir, 'data'),
    cache: join(dir, 'cache'),
    pagecache: join(dir, 'pagecache'),
    tmp: join(dir, 'tmp'),
  }
  const sessions = join(dir, 'sessions')
  let unhook = (): void => {}
  // A Node process that dies without close() (a crash, a closed pipe) leaves no data dir behind.
  const removeDir = () => rmSync(dir, { recursive: true, force: true, maxRetries: 3 })
  process.once('exit', removeDir)
  // php -S may fork workers: the stopper ends the whole process group it leads.
  const stopper = instanceStopper(() => {
    unhook()
    process.removeListener('exit', removeDir)
    removeDir()
  })
  return orStop(stopper.stop, async () => {
    for (const d of [www, sessions, ...Object.values(paths)]) mkdirSync(d, { recursive: true })
    for (const part of LINKED) symlinkSync(join(SHAARLI_TREE, part), join(www, part))
    writeFileSync(join(www, 'index.php'), entryPoint(paths.data))
    writeFileSync(join(www, 'router.php'), ROUTER)
    writeFileSync(join(paths.data, 'config.json.php'), configFile(paths))
    writeFileSync(join(paths.data, 'updates.txt'), updatesFile())
    const seeded = execFileSync(PHP, [join(HERE, 'seed.php')], {
      input: JSON.stringify({
        datastore: join(paths.data, 'datastore.php'),
        timezone: TIMEZONE,
        bookmarks: BOOKMARKS,
      }),
      encoding: 'utf8',
      timeout: 60_000,
    })
    const hashes = JSON.parse(seeded) as Record<number, string>
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    // Offline and deterministic: any page Shaarli would fetch (a bookmarked URL's title) goes to
    // a proxy that refuses at once, whether or not this machine reaches the internet.
    const noNetwork = 'http://127.0.0.1:9'
    const child = spawnServer(
      PHP,
      [
        '-d',
        `session.save_path=${sessions}`,
        '-d',
        `date.timezone=${TIMEZONE}`,
        '-S',
        `127.0.0.1:${port}`,
        '-t',
        www,
        join(www, 'router.php'),
      ],
      {
        cwd: www,
        env: {
          ...process.env,
          http_proxy: noNetwork,
          https_proxy: noNetwork,
          HTTPS_PROXY: noNetwork,
          all_proxy: noNetwork,
          no_proxy: '',
        },
      },
    ).child
    stopper.server = child
    // A detached server outlives a Node process that dies without close(): kill it on exit.
    unhook = killOnExit(child)
    await waitForHttp(`${origin}/login`, child, {
      name: 'php -S (Shaarli)',
      timeoutMs: 30_000,
      redirect: 'manual',
      ready: (res) => res.status === 200,
    })
    stopper.expireAfter(lifetimeMs)
    return { origin, dir, hashes, close: stopper.stop }
  })
}
