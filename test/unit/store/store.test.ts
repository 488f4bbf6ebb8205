import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { defaultMigrationsDir } from '../../../src/main/store/db'
import { createStore, type SqliteStore } from '../../../src/main/store/store'
import type { Trace } from '../../../src/shared/trace'

let dir: string
let store: SqliteStore
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sitecall-store-'))
  store = createStore(join(dir, 'sitecall.db'))
})
afterEach(() => {
  store.close()
  rmSync(dir, { recursive: true, force: true })
})

const body = { text: 'console.log(1)', encoding: 'utf8' as const }
const trace: Trace = {
  id: 'trc_1',
  intent: 'search',
  startUrl: 'https://x.example/',
  createdAt: 1,
  storageState: { cookies: [], origins: [] },
  actions: [
    {
      seq: 1,
      kind: 'fill',
      at: 2,
      pageUrl: 'https://x.example/',
      selector: '#q',
      role: 'textbox',
      name: 'Search',
      value: 'writing',
    },
  ],
  exchanges: [1, 2].map((n) => ({
    id: `exc_${n}`,
    seq: n,
    method: 'GET',
    url: `https://x.example/app.js?v=${n}`,
    requestHeaders: { accept: '*/*' },
    requestBody: null,
    status: 200,
    responseHeaders: { 'content-type': 'text/javascript' },
    responseBody: body,
    resourceType: 'script',
    startedAt: 3,
    durationMs: 1.5,
    pageUrl: 'https://x.example/',
  })),
}

describe('the store', () => {
  it('migrates a new file to the latest user_version in WAL mode', () => {
    const newest = Math.max(
      ...readdirSync(defaultMigrationsDir())
        .filter((f) => /^\d{3}_.+\.sql$/.test(f))
        .map((f) => Number(f.slice(0, 3))),
    )
    expect(newest).toBeGreaterThanOrEqual(3)
    expect(store.db.pragma('user_version', { simple: true })).toBe(newest)
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal')
  })

  it('round-trips a trace and stores a body seen twice once', () => {
    store.traces.save(trace)
    // No vault is open here: a storage state is not kept in the clear (issue 13 item 4).
    expect(store.traces.get('trc_1')).toEqual({ ...trace, storageState: null })
    expect(store.db.prepare('SELECT COUNT(*) AS n FROM bodies').get()).toEqual({ n: 1 })
    expect(store.traces.getExchange('trc_1', 'exc_2')?.url).toBe('https://x.example/app.js?v=2')
  })

  it('joins a run by idempotency key and counts each transition in stateRevision', () => {
    const base = {
      tenant: 'local',
      toolId: 't1',
      capabilityId: null,
      via: 'http' as const,
      inputs: { q: 1 },
      inputHash: 'h',
      deadlineMs: null,
      status: 'accepted' as const,
    }
    const first = store.runs.create({ ...base, runId: 'lrun_1', idempotencyKey: 'k' }, 10)
    const again = store.runs.create({ ...base, runId: 'lrun_2', idempotencyKey: 'k' }, 11)
    expect(first.created).toBe(true)
    expect(again).toMatchObject({ created: false, run: { runId: 'lrun_1' } })
    const done = store.runs.transition(
      'lrun_1',
      { status: 'succeeded', result: { ok: 1 }, billed: true, finished: true },
      12,
    )
    expect(done).toMatchObject({
      status: 'succeeded',
      stateRevision: 2,
      result: { ok: 1 },
      billed: true,
    })
    expect(done?.finishedAt).toBe(new Date(12).toISOString())
  })

  it('keeps keys hashed: the plain key is not in the file', () => {
    const { key } = store.keys.create({ id: 'key_1', tenant: 'local', label: 'x' }, 1)
    expect(key).toMatch(/^svc_live_/)
    expect(store.keys.findByKey(key)?.id).toBe('key_1')
    const rows = JSON.stringify(store.db.prepare('SELECT * FROM api_keys').all())
    expect(rows).not.toContain(key)
  })

  it('names a second tool of the same name on a site with a suffix', () => {
    expect(store.tools.uniqueName('x.example', 'x__post_search')).toBe('x__post_search')
    const tool = {
      id: 'u1',
      siteHost: 'x.example',
      name: 'x__post_search',
      status: 'candidate',
      createdAt: 1,
      updatedAt: 1,
    }
    store.tools.save(tool as unknown as Parameters<SqliteStore['tools']['save']>[0])
    expect(store.tools.uniqueName('x.example', 'x__post_search')).toBe('x__post_search_2')
    expect(store.tools.uniqueName('y.example', 'x__post_search')).toBe('x__post_search')
    store.tools.save({ ...tool, id: 'u2', name: 'x__post_search_2' } as unknown as Parameters<
      SqliteStore['tools']['save']
    >[0])
    expect(store.tools.uniqueName('x.example', 'x__post_search')).toBe('x__post_search_3')
    // `_` is LIKE's wildcard: a name that only matches through it is not taken.
    store.tools.save({ ...tool, id: 'u3', name: 'xx_post_search' } as unknown as Parameters<
      SqliteStore['tools']['save']
    >[0])
    expect(store.tools.uniqueName('x.example', 'xx_post_search')).toBe('xx_post_search_2')
    expect(store.tools.uniqueName('x.example', 'x__post_searc')).toBe('x__post_searc')
  })

  it('keeps one login per site and workspace, replaced on save and forgotten on remove', () => {
    // The repository keeps the vault's envelope as opaque bytes; sealing is the vault's job.
    const first = Buffer.from('sealed envelope one')
    const second = Buffer.from('sealed envelope two')
    const secrets = { username: 'login.shop.test_8080.username' }
    store.logins.save('local', 'shop.test:8080', first, 1_000, {
      secrets,
      loginUrl: 'http://shop.test:8080/login',
    })
    // A save without extras replaces the envelope and keeps the secret names and sign-in page.
    store.logins.save('local', 'shop.test:8080', second, 2_000)
    store.logins.touch('local', 'shop.test:8080', 3_000)
    expect(store.logins.get('local', 'shop.test:8080')).toEqual({
      tenant: 'local',
      siteHost: 'shop.test:8080',
      sealedState: second,
      plaintextState: null,
      secrets,
      loginUrl: 'http://shop.test:8080/login',
      savedAt: 2_000,
      lastUsedAt: 3_000,
    })
    expect(store.logins.plaintext()).toEqual([])
    expect(store.logins.get('other', 'shop.test:8080')).toBeNull()
    expect(store.logins.list('local')).toHaveLength(1)
    expect(store.logins.remove('local', 'shop.test:8080')).toBe(true)
    expect(store.logins.remove('local', 'shop.test:8080')).toBe(false)
  })
})
