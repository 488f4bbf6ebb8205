import { spawnSync } from 'node:child_process'
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
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, instanceStopper, orStop, spawnServer, waitForHttp } from '../childProcess'
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

/**
 * Starts a private copy of the wiki on a free port of 127.0.0.1 with PHP's built-in server, in a
 * fresh temp dir copied from the template; resolves once the main page answers. Stops by itself
 * after `lifetimeMs`.
 */
export async function startServer(lifetimeMs: number): Promise<MediaWikiServer> {
  const source = templateDir()
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-mediawiki-'))
  // The workers PHP forks share its process group: the stopper kills the group, not the parent.
  const stopper = instanceStopper(() => rmSync(dir, { recursive: true, force: true }))
  return orStop(stopper.stop, async () => {
    cpSync(join(source, 'db'), join(dir, 'db'), { recursive: true })
    const root = webRoot(dir)
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    const settings = join(dir, 'LocalSettings.php')
    writeFileSync(settings, localSettings(dir, origin))
    const child = spawnServer('php', ['-S', `127.0.0.1:${port}`, '-t', root], {
      cwd: root,
      env: {
        ...process.env,
        MW_INSTALL_PATH: MEDIAWIKI_CODE,
        MW_CONFIG_FILE: settings,
        // A few workers, so the page and its load.php requests do not queue behind each other.
        PHP_CLI_SERVER_WORKERS: '3',
      },
    }).child
    stopper.server = child
    stopper.expireAfter(lifetimeMs)
    await waitForHttp(`${origin}/index.php?title=Main_Page`, child, {
      name: 'php -S (MediaWiki)',
      timeoutMs: 60_000,
      ready: (res) => res.status === 200,
    })
    return { origin, port, close: stopper.stop }
  })
}
