import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createStore } from '../../src/main/store/store'
import { startDirectorySite, type DirectorySite } from '../fixtures/sites/directory'
import { readServeFile } from '../../src/main/mcp/serveFile'
import { startServe, until } from './engine/serveProcess'

/**
 * `sitecall record` on a machine without a display (issue 26 item 2.4), as a person runs it: the
 * real CLI in a child process with no DISPLAY, the real Chromium, the directory fixture site.
 */
const bin = join(import.meta.dirname, '../../bin/sitecall.mjs')
let home: string
let site: DirectorySite

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'sitecall-record-'))
  site = await startDirectorySite()
})
afterEach(async () => {
  await site.close()
  rmSync(home, { recursive: true, force: true })
})

describe('sitecall record without a display', () => {
  it('prints a link to the live view of the recording, and Ctrl+C keeps the trace and prints it', async () => {
    const env: Record<string, string | undefined> = {
      ...process.env,
      SITECALL_HOME: home,
      SITECALL_KEYCHAIN: 'off',
    }
    delete env.DISPLAY
    delete env.WAYLAND_DISPLAY
    const child = spawn(
      process.execPath,
      [bin, 'record', '--url', `${site.url}/`, '--intent', 'search the AI tools directory'],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let out = ''
    let err = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    const link = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        err += chunk.toString()
        const match = /(http:\/\/127\.0\.0\.1:\d+\/app\/\?code=[\w-]+#\/record)/.exec(err)
        if (match) resolve(match[1]!)
      })
      void exited.then((code) => reject(new Error(`record exited ${code}: ${err}${out}`)))
    })
    expect(err).toContain('no display')

    // The link signs a browser in and opens the Record page, whose live view shows this recording.
    const { origin, searchParams } = new URL(link)
    const redeemed = await fetch(`${origin}/app-api/session/redeem`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: searchParams.get('code') }),
    })
    expect(redeemed.status).toBe(200)
    const { token } = (await redeemed.json()) as { token: string }
    const current = (await (
      await fetch(`${origin}/app-api/recorder.current`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      })
    ).json()) as { ok: boolean; value: { sessionId: string; url: string } | null }
    expect(current.ok).toBe(true)
    expect(current.value?.url).toBe(`${site.url}/`)
    expect((current.value as { view?: string }).view).toBe('screencast')
    const page = await fetch(`${origin}/app/`)
    expect(page.status).toBe(200)

    // Ctrl+C: the recording ends, the trace is kept and its id printed.
    child.kill('SIGINT')
    const code = await exited
    expect([0, 1]).toContain(code)
    const traceId = /Trace (trc_[0-9A-Z]+)/.exec(out)?.[1]
    expect(traceId, `${out}\n${err}`).toBeDefined()
    const store = createStore(join(home, 'sitecall.db'))
    try {
      const trace = store.traces.get(traceId!)
      expect(trace?.startUrl).toBe(`${site.url}/`)
      expect(trace?.exchanges.some((e) => e.url.startsWith(site.url))).toBe(true)
    } finally {
      store.close()
    }
  }, 180_000)

  it('beside a running serve, records in it: the link opens its Record page; Ctrl+C prints the trace', async () => {
    const serve = await startServe(home, { SITECALL_KEYCHAIN: 'off' })
    try {
      await until(() => readServeFile(home) !== null)
      const env: Record<string, string | undefined> = { ...process.env, SITECALL_HOME: home }
      delete env.DISPLAY
      delete env.WAYLAND_DISPLAY
      const child = spawn(
        process.execPath,
        [bin, 'record', '--url', `${site.url}/`, '--intent', 'search the AI tools directory'],
        { env, stdio: ['ignore', 'pipe', 'pipe'] },
      )
      let out = ''
      let err = ''
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
      await new Promise<void>((resolve, reject) => {
        child.stderr.on('data', (chunk: Buffer) => {
          err += chunk.toString()
          if (err.includes(`${serve.base}/app/#/record`)) resolve()
        })
        void exited.then((code) => reject(new Error(`record exited ${code}: ${err}${out}`)))
      })
      const current = (await (
        await fetch(`${serve.base}/app-api/recorder.current`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${readServeFile(home)!.token}`,
            'content-type': 'application/json',
          },
          body: '{}',
        })
      ).json()) as { value: { url: string; traceId: string } | null }
      expect(current.value?.url).toBe(`${site.url}/`)
      child.kill('SIGINT')
      expect([0, 1]).toContain(await exited)
      expect(out).toContain(`Trace ${current.value!.traceId}`)
      const store = createStore(join(home, 'sitecall.db'))
      try {
        expect(store.traces.get(current.value!.traceId)?.startUrl).toBe(`${site.url}/`)
      } finally {
        store.close()
      }
    } finally {
      await serve.stop('SIGTERM')
    }
  }, 180_000)
})
