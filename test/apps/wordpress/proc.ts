/** Child processes for the WordPress instance: one-shot commands and long-running servers. */
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'

/** Runs a command to its end; rejects with its output when it fails. */
export function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] })
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
export function freePort(): Promise<number> {
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

/** A long-running server in its own process group, with the tail of its output. */
export interface ServerProcess {
  child: ChildProcess
  log(): string
}

/** Starts a server as the leader of a new process group, so stopping it reaches its workers. */
export function spawnServer(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): ServerProcess {
  // detached: a new process group, killed whole by killGroup (php -S forks its workers).
  const child = spawn(command, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env })
  let log = ''
  const keep = (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000))
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  child.unref()
  return { child, log: () => log }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls until `ready()` is true; fails early when the server already exited. */
export async function waitFor(
  what: string,
  server: ServerProcess,
  ready: () => Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const { exitCode, signalCode } = server.child
    if (exitCode !== null || signalCode !== null)
      throw new Error(`${what} exited (${exitCode ?? signalCode}): ${server.log()}`)
    if (await ready()) return
    await sleep(150)
  }
  throw new Error(`${what} did not come up within ${timeoutMs} ms: ${server.log()}`)
}

/** Sends `signal` to a server's whole process group; a group already gone is fine. */
export function signalGroup(server: ServerProcess | null, signal: NodeJS.Signals): void {
  const pid = server?.child.pid
  if (!pid) return
  try {
    process.kill(-pid, signal)
  } catch {
    // Already gone.
  }
}

/** Stops a server's process group: SIGTERM, then SIGKILL after 10 s; resolves once it exited. */
export async function killGroup(server: ServerProcess | null): Promise<void> {
  const child = server?.child
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  signalGroup(server, 'SIGTERM')
  const timer = setTimeout(() => signalGroup(server, 'SIGKILL'), 10_000)
  await gone
  clearTimeout(timer)
}
