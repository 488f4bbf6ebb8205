import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../../src/main/core'
import { createStore } from '../../../src/main/store/store'
import type { Trace } from '../../../src/shared/trace'

const bin = join(import.meta.dirname, '../../../bin/sitecall.mjs')
const PASSPHRASE = 'a passphrase for the trace test'
const SECRETS = {
  cookie: 'SECRETCOOKIE7a1',
  token: 'SECRETTOKEN8b2',
  setCookie: 'SECRETSETCOOKIE9c3',
  password: 'SECRETPASS0d4',
  state: 'SECRETSTATE1e5',
}

let home: string
let core: Core | null = null

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'sitecall-creds-'))
})

afterEach(async () => {
  await core?.close()
  core = null
  rmSync(home, { recursive: true, force: true })
})

function recordedTrace(id: string): Trace {
  const url = `http://alice:${SECRETS.password}@127.0.0.1:9/api/orders`
  return {
    id,
    intent: 'list orders',
    startUrl: url,
    createdAt: 0,
    actions: [],
    storageState: {
      cookies: [{ name: 'sid', value: SECRETS.state, domain: '127.0.0.1', path: '/', expires: -1 }],
      origins: [],
    },
    exchanges: [
      {
        id: 'exc_1',
        seq: 1,
        method: 'GET',
        url,
        requestHeaders: {
          accept: 'application/json',
          cookie: `session=${SECRETS.cookie}`,
          authorization: `Bearer ${SECRETS.token}`,
        },
        requestBody: null,
        status: 200,
        responseHeaders: {
          'content-type': 'application/json',
          'set-cookie': `sid=${SECRETS.setCookie}; HttpOnly`,
        },
        responseBody: { text: '{"orders":[]}', encoding: 'utf8' },
        resourceType: 'fetch',
        startedAt: 0,
        durationMs: 1,
        pageUrl: 'http://127.0.0.1:9/',
      },
    ],
  }
}

/** Every byte of the database file and its WAL, as text. */
function databaseBytes(): string {
  return ['sitecall.db', 'sitecall.db-wal']
    .map((f) => join(home, f))
    .filter(existsSync)
    .map((f) => readFileSync(f).toString('latin1'))
    .join('')
}

function exportHar(args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [bin, 'export-har', ...args], {
    env: {
      ...process.env,
      SITECALL_HOME: home,
      SITECALL_KEYCHAIN: 'off',
      SITECALL_PASSPHRASE: PASSPHRASE,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out })))
}

const openCore = (passphrase: string | null) =>
  createCore({
    home,
    port: 0,
    rendererDir: null,
    keychain: null,
    env: {
      ...process.env,
      SITECALL_KEYCHAIN: 'off',
      ...(passphrase ? { SITECALL_PASSPHRASE: passphrase } : {}),
    },
  })

describe('credentials at rest (issue 13 item 4)', () => {
  it('seals recorded credentials with the vault: none in the database or WAL, all read back', async () => {
    core = openCore(PASSPHRASE)
    expect((await core.vault.open()).mode).toBe('passphrase')
    core.store.traces.save(recordedTrace('trc_sealed'))
    const bytes = databaseBytes()
    for (const secret of Object.values(SECRETS)) expect(bytes).not.toContain(secret)
    const back = core.store.traces.get('trc_sealed')!
    expect(back).toEqual(recordedTrace('trc_sealed'))
  })

  it('keeps only markers while the vault is locked', async () => {
    core = openCore(null)
    expect((await core.vault.open()).mode).toBe('locked')
    core.store.traces.save(recordedTrace('trc_locked'))
    const bytes = databaseBytes()
    for (const secret of Object.values(SECRETS)) expect(bytes).not.toContain(secret)
    const back = core.store.traces.get('trc_locked')!
    expect(back.exchanges[0]!.requestHeaders.authorization).toBe('sitecall-withheld')
    expect(back.exchanges[0]!.requestHeaders.accept).toBe('application/json')
    expect(back.storageState).toBeNull()
  })

  it('seals the credentials an older version wrote in the clear once the vault opens', async () => {
    // An older version's rows: the store of today with no sealer writes markers, so write the
    // plaintext row as that version did, straight into the tables.
    const first = createStore(join(home, 'sitecall.db'))
    const trace = recordedTrace('trc_old')
    const e = trace.exchanges[0]!
    first.db
      .prepare(
        'INSERT INTO traces (id, intent, start_url, created_at, storage_state) VALUES (?, ?, ?, ?, ?)',
      )
      .run(trace.id, trace.intent, trace.startUrl, 0, JSON.stringify(trace.storageState))
    first.db
      .prepare(
        `INSERT INTO exchanges (trace_id, id, seq, method, url, request_headers, status,
          response_headers, resource_type, started_at, duration_ms, page_url)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        trace.id,
        e.id,
        1,
        'GET',
        e.url,
        JSON.stringify(e.requestHeaders),
        200,
        JSON.stringify(e.responseHeaders),
        'fetch',
        0,
        1,
        e.pageUrl,
      )
    first.close()
    expect(databaseBytes()).toContain(SECRETS.token)

    core = openCore(PASSPHRASE)
    await core.vault.open()
    while (core.store.traces.plaintextCount() > 0) await new Promise((r) => setTimeout(r, 20))
    const bytes = databaseBytes()
    for (const secret of Object.values(SECRETS)) expect(bytes).not.toContain(secret)
    expect(core.store.traces.get('trc_old')!.exchanges[0]!.requestHeaders.authorization).toBe(
      `Bearer ${SECRETS.token}`,
    )
  })

  it('export-har leaves credentials out unless --include-credentials', async () => {
    core = openCore(PASSPHRASE)
    await core.vault.open()
    core.store.traces.save(recordedTrace('trc_export'))
    await core.close()
    core = null
    const plain = await exportHar(['trc_export'])
    expect(plain.code).toBe(0)
    expect(plain.out).toContain('/api/orders')
    for (const secret of Object.values(SECRETS)) expect(plain.out).not.toContain(secret)
    const full = await exportHar(['trc_export', '--include-credentials'])
    expect(full.code).toBe(0)
    for (const secret of [SECRETS.cookie, SECRETS.token, SECRETS.setCookie, SECRETS.password])
      expect(full.out).toContain(secret)
  })
})
