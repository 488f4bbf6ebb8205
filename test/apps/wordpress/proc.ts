/** Child processes for the WordPress instance: one-shot commands and long-running servers. */
import { spawn } from 'node:child_process'
import {
  killGroup as killChildGroup,
  signalGroup as signalPid,
  spawnServer as spawnDetached,
  waitUntil,
  type ServerProcess,
} from '../childProcess'

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

/** A long-running server in its own process group, with the tail of its output. */
export type { ServerProcess } from '../childProcess'

/**
 * Starts a server as the leader of a new process group, so stopping it reaches its workers (php
 * -S forks them); both output streams are kept for error messages, and Node may exit before it.
 */
export function spawnServer(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): ServerProcess {
  return spawnDetached(command, args, { env, output: { stdout: true, stderr: true }, unref: true })
}

/** Polls until `ready()` is true; fails early, with the server's output, when it already exited. */
export function waitFor(
  what: string,
  server: ServerProcess,
  ready: () => Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  return waitUntil(what, server.child, ready, { timeoutMs, detail: server.log })
}

/** Sends `signal` to a server's whole process group; a group already gone is fine. */
export function signalGroup(server: ServerProcess | null, signal: NodeJS.Signals): void {
  signalPid(server?.child.pid, signal)
}

/** Stops a server's process group: SIGTERM, then SIGKILL after 10 s; resolves once it exited. */
export function killGroup(server: ServerProcess | null): Promise<void> {
  return killChildGroup(server?.child, { graceMs: 10_000 })
}
