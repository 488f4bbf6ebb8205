import Database from 'better-sqlite3'
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { defaultMigrationsDir, openDatabase } from '../../../src/main/store/db'
import { createStore, type Store } from '../../../src/main/store/store'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import type { Trace } from '../../../src/shared/trace'

let dir: string
let store: Store
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sitecall-workspaces-'))
  store = createStore(join(dir, 'sitecall.db'))
})
afterEach(() => {
  store.close()
  rmSync(dir, { recursive: true, force: true })
})

const tool = (id: string, name = 'x__post_search'): ToolSpec =>
  ({
    id,
    siteHost: 'x.example',
    name,
    status: 'verified',
    capabilityId: `x.${name}`,
    createdAt: 1,
    updatedAt: 1,
  }) as unknown as ToolSpec

const trace = (id: string): Trace => ({
  id,
  intent: 'search',
  startUrl: 'https://x.example/',
  createdAt: 1,
  storageState: null,
  actions: [],
  exchanges: [
    {
      id: 'exc_1',
      seq: 1,
      method: 'GET',
      url: 'https://x.example/api?q=1',
      requestHeaders: {},
      requestBody: null,
      status: 200,
      responseHeaders: {},
      responseBody: { encoding: 'utf8', text: '{"ok":true}' },
      resourceType: 'fetch',
      startedAt: 1,
      durationMs: 1,
      pageUrl: 'https://x.example/',
    },
  ],
})

describe('tools and traces per workspace (issue 13 item 2)', () => {
  it("another workspace's repositories find, list, name and delete none of the owner's", () => {
    store.tools.save(tool('tool_owner'))
    store.traces.save(trace('trc_owner'))
    const acme = { tools: store.toolsFor('acme'), traces: store.tracesFor('acme') }
    expect(acme.tools.get('tool_owner')).toBeNull()
    expect(acme.tools.getByName('x.example', 'x__post_search')).toBeNull()
    expect(acme.tools.list()).toEqual([])
    expect(acme.tools.list({ siteHost: 'x.example' })).toEqual([])
    expect(acme.tools.versions()).toEqual([])
    expect(acme.tools.uniqueName('x.example', 'x__post_search')).toBe('x__post_search')
    expect(acme.tools.setStatus('tool_owner', 'quarantined', 2)).toBeNull()
    expect(acme.tools.delete('tool_owner')).toBe(false)
    expect(acme.traces.get('trc_owner')).toBeNull()
    expect(acme.traces.getExchange('trc_owner', 'exc_1')).toBeNull()
    expect(acme.traces.list()).toEqual([])
    expect(acme.traces.delete('trc_owner')).toBe(false)
    // The owner's are all still there, unchanged.
    expect(store.tools.get('tool_owner')?.status).toBe('verified')
    expect(store.traces.get('trc_owner')?.exchanges).toHaveLength(1)
  })

  it('keeps each workspace its own tools under the same site and name', () => {
    store.tools.save(tool('tool_owner'))
    const acme = store.toolsFor('acme')
    acme.save(tool('tool_acme'))
    expect(acme.list().map((t) => t.id)).toEqual(['tool_acme'])
    expect(store.tools.list().map((t) => t.id)).toEqual(['tool_owner'])
    expect(acme.getByName('x.example', 'x__post_search')?.id).toBe('tool_acme')
    // An org's end user works with the org's tools.
    expect(store.toolsFor('acme::customer-7')).toBe(acme)
    expect(store.toolsFor('acme::customer-7').get('tool_acme')?.id).toBe('tool_acme')
  })

  it("refuses to replace another workspace's tool or trace by its id", () => {
    store.tools.save(tool('tool_owner'))
    store.traces.save(trace('trc_owner'))
    expect(() => store.toolsFor('acme').save(tool('tool_owner', 'other'))).toThrow()
    expect(() => store.tracesFor('acme').save(trace('trc_owner'))).toThrow()
    expect(store.tools.get('tool_owner')?.name).toBe('x__post_search')
    expect(store.traces.get('trc_owner')?.exchanges[0]?.url).toBe('https://x.example/api?q=1')
    expect(store.toolsFor('acme').list()).toEqual([])
    expect(store.tracesFor('acme').list()).toEqual([])
  })

  it("a file from before keeps its tools and traces, in the owner's workspace", () => {
    store.close()
    // The schema as it was before migration 011, with a tool and a trace in it.
    const before = mkdtempSync(join(tmpdir(), 'sitecall-migrations-'))
    for (const f of readdirSync(defaultMigrationsDir()).filter((f) => f < '011'))
      cpSync(join(defaultMigrationsDir(), f), join(before, f))
    const path = join(dir, 'old.db')
    const old = openDatabase(path, before)
    old
      .prepare(
        `INSERT INTO tools (id, name, site_host, status, spec, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, 1, 1)`,
      )
      .run('tool_old', 'x__post_search', 'x.example', 'verified', JSON.stringify(tool('tool_old')))
    old
      .prepare(
        'INSERT INTO traces (id, intent, start_url, created_at) VALUES (?, ?, ?, 1)',
      )
      .run('trc_old', 'search', 'https://x.example/')
    expect(old.pragma('user_version', { simple: true })).toBe(10)
    old.close()
    rmSync(before, { recursive: true, force: true })
    store = createStore(path)
    expect(store.tools.get('tool_old')?.name).toBe('x__post_search')
    expect(store.traces.list().map((t) => t.id)).toEqual(['trc_old'])
    expect(store.toolsFor('acme').list()).toEqual([])
    const rows = new Database(path, { readonly: true })
    expect(rows.prepare('SELECT DISTINCT tenant FROM tools').all()).toEqual([{ tenant: 'local' }])
    rows.close()
  })
})
