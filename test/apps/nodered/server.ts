import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { freePort, instanceStopper, killOnExit, spawnServer, waitForHttp } from '../childProcess'
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
  const server = spawnServer(
    process.execPath,
    [red, '--userDir', dir, '--port', String(port), '--settings', settings],
    { cwd: dir, output: { stdout: true, stderr: true } },
  )
  // If the test process dies without closing, do not leave Node-RED behind.
  const forget = killOnExit(server.child)
  // SIGKILL at once: the user dir is removed next, there is nothing to save.
  const stopper = instanceStopper(
    () => {
      forget()
      rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
    },
    { first: 'SIGKILL', graceMs: 5000 },
  )
  stopper.server = server.child
  stopper.expireAfter(lifetimeMs)

  const origin = `http://127.0.0.1:${port}`
  try {
    await waitForHttp(`${origin}/`, server.child, {
      name: 'node-red',
      timeoutMs: 90_000,
      intervalMs: 250,
      requestTimeoutMs: 2000,
      ready: (res) => res.ok,
    })
    return { origin, close: stopper.stop }
  } catch (error) {
    await stopper.stop()
    const message = error instanceof Error ? error.message : String(error)
    throw new Error(`${message}\n${server.log()}`)
  }
}
