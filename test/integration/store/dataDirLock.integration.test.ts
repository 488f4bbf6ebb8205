import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { lockDataDir } from '../../../src/main/store/dataDirLock'
import { startServe, type ServeProcess } from '../engine/serveProcess'

const bin = join(import.meta.dirname, '../../../bin/sitecall.mjs')

let home: string
const children: ServeProcess[] = []
const spawned: ChildProcess[] = []

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'sitecall-lock-'))
})

afterEach(async () => {
  for (const child of children.splice(0)) await child.stop('SIGTERM')
  // A second process that did start (the code before the lock) must not outlive the test.
  for (const child of spawned.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
  rmSync(home, { recursive: true, force: true })
})

/** Runs `sitecall ...args` on `home` to its end: exit code and output. */
function runCli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, SITECALL_HOME: home, SITECALL_KEYCHAIN: 'off' },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  spawned.push(child)
  let out = ''
  let err = ''
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out, err })))
}

describe('one process per data dir (issue 13 item 6)', () => {
  it('a second serve beside a running serve refuses, naming the holder', async () => {
    const first = await startServe(home, { SITECALL_KEYCHAIN: 'off' })
    children.push(first)
    const pid = String(first.child.pid)

    const second = await runCli(['serve', '--port', '0', '--no-open'])
    expect(second.code).toBe(1)
    expect(second.err).toContain(`pid ${pid}`)
    expect(second.err).toContain('serve')
    expect(second.err).toMatch(/since \d{4}-\d\d-\d\dT/)
    expect(second.out).not.toContain('Sitecall is running')

    // The first one still answers.
    const health = await fetch(`${first.base}/v1/tools`)
    expect(health.status).toBe(401)
  })

  it('sitecall mcp beside another sitecall mcp refuses, naming it', async () => {
    // (Beside a running serve or desktop app it bridges instead: test/integration/mcp/mcpConfigs.)
    const held = lockDataDir(home, 'sitecall mcp')
    try {
      const mcp = await runCli(['mcp'])
      expect(mcp.code).toBe(1)
      expect(mcp.err).toContain(`pid ${process.pid}`)
      expect(mcp.err).toContain('/mcp URL with an API key')
      expect(mcp.out).toBe('')
    } finally {
      held.release()
    }
  })

  it('starts over a lock whose process is gone and writes its own', async () => {
    // A pid no process has (above the kernel's pid_max), as a killed process leaves behind.
    writeFileSync(
      join(home, 'sitecall.lock'),
      JSON.stringify({ pid: 2 ** 22 + 1, command: 'serve', since: 0 }),
    )
    const again = await startServe(home, { SITECALL_KEYCHAIN: 'off' })
    children.push(again)
    const lock = JSON.parse(readFileSync(join(home, 'sitecall.lock'), 'utf8')) as { pid: number }
    expect(lock.pid).toBe(again.child.pid)
  })
})
