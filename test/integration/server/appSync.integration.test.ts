/**
 * Settings → "Link to a server" (issue 27 B) through the app's contract (`sync.*`, the methods
 * the IPC table and `/app-api` carry), with real parts: one `sitecall server` node on a private
 * PostgreSQL 15 cluster, desktop cores on their own SQLite files, the directory fixture site.
 * A token link and a sync with progress events; a refused link's stable codes; an OAuth link
 * approved in the server's consent page, and one cancelled from the app; a conflict settled by
 * `sync.take`; unlink keeps the tools.
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../../src/main/core'
import { createPgOwnerTokens } from '../../../src/main/serverAccess'
import { createPgStore, type PgStore } from '../../../src/main/store/postgres/pgStore'
import type { SyncStatus } from '../../../src/shared/appApi'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { send } from '../../fixtures/harness/http'
import { makeSearchTool } from '../../fixtures/harness/searchTool'
import { startDirectorySite, type DirectorySite } from '../../fixtures/sites/directory'
import { consent } from '../api/oauth/oauthHarness'
import { pgUnavailable, startPgCluster, type PgCluster } from '../store/pgCluster'
import { killServerNode, startServerNode, type ServerNode } from './serverNode'

const skip = pgUnavailable()

interface Desk {
  core: Core
  events: SyncStatus[]
  close(): Promise<void>
}

function startDesk(name: string): Desk {
  const home = mkdtempSync(join(tmpdir(), `sitecall-appsync-${name}-`))
  const core = createCore({
    home,
    rendererDir: null,
    keychain: null,
    env: { ...process.env, SITECALL_KEYCHAIN: 'off', SITECALL_PASSPHRASE: 'desk passphrase 1' },
  })
  const events: SyncStatus[] = []
  const off = core.events.on('sync.changed', ({ status }) => events.push(status))
  return {
    core,
    events,
    async close() {
      off()
      await core.close()
      rmSync(home, { recursive: true, force: true })
    },
  }
}

describe.skipIf(skip !== null)(`the app's sync methods${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let cluster: PgCluster
  let store: PgStore
  let node: ServerNode
  let site: DirectorySite
  let owner: string
  let a: Desk
  let tool: ToolSpec

  beforeAll(async () => {
    cluster = await startPgCluster()
    const url = await cluster.createDatabase('appsync')
    store = createPgStore(url)
    owner = createPgOwnerTokens(store.pg, { clock: Date.now }).issue().token
    site = await startDirectorySite()
    node = await startServerNode(url, 'appsync_node')
    a = startDesk('a')
  }, 180_000)

  afterAll(async () => {
    await a?.close()
    if (node) await killServerNode(node)
    store?.close()
    await site?.close()
    await cluster?.close()
  })

  it('names a refused link by a stable code: not a URL, out of reach, not a Sitecall server', async () => {
    const h = a.core.handlers
    expect(await h['sync.status']({})).toMatchObject({ available: true, link: null, error: null })
    expect((await h['sync.link']({ serverUrl: 'sitecall.example.org' })).error).toMatchObject({
      code: 'invalid_server_url',
    })
    expect((await h['sync.link']({ serverUrl: 'http://example.org' })).error).toMatchObject({
      code: 'invalid_server_url',
      message: expect.stringContaining('https'),
    })
    // A port nothing listens on (a server bound, then closed).
    const closed = createServer()
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done))
    const port = (closed.address() as AddressInfo).port
    await new Promise((done) => closed.close(done))
    const out = await h['sync.link']({ serverUrl: `http://127.0.0.1:${port}`, token: owner })
    expect(out.error).toMatchObject({ code: 'server_unreachable' })
    expect(out.error!.message).toContain(`http://127.0.0.1:${port}`)
    // Something answers there, but not the sync routes.
    const other: Server = createServer((_req, res) => res.writeHead(404).end('no such page'))
    await new Promise<void>((done) => other.listen(0, '127.0.0.1', done))
    const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`
    try {
      expect((await h['sync.link']({ serverUrl: otherUrl, token: owner })).error).toMatchObject({
        code: 'wrong_server',
      })
      expect((await h['sync.link']({ serverUrl: otherUrl })).error).toMatchObject({
        code: 'wrong_server',
      })
    } finally {
      other.close()
    }
    expect(
      (await h['sync.link']({ serverUrl: node.base, token: 'svc_owner_not_a_token' })).error,
    ).toMatchObject({ code: 'link_refused' })
    expect((await h['sync.run']({})).error).toMatchObject({ code: 'not_linked' })
    // No keychain and a locked vault: nowhere to keep the token.
    const lockedHome = mkdtempSync(join(tmpdir(), 'sitecall-appsync-locked-'))
    const locked = createCore({
      home: lockedHome,
      rendererDir: null,
      keychain: null,
      env: { ...process.env, SITECALL_KEYCHAIN: 'off', SITECALL_PASSPHRASE: undefined },
    })
    try {
      const out = await locked.handlers['sync.link']({ serverUrl: node.base, token: owner })
      expect(out).toMatchObject({ link: null, error: { code: 'vault_locked' } })
    } finally {
      await locked.close()
      rmSync(lockedHome, { recursive: true, force: true })
    }
    expect((await h['sync.status']({})).link).toBeNull()
  })

  it('links with a token and syncs 120 tools with progress events, pushed n of N', async () => {
    const h = a.core.handlers
    ;({ tool } = await makeSearchTool(a.core, site))
    for (let i = 1; i < 120; i++)
      a.core.store.tools.save({ ...tool, id: randomUUID(), name: `${tool.name}_${i}` })
    const linked = await h['sync.link']({ serverUrl: node.base, token: owner })
    expect(linked).toMatchObject({
      error: null,
      link: { serverUrl: node.base, auth: 'token', tokenStore: 'vault', workspace: null },
      outbox: 120,
      lastSync: null,
    })
    a.events.length = 0
    const lag = monitorEventLoopDelay({ resolution: 10 })
    lag.enable()
    const started = Date.now()
    const done = await h['sync.run']({})
    const ms = Date.now() - started
    lag.disable()
    expect(done).toMatchObject({
      running: null,
      error: null,
      outbox: 0,
      conflicts: [],
      lastSync: { pushed: 120, pulled: 0, refused: [] },
    })
    const progress = a.events.map((e) => e.running).filter((r) => r !== null)
    expect(progress[0]).toMatchObject({ phase: 'push', done: 0 })
    expect(progress.some((p) => p.phase === 'push' && p.total === 120 && p.done > 0)).toBe(true)
    const dones = progress.filter((p) => p.phase === 'push').map((p) => p.done)
    expect(dones).toEqual([...dones].sort((x, y) => x - y))
    // The last event is the end: nothing running, the counts in.
    expect(a.events.at(-1)).toMatchObject({ running: null, lastSync: { pushed: 120 } })
    // Measured, not asserted: how long, how many events, the longest the event loop waited.
    console.log(
      `sync of 120 tools: ${ms} ms, ${a.events.length} sync.changed events, event loop delay max ${(lag.max / 1e6).toFixed(1)} ms, p99 ${(lag.percentile(99) / 1e6).toFixed(1)} ms`,
    )
  })

  it('keeps a stale push as a conflict with both versions and settles it by sync.take', async () => {
    const h = a.core.handlers
    const base = (await send<{ tools: Array<{ revision: number; tool: ToolSpec }> }>(
      node.base,
      'GET',
      '/v1/sync/tools?since=0&limit=500',
      { key: owner },
    ))!.body.tools.find((t) => t.tool.id === tool.id)!
    const theirs = { ...tool, description: 'changed on the server', updatedAt: tool.updatedAt + 2 }
    const put = await send(node.base, 'PUT', `/v1/sync/tools/${tool.id}`, {
      key: owner,
      headers: { 'idempotency-key': `test-${randomUUID()}` },
      json: { baseRevision: base.revision, tool: theirs },
    })
    expect(put.status).toBe(200)
    a.core.store.tools.save({ ...tool, description: 'changed here', updatedAt: tool.updatedAt + 1 })
    const clash = await h['sync.run']({})
    expect(clash.conflicts).toHaveLength(1)
    expect(clash.conflicts[0]).toMatchObject({
      toolId: tool.id,
      mine: { description: 'changed here' },
      theirs: { description: 'changed on the server' },
    })
    const settled = await h['sync.take']({ toolId: tool.id, side: 'theirs' })
    expect(settled).toMatchObject({ conflicts: [], error: null, running: null })
    expect(a.core.store.tools.get(tool.id)!.description).toBe('changed on the server')
  })

  it('links by OAuth approved in the consent page; a link cancelled from the app saves nothing', async () => {
    const b = startDesk('b')
    try {
      const h = b.core.handlers
      const waiting = await h['sync.link']({ serverUrl: node.base })
      expect(waiting).toMatchObject({ link: null, error: null, linking: { serverUrl: node.base } })
      const first = waiting.linking!.authorizeUrl!
      expect(new URL(first).searchParams.get('code_challenge_method')).toBe('S256')
      const cancelled = await h['sync.cancelLink']({})
      expect(cancelled).toMatchObject({
        link: null,
        linking: null,
        error: { code: 'link_cancelled' },
      })
      expect(b.events.at(-1)).toMatchObject({ linking: null, error: { code: 'link_cancelled' } })

      const again = await h['sync.link']({ serverUrl: node.base })
      const url = again.linking!.authorizeUrl!
      const back = await consent(
        { base: node.base, core: { ownerToken: owner } } as never,
        new URL(url).search.slice(1),
      )
      const ended = new Promise<SyncStatus>((resolve) => {
        const off = b.core.events.on('sync.changed', ({ status }) => {
          if (!status.linking) {
            off()
            resolve(status)
          }
        })
      })
      expect((await fetch(back)).status).toBe(200)
      expect(await ended).toMatchObject({
        error: null,
        link: { serverUrl: node.base, auth: 'oauth', tokenStore: 'vault' },
      })
      const pulled = await h['sync.run']({})
      expect(pulled).toMatchObject({ error: null, lastSync: { pulled: 120 } })

      // A denial in the browser reads as cancelled too.
      await h['sync.unlink']({})
      const denied = await h['sync.link']({ serverUrl: node.base })
      const refusal = await consent(
        { base: node.base, core: { ownerToken: owner } } as never,
        new URL(denied.linking!.authorizeUrl!).search.slice(1),
        'deny',
      )
      const deniedEnd = new Promise<SyncStatus>((resolve) => {
        const off = b.core.events.on('sync.changed', ({ status }) => {
          if (!status.linking) {
            off()
            resolve(status)
          }
        })
      })
      await fetch(refusal)
      expect(await deniedEnd).toMatchObject({ link: null, error: { code: 'link_cancelled' } })
    } finally {
      await b.close()
    }
  })

  it('unlinks and keeps every tool', async () => {
    const before = a.core.store.tools.list().length
    const out = await a.core.handlers['sync.unlink']({})
    expect(out).toMatchObject({ link: null, outbox: 0, conflicts: [], lastSync: null })
    expect(a.core.store.tools.list()).toHaveLength(before)
    expect(before).toBe(120)
  })
})
