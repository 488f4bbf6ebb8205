import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, instanceStopper, orStop, spawnServer, waitForHttp } from '../childProcess'
import { seedFiles } from './seed'

/** The Debian launcher of the classic notebook server (package `jupyter-notebook`). */
const JUPYTER_BIN = '/usr/bin/jupyter-notebook'

/** A running notebook server. */
export interface JupyterServer {
  origin: string
  /** Kills the server's process group and removes the data dir. Safe to call twice. */
  close(): Promise<void>
}

/**
 * The password in the notebook's own `algorithm:salt:digest` format (what `notebook.auth.passwd`
 * writes for sha algorithms: digest = hash(password + salt)). A fixed salt keeps every start the
 * same and saves a Python call; Jupyter checks it with `passwd_check` like an argon2 hash.
 */
function passwordHash(password: string): string {
  const salt = 'sitecallseed'
  const digest = createHash('sha256')
    .update(password + salt)
    .digest('hex')
  return `sha256:${salt}:${digest}`
}

/**
 * Starts `jupyter-notebook` on a free loopback port with every Jupyter dir (config, data, runtime,
 * home) inside a fresh temp dir, the seed tree as the notebook dir, the given password, no token,
 * no browser and no terminals. Resolves once `/login` answers; rejects after cleaning up.
 */
export async function startJupyter(password: string, lifetimeMs: number): Promise<JupyterServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-jupyter-'))
  const paths = {
    config: join(dir, 'config'),
    data: join(dir, 'data'),
    runtime: join(dir, 'runtime'),
    home: join(dir, 'home'),
    files: join(dir, 'files'),
  }
  for (const path of Object.values(paths)) mkdirSync(path, { recursive: true })
  seedFiles(paths.files)
  // The config file rather than only flags: it also silences what the command line cannot.
  const config = {
    NotebookApp: {
      password: passwordHash(password),
      token: '',
      open_browser: false,
      terminals_enabled: false,
      allow_root: true,
      // No Quit button: a scripted click on it would stop the server mid-run.
      quit_button: false,
    },
  }
  writeFileSync(join(paths.config, 'jupyter_notebook_config.json'), JSON.stringify(config))

  const stopper = instanceStopper(() => rmSync(dir, { recursive: true, force: true }))
  return orStop(stopper.stop, async () => {
    const port = await freePort()
    // Its own group, so close() can kill the server and anything it spawned in one signal.
    const server = spawnServer(
      JUPYTER_BIN,
      [
        '--no-browser',
        '--ip=127.0.0.1',
        `--port=${port}`,
        '--port-retries=0',
        `--notebook-dir=${paths.files}`,
      ],
      {
        cwd: paths.home,
        // Jupyter logs to stderr: its tail is worth showing when the start fails.
        output: { stderr: true },
        env: {
          PATH: '/usr/bin:/bin',
          LANG: 'C.UTF-8',
          HOME: paths.home,
          JUPYTER_CONFIG_DIR: paths.config,
          JUPYTER_DATA_DIR: paths.data,
          JUPYTER_RUNTIME_DIR: paths.runtime,
          IPYTHONDIR: join(paths.home, '.ipython'),
          // Ignore a pip --user site in a developer's real home (HOME is already temp).
          PYTHONNOUSERSITE: '1',
        },
      },
    )
    const child = server.child
    stopper.server = child
    stopper.expireAfter(lifetimeMs)
    const origin = `http://127.0.0.1:${port}`
    try {
      await waitForHttp(`${origin}/login`, child, {
        name: 'jupyter-notebook',
        timeoutMs: 30_000,
        redirect: 'manual',
        ready: (res) => res.status === 200,
      })
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${server.log()}`)
    }
    return { origin, close: stopper.stop }
  })
}

/** Null when the notebook server is installed, else how to install it. */
export function jupyterUnavailable(): string | null {
  if (!existsSync(JUPYTER_BIN))
    return `${JUPYTER_BIN} not found: install it with \`apt-get install -y jupyter-notebook\``
  return null
}
