/**
 * Starts a private graphite-web 1.1.8 (Debian's `graphite-web`, Django 3.2): a temp dir holding
 * its SQLite database, whisper files and logs, two settings modules on PYTHONPATH, and Django's
 * own development server on a free 127.0.0.1 port. graphite's settings import a "local settings"
 * module named by GRAPHITE_SETTINGS_MODULE (Debian's is /etc/graphite/local_settings.py, never
 * used here): ours points every dir into the temp dir. A second module, the one Django loads,
 * imports graphite's settings and then serves Debian's static files (which live in
 * /usr/share/graphite-web/static, not where graphite looks for them) through staticfiles, all
 * but dashboard.js, served from the temp dir with a one-line fix (see {@link patchedDashboardJs}).
 * `seed.py` migrates the database and writes the seed before the server starts. No carbon
 * daemon runs: the webapp reads the whisper files directly.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import {
  freePort,
  instanceStopper,
  killOnExit,
  orStop,
  spawnServer,
  waitForHttp,
} from '../childProcess'
import { seedJson } from './seed'

/** Debian's Python (the pyenv one on PATH has no Django). */
const PYTHON = '/usr/bin/python3'
const GRAPHITE = '/usr/lib/python3/dist-packages/graphite/settings.py'
const STATIC = '/usr/share/graphite-web/static'
const SEED_PY = fileURLToPath(new URL('./seed.py', import.meta.url))

/** A running graphite-web. */
export interface GraphiteServer {
  origin: string
  dir: string
  close(): Promise<void>
}

/** Why graphite-web cannot run here (naming the apt packages), or null. */
export function graphiteUnavailable(): string | null {
  const install = 'apt-get install --no-install-recommends graphite-web python3-whisper'
  if (!existsSync(GRAPHITE) || !existsSync(STATIC))
    return `graphite-web is not installed: ${install}`
  if (!existsSync(PYTHON)) return `Debian's python3 is missing: ${install}`
  if (!existsSync('/usr/lib/python3/dist-packages/whisper.py'))
    return `the whisper module is missing: ${install}`
  return null
}

/** graphite's local settings: every dir it writes or reads in the instance's temp dir. */
const LOCAL_SETTINGS = `import os
_dir = os.environ['SITECALL_GRAPHITE_DIR']
SECRET_KEY = 'sitecall-graphite-test-instance'
GRAPHITE_ROOT = '/usr/share/graphite-web'
CONF_DIR = os.path.join(_dir, 'conf')
STORAGE_DIR = os.path.join(_dir, 'storage')
WHISPER_DIR = os.path.join(_dir, 'storage', 'whisper')
INDEX_FILE = os.path.join(_dir, 'storage', 'index')
LOG_DIR = os.path.join(_dir, 'log')
LOG_ROTATION = False
DATABASES = {'default': {'NAME': os.path.join(_dir, 'graphite.db'),
                         'ENGINE': 'django.db.backends.sqlite3'}}
TIME_ZONE = 'UTC'
# No carbon-cache runs: asking one for unwritten points would only wait for a timeout.
CARBONLINK_HOSTS = []
`

/**
 * The module Django loads: graphite's settings, plus Debian's static files served by Django,
 * the instance's `static/` (the patched dashboard.js) found first.
 */
function djangoSettings(dir: string): string {
  return `from graphite.settings import *  # noqa
STATICFILES_DIRS = ('${join(dir, 'static')}', '${STATIC}')
STATIC_ROOT = ''
SILENCED_SYSTEM_CHECKS = ['urls.W002', 'models.W042', 'admin.W411']
`
}

/**
 * Debian's dashboard.js with the one function its security patch (CVE-2022-4728..4730) calls but
 * never defines: `htmlEncode`, which upstream spells `Ext.util.Format.htmlEncode`. Without it,
 * naming a dashboard (Save, Save As) and opening a saved one throw a ReferenceError before any
 * request is sent, so no dashboard could be saved or loaded from the page.
 */
function patchedDashboardJs(): string {
  const shim =
    "// Sitecall test instance: Debian's XSS patch calls htmlEncode, which nothing defines.\n" +
    'function htmlEncode(value) { return Ext.util.Format.htmlEncode(value); }\n'
  return shim + readFileSync(join(STATIC, 'js/dashboard.js'), 'utf8')
}

/**
 * Builds, seeds and serves a fresh instance; stops by itself after `lifetimeMs`. Rejects, after
 * stopping and removing everything, when a step fails.
 */
export async function startGraphiteServer(lifetimeMs: number): Promise<GraphiteServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-graphite-'))
  const forgets: Array<() => void> = []
  const stopper = instanceStopper(() => {
    for (const forget of forgets) forget()
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
  })
  return orStop(stopper.stop, async () => {
    for (const sub of ['conf', 'log', 'storage/whisper', 'static/js'])
      mkdirSync(join(dir, sub), { recursive: true })
    writeFileSync(join(dir, 'sitecall_graphite_local.py'), LOCAL_SETTINGS)
    writeFileSync(join(dir, 'sitecall_graphite_django.py'), djangoSettings(dir))
    writeFileSync(join(dir, 'static/js/dashboard.js'), patchedDashboardJs())
    writeFileSync(join(dir, 'seed.json'), seedJson())
    const env = {
      ...process.env,
      SITECALL_GRAPHITE_DIR: dir,
      PYTHONPATH: dir,
      PYTHONDONTWRITEBYTECODE: '1',
      GRAPHITE_SETTINGS_MODULE: 'sitecall_graphite_local',
      DJANGO_SETTINGS_MODULE: 'sitecall_graphite_django',
    }
    await promisify(execFile)(PYTHON, [SEED_PY, join(dir, 'seed.json')], {
      cwd: dir,
      env,
      timeout: 120_000,
    })

    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    const server = spawnServer(
      PYTHON,
      ['-m', 'django', 'runserver', `127.0.0.1:${port}`, '--noreload', '--insecure'],
      { cwd: dir, env, output: { stderr: true } },
    )
    stopper.server = server.child
    forgets.push(killOnExit(server.child))
    await waitForHttp(`${origin}/version/`, server.child, {
      name: 'graphite-web (django runserver)',
      timeoutMs: 30_000,
      requestTimeoutMs: 10_000,
      ready: (res) => res.status === 200,
    })
    stopper.expireAfter(lifetimeMs)
    return { origin, dir, close: stopper.stop }
  })
}
