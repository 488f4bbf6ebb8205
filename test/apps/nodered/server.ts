import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { OTHER_USER_NAMES, USER, seedFlows } from './seed'

/** A Node-RED child process serving the editor and its admin API on loopback. */
export interface NodeRedServer {
  origin: string
  /** Kills the process group and removes the user dir. Safe to call twice. */
  close(): Promise<void>
}

/** Where node-red's `red.js` is (a dev dependency of the repo), or null when it is not installed. */
export function redJsPath(): string | null {
  try {
    const pkg = createRequire(import.meta.url).resolve('node-red/package.json')
    const red = join(dirname(pkg), 'red.js')
    return existsSync(red) ? red : null
  } catch {
    return null
  }
}

/** Asks the OS for a free port on 127.0.0.1 (listen on 0, read it, close). */
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

/**
 * The settings file: loopback only, editor login by user name and password, and everything that
 * would reach the internet or pop up over the editor (telemetry consent, update checks, tours,
 * palette catalogues, installs) switched off, so the UI and the traffic are the same every run.
 */
function settingsFile(port: number): string {
  const users = [USER.name, ...OTHER_USER_NAMES].map((username) => ({
    username,
    password: USER.hash,
    permissions: '*',
  }))
  const settings = {
    uiHost: '127.0.0.1',
    uiPort: port,
    flowFile: 'flows.json',
    flowFilePretty: true,
    // A fixed secret: without it Node-RED generates one and warns on every start.
    credentialSecret: 'sitecall-corpus-secret',
    adminAuth: { type: 'credentials', users },
    diagnostics: { enabled: false, ui: false },
    telemetry: { enabled: false, updateNotification: false },
    externalModules: { autoInstall: false, palette: { allowInstall: false } },
    logging: { console: { level: 'warn', metrics: false, audit: false } },
    editorTheme: {
      tours: false,
      palette: { catalogues: [] },
      projects: { enabled: false },
      multiplayer: { enabled: false },
      // Ace instead of the default Monaco, and no Mermaid: the editor then loads ~7 MB less
      // script on each start, which keeps the stored recordings small. The admin API is the same.
      codeEditor: { lib: 'ace' },
      markdownEditor: { mermaid: { enabled: false } },
    },
  }
  return `module.exports = ${JSON.stringify(settings, null, 2)}\n`
}

/** Polls `url` until it answers 200, the child exits, or `timeoutMs` passes. */
async function waitForHttp(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`node-red exited (${child.exitCode ?? child.signalCode}) before answering`)
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) })
      if (res.ok) return
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error(`node-red did not answer ${url} within ${timeoutMs} ms`)
}

/**
 * Starts `node red.js` in its own process group (so close can kill it and anything it spawned)
 * with a fresh user dir holding the settings and the seeded flows; resolves once the editor page
 * answers. Stops by itself after `lifetimeMs`; rejects, after cleaning up, when it does not come up.
 */
export async function startNodeRed(lifetimeMs: number): Promise<NodeRedServer> {
  const red = redJsPath()
  if (!red) throw new Error('node-red is not installed (npm dev dependency node-red@4.1.8)')
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-nodered-'))
  const port = await freePort()
  const settings = join(dir, 'settings.js')
  writeFileSync(settings, settingsFile(port))
  writeFileSync(join(dir, 'flows.json'), JSON.stringify(seedFlows(), null, 4))
  const child = spawn(
    process.execPath,
    [red, '--userDir', dir, '--port', String(port), '--settings', settings],
    { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let output = ''
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000))
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)

  const kill = () => {
    if (child.pid && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, 'SIGKILL')
      } catch {
        // Already gone.
      }
    }
  }
  // If the test process dies without closing, do not leave Node-RED behind.
  process.once('exit', kill)
  let closing: Promise<void> | null = null
  const close = (): Promise<void> => {
    closing ??= (async () => {
      clearTimeout(timer)
      process.removeListener('exit', kill)
      const exited = new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) resolve()
        else child.once('exit', () => resolve())
      })
      kill()
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))])
      rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
    })()
    return closing
  }
  const timer = setTimeout(() => void close(), lifetimeMs)
  timer.unref()

  const origin = `http://127.0.0.1:${port}`
  try {
    await waitForHttp(`${origin}/`, child, 90_000)
    return { origin, close }
  } catch (error) {
    await close()
    const message = error instanceof Error ? error.message : String(error)
    throw new Error(`${message}\n${output}`)
  }
}
