// The search service builds its router's index when it starts (issue 25 "the first search after
// a start as fast"): a search sent as soon as the service listens waits for the build and answers
// what a lazily built index answers; a tool saved during the build is found. Real core, real
// SQLite file, real HTTP on 127.0.0.1 port 0.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, LOCAL_TENANT, type Core } from '../../../src/main/core'
import { createToolRouter } from '../../../src/main/router/router'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { fileTool } from '../../unit/router/fileTool'

const OBJECTS = ['invoices', 'notebooks', 'orders', 'flows', 'calendars', 'bookmarks']
const VERBS = ['list', 'create', 'delete', 'rename']

/** `count` verified tools of 30 named sites, verb × object, each with its request. */
function tools(count: number, from = 0): ToolSpec[] {
  return Array.from({ length: count }, (_, k) => {
    const i = from + k
    const verb = VERBS[i % VERBS.length]!
    const object = OBJECTS[Math.floor(i / VERBS.length) % OBJECTS.length]!
    const site = `site${i % 30}`
    const method = { list: 'GET', delete: 'DELETE', rename: 'PATCH' }[verb] ?? 'POST'
    return {
      ...fileTool(
        `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        `${verb} ${object}`,
        verb !== 'list',
      ),
      siteHost: `${site}.example`,
      name: `${site}__${verb}_${object}_${i}`,
      capabilityId: `${site}.example/${verb}_${object}_${i}`,
      steps: [{ request: { method, url: `http://${site}.example/api/${object}`, headers: {} } }],
      site: { names: [`Desk ${i % 30}`], titles: [] },
      createdAt: i,
      updatedAt: i,
    } as unknown as ToolSpec
  })
}

let home: string
let core: Core
let base: string
let key: string
let n = 0

async function search(intent: string) {
  const res = await fetch(`${base}/v1/tools/search`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      'idempotency-key': `build-at-start-${++n}`,
    },
    body: JSON.stringify({ intent }),
  })
  expect(res.status).toBe(200)
  return ((await res.json()) as { result: { status: string; tools: Array<{ id: string }> } }).result
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'sitecall-build-'))
  const first = createCore({ home, port: 0, rendererDir: null, rateLimits: null })
  first.store.db.transaction(() => {
    for (const tool of tools(600)) first.store.tools.save(tool)
  })()
  key = first.store.keys.create(
    { id: 'key_build', tenant: LOCAL_TENANT, label: 'build' },
    Date.now(),
  ).key
  first.store.ledger.purchase(LOCAL_TENANT, 'purchase:build', 1_000_000, Date.now())
  await first.close()
  // The restart: the index is built as the service starts listening.
  core = createCore({ home, port: 0, rendererDir: null, rateLimits: null })
  base = await core.listen()
})

afterAll(async () => {
  await core?.close()
  rmSync(home, { recursive: true, force: true })
})

describe('search after a start (issue 25 latency)', { timeout: 240_000 }, () => {
  it('a search sent at once waits for the build and answers what a lazy index answers; a tool saved during the build is found', async () => {
    const intents = ['delete the calendars on Desk 7', 'rename notebooks', 'order a pizza']
    const atOnce = await Promise.all(intents.map(search))
    const saved = tools(1, 5000)[0]!
    const renamed = {
      ...saved,
      intent: 'archive the old playlists',
      name: 'site8__archive_playlists',
      capabilityId: 'site8.example/archive',
    }
    core.store.tools.save(renamed)
    const lazy = createToolRouter()
    const all = core.store.tools.list()
    for (const [i, intent] of intents.entries()) {
      const want = lazy.route(
        intent,
        all.filter((t) => t.id !== renamed.id),
      )
      expect(atOnce[i]!.status).toBe(want.status)
      expect(atOnce[i]!.tools.map((t) => t.id)).toEqual(want.tools.map((t) => t.id))
    }
    const found = await search('archive the old playlists on Desk 8')
    expect(found.tools.map((t) => t.id)).toEqual(
      lazy.route('archive the old playlists on Desk 8', all).tools.map((t) => t.id),
    )
    expect(lazy.rank('archive the old playlists on Desk 8', all)[0]!.id).toBe(renamed.id)
  })
})
