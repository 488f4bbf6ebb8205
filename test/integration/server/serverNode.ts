/**
 * Test helpers for `sitecall server` nodes as real processes (`bin/sitecall.mjs server`), and the
 * workspace they serve (a search tool on the directory fixture site and an API key), written
 * through a core on the same PostgreSQL database as another node would.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { createCore, LOCAL_TENANT, type Core } from '../../../src/main/core'
import { createPgStore, type PgStore } from '../../../src/main/store/postgres/pgStore'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { makeSearchTool } from '../../fixtures/harness/searchTool'
import type { DirectorySite } from '../../fixtures/sites/directory'

const CLI = fileURLToPath(new URL('../../../bin/sitecall.mjs', import.meta.url))

export interface ServerNode {
  id: string
  base: string
  child: ChildProcess
  home: string
  /** Every stdout line so far (JSON log lines). */
  lines: string[]
  /** Resolves with the exit code (null when a signal ended it). */
  exited: Promise<number | null>
}

/** Longest a node may take to say it listens before it is killed and its start fails, ms. */
const START_TIMEOUT_MS = 120_000

/**
 * Starts one node on `url` (`--port 0`) with `args` added and `env` over the process's; resolves
 * once it logs that it listens. Rejects with its stderr if it exits first, and with its output
 * so far (after killing it) if it neither listens nor exits within two minutes.
 */
export async function startServerNode(
  url: string,
  id: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<ServerNode> {
  const home = mkdtempSync(join(tmpdir(), `sitecall-node-${id}-`))
  const child = spawn(process.execPath, [CLI, 'server', '--port', '0', '--node-id', id, ...args], {
    env: {
      ...process.env,
      SITECALL_DATABASE_URL: url,
      SITECALL_HOME: home,
      SITECALL_KEYCHAIN: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let err = ''
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()))
  const lines: string[] = []
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(
        new Error(
          `node ${id} did not listen within ${START_TIMEOUT_MS} ms; stdout: ${lines.join('\n')}; stderr: ${err}`,
        ),
      )
      child.kill('SIGKILL')
    }, START_TIMEOUT_MS)
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line)
      const match = / listening at (http:\S+)/.exec(line)
      if (match) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
    })
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`node ${id} exited (${code}): ${err}`))
    })
  })
  return { id, base, child, home, lines, exited }
}

/** Kills a node still running (SIGKILL) and removes its home dir. */
export async function killServerNode(node: ServerNode): Promise<void> {
  if (node.child.exitCode === null && node.child.signalCode === null) {
    node.child.kill('SIGKILL')
    await node.exited
  }
  rmSync(node.home, { recursive: true, force: true })
}

export interface Workspace {
  store: PgStore
  tool: ToolSpec
  key: string
  /** Closes the seeding core (its timers and the store's connection) and removes its dir. */
  close(): Promise<void>
}

/** Migrates `url`, adds the directory site's search tool and an API key (`key_<label>`). */
export async function seedWorkspace(
  url: string,
  site: DirectorySite,
  label: string,
): Promise<Workspace> {
  const store = createPgStore(url)
  const home = mkdtempSync(join(tmpdir(), 'sitecall-seed-'))
  const seed = createCore({ store, home, rendererDir: null, keychain: null, serverNode: true })
  const { tool } = await makeSearchTool(seed as unknown as Core, site)
  const { key } = store.keys.create({ id: `key_${label}`, tenant: LOCAL_TENANT, label }, 1)
  return {
    store,
    tool,
    key,
    async close() {
      await seed.close()
      rmSync(home, { recursive: true, force: true })
    },
  }
}
