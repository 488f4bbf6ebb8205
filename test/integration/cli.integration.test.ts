import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
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
    const out = spawnSync(process.execPath, [bin, 'keys', 'create', '--json', '--label', 'ci'], {
      env: env(),
      encoding: 'utf8',
    })
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
    const out = spawnSync(process.execPath, [bin, 'record', '--url', 'http://127.0.0.1:1/'], {
      env: env(),
      encoding: 'utf8',
    })
    expect(out.status).toBe(2)
    expect(out.stderr).toContain('needs --url and --intent')
  })

  it('prints the usage on stdout for --help (exit 0), on stderr without a command (exit 2)', () => {
    for (const flag of ['--help', '-h', 'help']) {
      const help = spawnSync(process.execPath, [bin, flag], { env: env(), encoding: 'utf8' })
      expect(help.status, flag).toBe(0)
      expect(help.stdout, flag).toMatch(/^Usage:\n {2}sitecall serve/)
      expect(help.stderr, flag).toBe('')
    }
    const none = spawnSync(process.execPath, [bin], { env: env(), encoding: 'utf8' })
    expect(none.status).toBe(2)
    expect(none.stdout).toBe('')
    expect(none.stderr).toContain('sitecall needs a command')
    expect(none.stderr).toContain('Usage:')
    const unknown = spawnSync(process.execPath, [bin, 'frobnicate'], {
      env: env(),
      encoding: 'utf8',
    })
    expect(unknown.status).toBe(2)
    expect(unknown.stderr).toContain('unknown command "frobnicate"')
  }, 180_000)

  it('serve prints a one-time sign-in link, answers on 127.0.0.1 and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--no-open'], {
      env: env(),
    })
    let stdout = ''
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString()
        const match = /(http:\/\/127\.0\.0\.1:\d+\/app\/\?code=[\w-]+)/.exec(stdout)
        if (match) resolve(match[1]!)
      })
      child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${stdout}`)))
    })
    expect(stdout).not.toContain('token=')
    const { origin, searchParams } = new URL(url)
    const session = await redeem(origin, searchParams.get('code')!)
    expect(session.status).toBe(200)
    const answer = await fetch(`${origin}/app-api/tools.list`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
      body: '{}',
    })
    expect(await answer.json()).toEqual({ ok: true, value: [] })
    // The code is spent; a second tab of the same browser resumes with the session cookie.
    expect((await redeem(origin, searchParams.get('code')!)).status).toBe(401)
    const resumed = await fetch(`${origin}/app-api/session/resume`, {
      method: 'POST',
      headers: { cookie: session.cookie },
    })
    expect(resumed.status).toBe(200)
    expect(((await resumed.json()) as { token: string }).token).toMatch(/\S{20,}/)
    expect((await fetch(`${origin}/app-api/session/resume`, { method: 'POST' })).status).toBe(401)
    // It says which mode the vault is in (or how to open it) right after the URL.
    await expect.poll(() => stdout, { timeout: 15_000 }).toMatch(/^Vault: .+/m)
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  })

  it("serve opens the browser with a one-time code, never the owner token in the opener's arguments", async () => {
    // A stand-in for xdg-open that writes what it was given, as /proc/<pid>/cmdline would show.
    const bin2 = join(home, 'bin')
    const seen = join(home, 'opened.txt')
    mkdirSync(bin2)
    writeFileSync(join(bin2, 'xdg-open'), `#!/bin/sh\necho "$@" > ${seen}\n`, { mode: 0o755 })
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0'], {
      env: { ...env(), PATH: `${bin2}:${process.env.PATH}`, DISPLAY: ':99' },
    })
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    await expect
      .poll(() => existsSync(seen) && readFileSync(seen, 'utf8'), { timeout: 30_000 })
      .toMatch(/code=/)
    const opened = readFileSync(seen, 'utf8').trim()
    expect(opened).not.toContain('token=')
    const { origin, searchParams } = new URL(opened)
    const printed = /\?code=([\w-]+)/.exec(stdout)![1]!
    expect(searchParams.get('code')).not.toBe(printed)
    expect((await redeem(origin, searchParams.get('code')!)).status).toBe(200)
    expect((await redeem(origin, searchParams.get('code')!)).status).toBe(401)
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  })
})

/** `POST /app-api/session/redeem`: the status, and on success the token and its cookie. */
async function redeem(
  origin: string,
  code: string,
): Promise<{ status: number; token: string; cookie: string }> {
  const answer = await fetch(`${origin}/app-api/session/redeem`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  })
  const body = (await answer.json()) as { token?: string }
  const cookie = (answer.headers.get('set-cookie') ?? '').split(';')[0]!
  return { status: answer.status, token: body.token ?? '', cookie }
}
