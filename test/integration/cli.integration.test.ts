import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createStore } from '../../src/main/store/store'

const bin = join(import.meta.dirname, '../../bin/sitecall.mjs')
let home: string
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'sitecall-cli-'))
})
afterEach(() => rmSync(home, { recursive: true, force: true }))

const env = () => ({ ...process.env, SITECALL_HOME: home })

describe('sitecall CLI', () => {
  it('keys create --json prints a key that the data dir then knows, stored hashed', () => {
    const out = spawnSync(process.execPath, [bin, 'keys', 'create', '--json', '--label', 'ci'], { env: env(), encoding: 'utf8' })
    expect(out.status).toBe(0)
    const { key } = JSON.parse(out.stdout) as { key: string }
    expect(key).toMatch(/^svc_live_[A-Za-z0-9_-]{43}$/)
    const store = createStore(join(home, 'sitecall.db'))
    try {
      expect(store.keys.findByKey(key)).toMatchObject({ label: 'ci', revokedAt: null })
    } finally {
      store.close()
    }
  })

  it('answers bad usage with exit code 2 and the usage text', () => {
    const out = spawnSync(process.execPath, [bin, 'record', '--url', 'http://127.0.0.1:1/'], { env: env(), encoding: 'utf8' })
    expect(out.status).toBe(2)
    expect(out.stderr).toContain('needs --url and --intent')
  })

  it('serve prints the UI URL with its owner token, answers on 127.0.0.1 and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--no-open'], { env: env() })
    let stdout = ''
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString()
        const match = /(http:\/\/127\.0\.0\.1:\d+\/app\/\?token=[\w-]+)/.exec(stdout)
        if (match) resolve(match[1]!)
      })
      child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${stdout}`)))
    })
    const { origin, searchParams } = new URL(url)
    const answer = await fetch(`${origin}/app-api/tools.list`, {
      method: 'POST',
      headers: { authorization: `Bearer ${searchParams.get('token')}`, 'content-type': 'application/json' },
      body: '{}',
    })
    expect(await answer.json()).toEqual({ ok: true, value: [] })
    // It says which mode the vault is in (or how to open it) right after the URL.
    await expect.poll(() => stdout, { timeout: 15_000 }).toMatch(/^Vault: .+/m)
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  })
})
