/**
 * Starts and stops one private WordPress: a copy of the seeded template database served by its own
 * MariaDB (socket only, no TCP), a hard-linked copy of Debian's WordPress tree with this
 * instance's wp-config.php, and PHP's built-in server on 127.0.0.1 with a router that gives
 * pretty permalinks.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import { appendFile, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { dataDirOf, startMariaDb } from './mariadb'
import { freePort, lifetimeTimer } from '../childProcess'
import { killGroup, run, signalGroup, spawnServer, waitFor, type ServerProcess } from './proc'
import { seededTemplate } from './template'
import { makeTree, PHP_DIR, THEME, WORDPRESS_DIR } from './tree'

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

/**
 * Starts a fresh, seeded WordPress. Resolves once it answers HTTP on 127.0.0.1; stops by itself
 * after `lifetimeMs`. On any failure it stops what it started, removes its dir and rejects.
 */
export async function startWordPress(lifetimeMs: number): Promise<WordPressServer> {
  const template = await seededTemplate()
  // A short base: MariaDB's socket path must stay under the 108-byte limit of AF_UNIX.
  const dir = await mkdtemp(join(tmpdir(), 'sc-wp-'))
  const socket = join(dir, 'db.sock')
  let db: ServerProcess | null = null
  let php: ServerProcess | null = null
  let timer: NodeJS.Timeout | null = null
  let stopping: Promise<void> | null = null
  // If this Node process ends without close(), its servers must not outlive it.
  const onExit = () => {
    signalGroup(php, 'SIGKILL')
    signalGroup(db, 'SIGKILL')
    signalGroup(watchdog, 'SIGKILL')
    rmSync(dir, { recursive: true, force: true })
  }
  process.once('exit', onExit)
  // A signal or a crash ends Node without 'exit': a watchdog shell then kills the servers'
  // process groups (listed in pgids as they start) and removes the dir.
  const watchdog = spawnServer('sh', [
    '-c',
    'while kill -0 "$1" 2>/dev/null; do sleep 2; done;' +
      ' for g in $(cat "$2/pgids" 2>/dev/null); do kill -9 "-$g" 2>/dev/null; done; rm -rf "$2"',
    'watchdog',
    String(process.pid),
    dir,
  ])
  const remember = async (server: ServerProcess) =>
    appendFile(join(dir, 'pgids'), `${server.child.pid}\n`)
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (timer) clearTimeout(timer)
      process.removeListener('exit', onExit)
      await killGroup(php)
      await killGroup(db)
      await killGroup(watchdog)
      await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
    })()
    return stopping
  }
  try {
    await run('cp', ['-a', dataDirOf(template), dataDirOf(dir)])
    db = await startMariaDb(dataDirOf(dir), socket)
    await remember(db)
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    const www = join(dir, 'www')
    await makeTree(www, origin, socket)
    php = spawnServer(
      'php',
      ['-S', `127.0.0.1:${port}`, '-t', www, join(PHP_DIR, 'router.php')],
      // Several workers: an admin page loads many assets at once.
      { ...process.env, PHP_CLI_SERVER_WORKERS: '4' },
    )
    await remember(php)
    const answers = async () => {
      try {
        const res = await fetch(`${origin}/wp-login.php`, { redirect: 'manual' })
        await res.arrayBuffer()
        return res.status === 200
      } catch {
        return false
      }
    }
    await waitFor('php -S', php, answers, 60_000)
    timer = lifetimeTimer(lifetimeMs, stop)
    return { origin, dir, stop }
  } catch (error) {
    await stop()
    throw error
  }
}
