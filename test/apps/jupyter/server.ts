import { spawn, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { seedFiles } from './seed'

/** The Debian launcher of the classic notebook server (package `jupyter-notebook`). */
export const JUPYTER_BIN = '/usr/bin/jupyter-notebook'

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

/** Asks the OS for a free port on 127.0.0.1 (closed again before Jupyter binds it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
}

/** Polls `url` until it answers 200, the child dies, or `timeoutMs` passes. */
async function waitForHttp(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`jupyter-notebook exited (${child.exitCode ?? child.signalCode})`)
    try {
      const res = await fetch(url, { redirect: 'manual' })
      if (res.status === 200) return
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`jupyter-notebook did not answer ${url} within ${timeoutMs} ms`)
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

  let child: ChildProcess | null = null
  let timer: NodeJS.Timeout | null = null
  let closing: Promise<void> | null = null
  const close = (): Promise<void> => {
    closing ??= (async () => {
      if (timer) clearTimeout(timer)
      const proc = child
      if (proc?.pid && proc.exitCode === null && proc.signalCode === null) {
        const exited = new Promise<void>((r) => proc.once('exit', () => r()))
        killGroup(proc.pid, 'SIGTERM')
        const late = setTimeout(() => killGroup(proc.pid!, 'SIGKILL'), 3000)
        await exited
        clearTimeout(late)
      }
      rmSync(dir, { recursive: true, force: true })
    })()
    return closing
  }

  try {
    const port = await freePort()
    child = spawn(
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
        // Its own group, so close() can kill the server and anything it spawned in one signal.
        detached: true,
        stdio: ['ignore', 'ignore', 'pipe'],
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
    // Keep the tail of stderr: Jupyter logs there, and a failure message is worth showing.
    let log = ''
    child.stderr?.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000)
    })
    timer = setTimeout(() => void close(), lifetimeMs)
    timer.unref()
    const origin = `http://127.0.0.1:${port}`
    try {
      await waitForHttp(`${origin}/login`, child, 30_000)
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${log}`)
    }
    return { origin, close }
  } catch (error) {
    await close()
    throw error
  }
}

/** Signals a whole process group; a group already gone is not an error. */
function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal)
  } catch {
    // Already exited.
  }
}

/** Null when the notebook server is installed, else how to install it. */
export function jupyterUnavailable(): string | null {
  if (!existsSync(JUPYTER_BIN))
    return `${JUPYTER_BIN} not found: install it with \`apt-get install -y jupyter-notebook\``
  return null
}
