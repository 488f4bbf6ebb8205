import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ADMIN, SEED_PAGES } from './seed'
import { MEDIAWIKI_CODE, SITE_NAME, localSettings } from './settings'

/** A running `php -S` serving one private copy of the wiki. */
export interface MediaWikiServer {
  origin: string
  port: number
  /** Kills PHP's process group and removes the data dir. Safe to call twice. */
  close(): Promise<void>
}

/** Runs a PHP maintenance script of the package synchronously; throws with its output on failure. */
function php(args: string[], env: Record<string, string> = {}): void {
  const run = spawnSync('php', args, {
    cwd: MEDIAWIKI_CODE,
    env: { ...process.env, MW_INSTALL_PATH: MEDIAWIKI_CODE, ...env },
    encoding: 'utf8',
    timeout: 180_000,
  })
  if (run.status !== 0)
    throw new Error(`php ${args.slice(0, 2).join(' ')} failed: ${run.stdout}\n${run.stderr}`)
}

let template: string | null = null

/**
 * Installs the wiki once per process into a template dir (SQLite databases with the admin, the
 * seed pages and a warm localisation cache) that every start copies: the installer and the cache
 * rebuild take seconds, a copy does not. The template goes away when the process exits.
 */
function templateDir(): string {
  if (template && existsSync(join(template, 'db', 'my_wiki.sqlite'))) return template
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-mediawiki-template-'))
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
  try {
    mkdirSync(join(dir, 'db'))
    mkdirSync(join(dir, 'installer'))
    // The installer writes its own LocalSettings.php into installer/; ours replaces it.
    php([
      'maintenance/install.php',
      '--dbtype=sqlite',
      `--dbpath=${join(dir, 'db')}`,
      '--server=http://127.0.0.1',
      '--scriptpath=',
      `--pass=${ADMIN.password}`,
      `--confpath=${join(dir, 'installer')}`,
      '--lang=en',
      SITE_NAME,
      ADMIN.name,
    ])
    const settings = join(dir, 'LocalSettings.php')
    writeFileSync(settings, localSettings(dir, 'http://127.0.0.1'))
    const env = { MW_CONFIG_FILE: settings }
    const pages = join(dir, 'pages')
    mkdirSync(pages)
    const files = SEED_PAGES.map((page) => {
      const file = join(pages, `${page.title}.txt`)
      writeFileSync(file, page.text)
      return file
    })
    // One script run for all pages, in SEED_PAGES order, so page ids are the same every time.
    php(
      [
        'maintenance/importTextFiles.php',
        '--user',
        ADMIN.name,
        '--summary',
        'Seed',
        '--rc',
        ...files,
      ],
      env,
    )
    php(['maintenance/rebuildLocalisationCache.php', '--lang=en', '--quiet'], env)
    rmSync(pages, { recursive: true, force: true })
    template = dir
    return dir
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
}

/** A free TCP port on 127.0.0.1 (asked of the OS, then released for PHP to bind). */
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

/**
 * The web root: a symlink per entry of the package's code, except its LocalSettings.php (ours is
 * named by MW_CONFIG_FILE) and images/ (a real dir, where uploads go and `php -S` serves them).
 */
function webRoot(dir: string): string {
  const root = join(dir, 'root')
  mkdirSync(root)
  for (const entry of readdirSync(MEDIAWIKI_CODE)) {
    if (entry === 'LocalSettings.php' || entry === 'images') continue
    symlinkSync(join(MEDIAWIKI_CODE, entry), join(root, entry))
  }
  mkdirSync(join(root, 'images'))
  return root
}

/** Waits until the wiki answers its main page with 200, or throws after `timeoutMs`. */
async function waitUntilUp(origin: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let last = 'no answer'
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`php -S exited with ${child.exitCode}`)
    try {
      const res = await fetch(`${origin}/index.php?title=Main_Page`)
      if (res.status === 200) return
      last = `HTTP ${res.status}`
    } catch (error) {
      last = String(error)
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`MediaWiki did not answer within ${timeoutMs} ms (${last})`)
}

/**
 * Starts a private copy of the wiki on a free port of 127.0.0.1 with PHP's built-in server, in a
 * fresh temp dir copied from the template; resolves once the main page answers. Stops by itself
 * after `lifetimeMs`.
 */
export async function startServer(lifetimeMs: number): Promise<MediaWikiServer> {
  const source = templateDir()
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-mediawiki-'))
  let child: ChildProcess | null = null
  let timer: NodeJS.Timeout | null = null
  let closing: Promise<void> | null = null
  const close = (): Promise<void> => {
    closing ??= (async () => {
      if (timer) clearTimeout(timer)
      if (child?.pid && child.exitCode === null) {
        const exited = new Promise((resolve) => child!.once('exit', resolve))
        // The workers PHP forks share its process group: kill the group, not only the parent.
        try {
          process.kill(-child.pid, 'SIGTERM')
        } catch {
          // already gone
        }
        const killed = await Promise.race([
          exited.then(() => true),
          new Promise((resolve) => setTimeout(() => resolve(false), 3000)),
        ])
        if (!killed) {
          try {
            process.kill(-child.pid, 'SIGKILL')
          } catch {
            // already gone
          }
        }
      }
      rmSync(dir, { recursive: true, force: true })
    })()
    return closing
  }
  try {
    cpSync(join(source, 'db'), join(dir, 'db'), { recursive: true })
    const root = webRoot(dir)
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    const settings = join(dir, 'LocalSettings.php')
    writeFileSync(settings, localSettings(dir, origin))
    child = spawn('php', ['-S', `127.0.0.1:${port}`, '-t', root], {
      cwd: root,
      detached: true,
      stdio: 'ignore',
      env: {
        ...process.env,
        MW_INSTALL_PATH: MEDIAWIKI_CODE,
        MW_CONFIG_FILE: settings,
        // A few workers, so the page and its load.php requests do not queue behind each other.
        PHP_CLI_SERVER_WORKERS: '3',
      },
    })
    timer = setTimeout(() => void close(), lifetimeMs)
    timer.unref()
    await waitUntilUp(origin, child, 60_000)
    return { origin, port, close }
  } catch (error) {
    await close()
    throw error
  }
}
