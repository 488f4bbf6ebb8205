/**
 * Starts and stops one private WordPress: its own MariaDB (data dir and socket in a temp dir, no
 * TCP), its own copy of Debian's WordPress tree with a wp-config.php written here, installed and
 * seeded by php-cli, and served by PHP's built-in server on 127.0.0.1 with a router that gives
 * pretty permalinks.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { seedJson } from './seed'

/** Debian's WordPress tree (apt `wordpress`). */
export const WORDPRESS_DIR = '/usr/share/wordpress'
const THEME = 'twentytwentyone'
const PHP_DIR = join(dirname(fileURLToPath(import.meta.url)), 'php')

/** A started WordPress: where it answers and how to stop it. */
export interface WordPressServer {
  origin: string
  dir: string
  stop(): Promise<void>
}

/**
 * What is missing to run WordPress here, named with the apt command that brings it, or null.
 * Checks files only, plus one quick php-cli call for the mysqli extension.
 */
export function missingPackages(): string | null {
  const missing: string[] = []
  if (!existsSync(join(WORDPRESS_DIR, 'wp-settings.php'))) missing.push('wordpress')
  if (!existsSync(join(WORDPRESS_DIR, 'wp-content/themes', THEME, 'style.css')))
    missing.push(`wordpress-theme-${THEME}`)
  if (!existsSync('/usr/sbin/mariadbd') || !existsSync('/usr/bin/mariadb-install-db'))
    missing.push('mariadb-server')
  if (!existsSync('/usr/bin/php')) missing.push('php-cli')
  else {
    const probe = spawnSync('php', ['-r', 'exit(extension_loaded("mysqli") ? 0 : 1);'])
    if (probe.status !== 0) missing.push('php-mysql')
  }
  if (missing.length === 0) return null
  return `WordPress needs ${missing.join(', ')}: apt-get install -y --no-install-recommends ${missing.join(' ')}`
}

/** Runs a command to its end; rejects with its stderr when it fails. */
function run(command: string, args: string[], options: { cwd?: string } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => {
      if (code === 0) resolve(out)
      else reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${err || out}`))
    })
  })
}

/** A port on 127.0.0.1 that was free a moment ago. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls until `ready()` is true; fails early when the server process already exited. */
async function waitFor(
  what: string,
  child: ChildProcess,
  ready: () => Promise<boolean>,
  timeoutMs: number,
  log: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}): ${log()}`)
    if (await ready()) return
    await sleep(150)
  }
  throw new Error(`${what} did not come up within ${timeoutMs} ms: ${log()}`)
}

/** Starts a long-running server in its own process group, keeping the tail of its output. */
function spawnServer(command: string, args: string[], env?: NodeJS.ProcessEnv) {
  // detached: the server leads its own process group, so stopping kills it and every worker it
  // forked (php -S forks PHP_CLI_SERVER_WORKERS workers).
  const child = spawn(command, args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: env ?? process.env,
  })
  let log = ''
  const keep = (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000))
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  child.unref()
  return { child, log: () => log }
}

/** Kills a process group and waits (up to 10 s, then SIGKILL) until its leader is gone. */
async function killGroup(child: ChildProcess | null): Promise<void> {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig)
    } catch {
      // Already gone.
    }
  }
  signal('SIGTERM')
  const timer = setTimeout(() => signal('SIGKILL'), 10_000)
  await gone
  clearTimeout(timer)
}

function wpConfig(origin: string, socket: string): string {
  const salts = [
    'AUTH_KEY',
    'SECURE_AUTH_KEY',
    'LOGGED_IN_KEY',
    'NONCE_KEY',
    'AUTH_SALT',
    'SECURE_AUTH_SALT',
    'LOGGED_IN_SALT',
    'NONCE_SALT',
  ]
  // Fixed salts keep cookie names and nonce shapes stable; WP_HOME/WP_SITEURL carry this
  // instance's port, since the database (seeded once per start) must not need rewriting.
  return [
    '<?php',
    "define('DB_NAME', 'wordpress');",
    "define('DB_USER', 'wordpress');",
    "define('DB_PASSWORD', 'wordpress');",
    `define('DB_HOST', 'localhost:${socket}');`,
    "define('DB_CHARSET', 'utf8mb4');",
    "define('DB_COLLATE', '');",
    ...salts.map((name) => `define('${name}', 'sitecall-fixed-${name.toLowerCase()}');`),
    `define('WP_HOME', '${origin}');`,
    `define('WP_SITEURL', '${origin}');`,
    "define('WP_CONTENT_DIR', __DIR__ . '/wp-content');",
    "define('DISABLE_WP_CRON', true);",
    "define('AUTOMATIC_UPDATER_DISABLED', true);",
    "define('WP_AUTO_UPDATE_CORE', false);",
    "define('DISALLOW_FILE_MODS', true);",
    "define('WP_HTTP_BLOCK_EXTERNAL', true);",
    "$table_prefix = 'wp_';",
    "if (!defined('ABSPATH')) define('ABSPATH', __DIR__ . '/');",
    "require_once ABSPATH . 'wp-settings.php';",
    '',
  ].join('\n')
}

/**
 * Starts a fresh, seeded WordPress. Resolves once it answers HTTP on 127.0.0.1; stops by itself
 * after `lifetimeMs`. On any failure it stops what it started, removes its dir and rejects.
 */
export async function startWordPress(lifetimeMs: number): Promise<WordPressServer> {
  // A short base: MariaDB's socket path must stay under the 108-byte limit of AF_UNIX.
  const dir = await mkdtemp(join(tmpdir(), 'sc-wp-'))
  const socket = join(dir, 'db.sock')
  const www = join(dir, 'www')
  let db: ReturnType<typeof spawnServer> | null = null
  let php: ReturnType<typeof spawnServer> | null = null
  let timer: NodeJS.Timeout | null = null
  let stopping: Promise<void> | null = null
  // If this Node process ends without close(), its servers must not outlive it.
  const onExit = () => {
    for (const server of [php, db])
      if (server?.child.pid)
        try {
          process.kill(-server.child.pid, 'SIGKILL')
        } catch {
          // Already gone.
        }
  }
  process.once('exit', onExit)
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (timer) clearTimeout(timer)
      process.removeListener('exit', onExit)
      await killGroup(php?.child ?? null)
      await killGroup(db?.child ?? null)
      await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
    })()
    return stopping
  }
  try {
    await run('mariadb-install-db', [
      '--no-defaults',
      `--datadir=${join(dir, 'db')}`,
      '--auth-root-authentication-method=normal',
      '--user=root',
      '--skip-test-db',
    ])
    db = spawnServer('mariadbd', [
      '--no-defaults',
      `--datadir=${join(dir, 'db')}`,
      `--socket=${socket}`,
      '--skip-networking',
      `--pid-file=${join(dir, 'db.pid')}`,
      '--user=root',
      // Small log and pool: many instances share a small machine.
      '--innodb-log-file-size=8M',
      '--innodb-buffer-pool-size=32M',
      '--skip-log-bin',
    ])
    await waitFor('mariadbd', db.child, async () => existsSync(socket), 30_000, db.log)
    await run('mariadb', [
      '--no-defaults',
      `--socket=${socket}`,
      '-uroot',
      '-e',
      "CREATE DATABASE wordpress; CREATE USER 'wordpress'@'localhost' IDENTIFIED BY 'wordpress';" +
        " GRANT ALL ON wordpress.* TO 'wordpress'@'localhost';",
    ])
    // Hard links make the 60 MB tree a sub-second copy. WordPress never rewrites its own files
    // here (DISALLOW_FILE_MODS, no updater); the one file written into the tree, wp-config.php,
    // is unlinked first so Debian's original is never written through. Another file system
    // cannot hold hard links: then a real copy.
    await run('cp', ['-al', WORDPRESS_DIR, www]).catch(async () => {
      await rm(www, { recursive: true, force: true })
      await run('cp', ['-a', WORDPRESS_DIR, www])
    })
    // Debian's .htaccess is a symlink into /etc; PHP's server ignores it anyway.
    await rm(join(www, '.htaccess'), { force: true })
    await mkdir(join(www, 'wp-content/mu-plugins'), { recursive: true })
    await mkdir(join(www, 'wp-content/uploads'), { recursive: true })
    await copyFile(join(PHP_DIR, 'sitecall.php'), join(www, 'wp-content/mu-plugins/sitecall.php'))
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    await rm(join(www, 'wp-config.php'))
    await writeFile(join(www, 'wp-config.php'), wpConfig(origin, socket))
    await writeFile(join(dir, 'seed.json'), seedJson(origin))
    await run('php', [join(PHP_DIR, 'install.php'), www, join(dir, 'seed.json')])
    php = spawnServer(
      'php',
      ['-S', `127.0.0.1:${port}`, '-t', www, join(PHP_DIR, 'router.php')],
      // Several workers: an admin page loads many assets at once.
      { ...process.env, PHP_CLI_SERVER_WORKERS: '4' },
    )
    const answers = async () => {
      try {
        const res = await fetch(`${origin}/wp-login.php`, { redirect: 'manual' })
        await res.arrayBuffer()
        return res.status === 200
      } catch {
        return false
      }
    }
    await waitFor('php -S', php.child, answers, 30_000, php.log)
    timer = setTimeout(() => void stop(), lifetimeMs)
    timer.unref()
    return { origin, dir, stop }
  } catch (error) {
    await stop()
    throw error
  }
}
