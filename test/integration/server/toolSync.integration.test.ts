/**
 * Tool sync between desktops and a team server (issue 27 B), with real parts: one `sitecall
 * server` node process on a private PostgreSQL 15 cluster, two (three) desktop cores on their
 * own SQLite files, the directory fixture site on 127.0.0.1. Desktop A pushes a verified tool,
 * B pulls it and calls it through the server; both edit one tool (409, kept as a conflict,
 * settled either way); a push whose answer was lost is sent again and applied once; a delete
 * propagates; a tool carrying a credential is refused; a desktop links with OAuth (PKCE) and
 * keeps its refresh token sealed, never in clear.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, LOCAL_TENANT, type Core } from '../../../src/main/core'
import { createPgOwnerTokens } from '../../../src/main/serverAccess'
import { createPgStore, type PgStore } from '../../../src/main/store/postgres/pgStore'
import { createDesktopSync, type DesktopSync } from '../../../src/main/sync/desktopSync'
import { createSyncLocal } from '../../../src/main/sync/syncLocal'
import type { Run } from '../../../src/shared/run'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { callTool, send } from '../../fixtures/harness/http'
import { makeSearchTool } from '../../fixtures/harness/searchTool'
import { startDirectorySite, type DirectorySite } from '../../fixtures/sites/directory'
import { consent } from '../api/oauth/oauthHarness'
import { pgUnavailable, startPgCluster, type PgCluster } from '../store/pgCluster'
import { killServerNode, startServerNode, type ServerNode } from './serverNode'

const skip = pgUnavailable()
const CLI = fileURLToPath(new URL('../../../bin/sitecall.mjs', import.meta.url))

/** Runs `sitecall ARGS` on the data dir `home`; resolves with its exit code and output. */
async function cli(home: string, args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, ...args], {
      env: {
        ...process.env,
        SITECALL_HOME: home,
        SITECALL_KEYCHAIN: 'off',
        SITECALL_PASSPHRASE: 'desk passphrase 1',
      },
    })
    return { code: 0, out: stdout }
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string }
    return { code: e.code, out: `${e.stdout}${e.stderr}` }
  }
}

interface Desktop {
  core: Core
  sync: DesktopSync
  home: string
  /** The fetch its sync uses: the global one unless a test swaps it. */
  fetch: { impl: typeof fetch }
  close(): Promise<void>
}

function startDesktop(name: string): Desktop {
  const home = mkdtempSync(join(tmpdir(), `sitecall-desk-${name}-`))
  const core = createCore({
    home,
    rendererDir: null,
    keychain: null,
    env: { ...process.env, SITECALL_KEYCHAIN: 'off', SITECALL_PASSPHRASE: 'desk passphrase 1' },
  })
  const box = { impl: fetch }
  const sync = createDesktopSync({
    store: core.store,
    vault: core.vault,
    keychain: null,
    tenant: LOCAL_TENANT,
    clock: Date.now,
    fetch: (input, init) => box.impl(input, init),
  })
  return {
    core,
    sync,
    home,
    fetch: box,
    async close() {
      await core.close()
      rmSync(home, { recursive: true, force: true })
    },
  }
}

/** A copy of `tool` as edited on a desktop: a new description, a later `updatedAt`. */
const edited = (tool: ToolSpec, description: string): ToolSpec => ({
  ...tool,
  description,
  updatedAt: tool.updatedAt + 1,
})

describe.skipIf(skip !== null)(`tool sync${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let cluster: PgCluster
  let store: PgStore
  let node: ServerNode
  let site: DirectorySite
  let owner: string
  let url: string
  let a: Desktop
  let b: Desktop
  let tool: ToolSpec
  const serverTool = (id: string) => store.tools.get(id)
  const pull = (since = 0) =>
    send<{
      revision: number
      tools: Array<{ revision: number; tool: ToolSpec }>
      deleted: unknown[]
    }>(node.base, 'GET', `/v1/sync/tools?since=${since}`, { key: owner })

  beforeAll(async () => {
    cluster = await startPgCluster()
    url = await cluster.createDatabase('sync')
    store = createPgStore(url)
    owner = createPgOwnerTokens(store.pg, { clock: Date.now }).issue().token
    site = await startDirectorySite()
    node = await startServerNode(url, 'sync_node')
    a = startDesktop('a')
    b = startDesktop('b')
  }, 180_000)

  afterAll(async () => {
    await a?.close()
    await b?.close()
    if (node) await killServerNode(node)
    store?.close()
    await site?.close()
    await cluster?.close()
  })

  it('fills no outbox while the desktop is not linked (the single-machine app as before)', async () => {
    const alone = startDesktop('alone')
    try {
      await makeSearchTool(alone.core, site)
      const local = createSyncLocal(alone.core.store.db)
      expect(alone.sync.link()).toBeNull()
      expect(local.outbox(LOCAL_TENANT)).toEqual([])
      await expect(alone.sync.sync()).rejects.toThrow(/not linked/)
    } finally {
      await alone.close()
    }
  })

  it('A pushes a verified tool; B pulls it and calls it through the server', async () => {
    const linkA = await a.sync.connect(node.base, { token: owner })
    expect(linkA).toMatchObject({ auth: 'token', tokenStore: 'vault', workspace: null })
    ;({ tool } = await makeSearchTool(a.core, site))
    const asked: string[] = []
    a.fetch.impl = (input, init) => {
      asked.push(`${init?.method ?? 'GET'} ${String(input).replace(node.base, '')}`)
      return fetch(input, init)
    }
    const pushed = await a.sync.sync()
    a.fetch.impl = fetch
    expect(pushed).toMatchObject({ pushed: [tool.id], refused: [], conflicts: [], stopped: null })
    // No one else wrote in between (the push's `before` was A's pulled revision): the pull
    // starts after A's own change instead of bringing it back.
    const revision = store.toolSync.revision('local')
    expect(asked).toEqual([`PUT /v1/sync/tools/${tool.id}`, `GET /v1/sync/tools?since=${revision}`])
    expect(serverTool(tool.id)).toEqual(tool)
    const listed = await pull()
    expect(listed.status).toBe(200)
    expect(listed.body.tools.map((t) => t.tool.id)).toEqual([tool.id])

    await b.sync.connect(node.base, { token: owner })
    const pulled = await b.sync.sync()
    expect(pulled).toMatchObject({ pulled: [tool.id], pushed: [], stopped: null })
    const onB = b.core.store.tools.get(tool.id)!
    expect(onB).toEqual(tool)
    // B's pull is not pushed back: its outbox stays empty.
    expect(createSyncLocal(b.core.store.db).outbox(LOCAL_TENANT)).toEqual([])
    const call = await callTool<Run>(node.base, owner, onB, { query: 'writing' })
    expect(call.status, JSON.stringify(call.body)).toBe(200)
    expect(call.body.status).toBe('succeeded')
  })

  it('both edit one tool: the second push gets 409, kept with both versions, settled either way', async () => {
    a.core.store.tools.save(edited(a.core.store.tools.get(tool.id)!, 'edited on A'))
    b.core.store.tools.save(edited(b.core.store.tools.get(tool.id)!, 'edited on B'))
    expect((await a.sync.sync()).pushed).toEqual([tool.id])
    const clash = await b.sync.sync()
    expect(clash.pushed).toEqual([])
    expect(clash.conflicts).toHaveLength(1)
    expect(clash.conflicts[0]).toMatchObject({
      toolId: tool.id,
      mine: { description: 'edited on B' },
      theirs: { description: 'edited on A' },
    })
    // Nothing overwritten: B keeps its version, the server A's, until B chooses.
    expect(b.core.store.tools.get(tool.id)!.description).toBe('edited on B')
    expect(serverTool(tool.id)!.description).toBe('edited on A')
    // A second sync lists it again and does not push it.
    expect((await b.sync.sync()).conflicts.map((c) => c.toolId)).toEqual([tool.id])

    const theirs = await b.sync.take(tool.name, 'theirs')
    expect(theirs.conflicts).toEqual([])
    expect(b.core.store.tools.get(tool.id)!.description).toBe('edited on A')

    // Again, and this time B keeps its own: the server and then A get it.
    a.core.store.tools.save(edited(a.core.store.tools.get(tool.id)!, 'A again'))
    b.core.store.tools.save(edited(b.core.store.tools.get(tool.id)!, 'B again'))
    await a.sync.sync()
    expect((await b.sync.sync()).conflicts).toHaveLength(1)
    const mine = await b.sync.take(tool.id, 'mine')
    expect(mine).toMatchObject({ pushed: [tool.id], conflicts: [] })
    expect(serverTool(tool.id)!.description).toBe('B again')
    expect((await a.sync.sync()).pulled).toEqual([tool.id])
    expect(a.core.store.tools.get(tool.id)!.description).toBe('B again')
  })

  it('a push whose answer was lost (a crash between send and ack) is sent again and applied once', async () => {
    a.core.store.tools.save(edited(a.core.store.tools.get(tool.id)!, 'sent once'))
    const local = createSyncLocal(a.core.store.db)
    const [entry] = local.outbox(LOCAL_TENANT)
    expect(entry).toMatchObject({ toolId: tool.id, op: 'put', sentAt: null })
    // The request reaches the server; its answer never comes back.
    a.fetch.impl = async (input, init) => {
      await fetch(input, init)
      throw new Error('connection reset by peer')
    }
    const crashed = await a.sync.sync()
    a.fetch.impl = fetch
    expect(crashed.stopped).toMatch(/connection reset/)
    expect(local.outbox(LOCAL_TENANT)).toEqual([{ ...entry, sentAt: expect.any(Number) }])
    const applied = store.toolSync.state('local', tool.id)!.revision
    expect(serverTool(tool.id)!.description).toBe('sent once')

    const again = await a.sync.sync()
    expect(again).toMatchObject({ pushed: [tool.id], conflicts: [], stopped: null })
    expect(local.outbox(LOCAL_TENANT)).toEqual([])
    // The same operation key: the server answered its first answer and applied nothing again.
    expect(store.toolSync.state('local', tool.id)!.revision).toBe(applied)
    expect(store.toolSync.operation('local', entry!.opKey)).toMatchObject({
      status: 200,
      answer: { toolId: tool.id, revision: applied },
    })
    expect(local.base(LOCAL_TENANT, tool.id)).toBe(applied)
  })

  it('refuses a pushed tool that carries a credential or recorded traffic', async () => {
    const step = tool.steps[0]!
    const withHeader = {
      ...tool,
      id: 'tool-with-cookie',
      name: `${tool.name}_cookie`,
      steps: [
        {
          ...step,
          request: {
            ...step.request,
            headers: { Cookie: 'sid=3f9a1c2e', Authorization: 'Bearer {{login.token}}' },
          },
        },
      ],
    }
    const refused = await send<{ error: { code: string; findings: Array<{ path: string }> } }>(
      node.base,
      'PUT',
      `/v1/sync/tools/${withHeader.id}`,
      {
        key: owner,
        json: { baseRevision: null, tool: withHeader },
        headers: { 'idempotency-key': 'op_cookie_1' },
      },
    )
    expect(refused.status).toBe(400)
    expect(refused.body.error.code).toBe('credential_in_tool')
    // The path only, never the value; the templated Authorization passes.
    expect(refused.body.error.findings.map((f) => f.path)).toEqual([
      'steps[0].request.headers.Cookie',
    ])
    expect(JSON.stringify(refused.body)).not.toContain('3f9a1c2e')
    const recorded = {
      ...tool,
      id: 'tool-with-body',
      name: `${tool.name}_body`,
      evidence: { ...tool.evidence, responseBody: { text: '{}' } },
    }
    const second = await send<{ error: { code: string } }>(
      node.base,
      'PUT',
      `/v1/sync/tools/${recorded.id}`,
      {
        key: owner,
        json: { baseRevision: null, tool: recorded },
        headers: { 'idempotency-key': 'op_body_1' },
      },
    )
    expect(second.status).toBe(400)
    expect(second.body.error.code).toBe('credential_in_tool')
    expect(serverTool(withHeader.id)).toBeNull()
    expect(serverTool(recorded.id)).toBeNull()
    // The desktop does not even send one: it says so and keeps the tool here.
    a.core.store.tools.save({
      ...withHeader,
      steps: [{ ...step, request: { ...step.request, headers: { 'X-Api-Key': 'k_live_1234' } } }],
    } as ToolSpec)
    const report = await a.sync.sync()
    expect(report.refused).toMatchObject([{ toolId: withHeader.id, code: 'credential_in_tool' }])
    expect(serverTool(withHeader.id)).toBeNull()
    a.core.store.tools.delete(withHeader.id)
    await a.sync.sync()
  })

  it('answers a stale base with both versions, and a repeated key with its first answer', async () => {
    const current = store.toolSync.state('local', tool.id)!
    const yours = edited(serverTool(tool.id)!, 'stale edit')
    const put = (key: string, baseRevision: number) =>
      send<{
        error?: { code: string; current: { revision: number; tool: ToolSpec }; yours: ToolSpec }
        revision?: number
      }>(node.base, 'PUT', `/v1/sync/tools/${tool.id}`, {
        key: owner,
        json: { baseRevision, tool: yours },
        headers: { 'idempotency-key': key },
      })
    const stale = await put('op_stale_1', current.revision - 1)
    expect(stale.status).toBe(409)
    expect(stale.body.error).toMatchObject({
      code: 'stale_revision',
      current: { revision: current.revision, tool: { description: current.tool!.description } },
      yours: { description: 'stale edit' },
    })
    const first = await put('op_fresh_1', current.revision)
    expect(first.status).toBe(200)
    const repeat = await put('op_fresh_1', current.revision)
    expect(repeat).toMatchObject({ status: 200, body: first.body })
    expect(store.toolSync.state('local', tool.id)!.revision).toBe(first.body.revision)
    // Without an operation key, or without credentials: refused.
    const keyless = await send<{ error: { code: string } }>(
      node.base,
      'PUT',
      `/v1/sync/tools/${tool.id}`,
      {
        key: owner,
        json: { baseRevision: first.body.revision, tool: yours },
      },
    )
    expect(keyless.status).toBe(400)
    expect((await send(node.base, 'GET', '/v1/sync/tools')).status).toBe(401)
    await a.sync.sync()
    await b.sync.sync()
  })

  it('a quarantine propagates both ways: from a desktop, and from the server engine', async () => {
    await a.sync.sync()
    await b.sync.sync()
    b.core.store.tools.setStatus(tool.id, 'quarantined', Date.now())
    expect((await b.sync.sync()).pushed).toEqual([tool.id])
    expect(serverTool(tool.id)!.status).toBe('quarantined')
    expect((await a.sync.sync()).pulled).toEqual([tool.id])
    expect(a.core.store.tools.get(tool.id)!.status).toBe('quarantined')
    // The server's recheck lifts it (written on the server, as a node's engine does).
    store.tools.setStatus(tool.id, 'verified', Date.now())
    expect((await a.sync.sync()).pulled).toEqual([tool.id])
    expect((await b.sync.sync()).pulled).toEqual([tool.id])
    expect(b.core.store.tools.get(tool.id)!.status).toBe('verified')
    expect(createSyncLocal(b.core.store.db).outbox(LOCAL_TENANT)).toEqual([])
  })

  it('two nodes taking pushes of one tool at once apply one; the same key raced applies once', async () => {
    const second = await startServerNode(url, 'sync_node_2')
    try {
      const put = (base: string, key: string, revision: number, description: string) =>
        send<{ revision?: number; error?: { code: string } }>(
          base,
          'PUT',
          `/v1/sync/tools/${tool.id}`,
          {
            key: owner,
            json: { baseRevision: revision, tool: edited(serverTool(tool.id)!, description) },
            headers: { 'idempotency-key': key },
          },
        )
      // Both nodes warm (their first request compiles routes), then rounds of two pushes on
      // the same base at once: each round applies exactly one.
      await Promise.all([node.base, second.base].map((base) => pull(1 << 30).then(() => base)))
      await send(second.base, 'GET', '/v1/sync/tools?since=0', { key: owner })
      for (let round = 0; round < 10; round++) {
        const current = store.toolSync.state('local', tool.id)!
        const raced = await Promise.all([
          put(node.base, `op_race_${round}_a`, current.revision, `round ${round} on node 1`),
          put(second.base, `op_race_${round}_b`, current.revision, `round ${round} on node 2`),
        ])
        expect(raced.map((r) => r.status).sort(), `round ${round}`).toEqual([200, 409])
        expect(raced.find((r) => r.status === 409)!.body.error!.code).toBe('stale_revision')
        const won = raced.find((r) => r.status === 200)!
        expect(store.toolSync.state('local', tool.id)!.revision).toBe(won.body.revision)
      }
      const after = store.toolSync.state('local', tool.id)!
      const again = await Promise.all(
        [node.base, second.base].map((base) =>
          send<{ revision: number }>(base, 'PUT', `/v1/sync/tools/${tool.id}`, {
            key: owner,
            json: { baseRevision: after.revision, tool: edited(after.tool!, 'one key, two nodes') },
            headers: { 'idempotency-key': 'op_race_same' },
          }),
        ),
      )
      expect(again.map((r) => r.status)).toEqual([200, 200])
      expect(again[0]!.body).toEqual(again[1]!.body)
      expect(store.toolSync.state('local', tool.id)!.revision).toBe(again[0]!.body.revision)
    } finally {
      await killServerNode(second)
    }
    await a.sync.sync()
    await b.sync.sync()
  }, 60_000)

  it('a delete on A propagates to the server and to B as a tombstone', async () => {
    expect(b.core.store.tools.get(tool.id)).not.toBeNull()
    expect(a.core.store.tools.delete(tool.id)).toBe(true)
    expect((await a.sync.sync()).deleted).toEqual([tool.id])
    expect(serverTool(tool.id)).toBeNull()
    const listed = await pull()
    expect(listed.body.deleted).toMatchObject([{ toolId: tool.id }])
    const onB = await b.sync.sync()
    expect(onB.removed).toEqual([tool.id])
    expect(b.core.store.tools.get(tool.id)).toBeNull()
    // Removing it on B pushes nothing back.
    expect(createSyncLocal(b.core.store.db).outbox(LOCAL_TENANT)).toEqual([])
  })

  it('links with OAuth (PKCE S256, public client) and keeps the refresh token sealed, never in clear', async () => {
    const c = startDesktop('c')
    try {
      let shown = ''
      const link = await c.sync.connect(node.base, {
        openUrl: async (url) => {
          shown = url
          // The person approves in a browser signed in to the server; it follows the redirect.
          const back = await consent(
            { base: node.base, core: { ownerToken: owner } } as never,
            new URL(url).search.slice(1),
          )
          void fetch(back)
        },
      })
      const query = new URL(shown).searchParams
      expect(query.get('code_challenge_method')).toBe('S256')
      expect(query.get('scope')).toBe('tools:read tools:sync')
      expect(link).toMatchObject({ auth: 'oauth', tokenStore: 'vault' })
      ;({ tool } = await makeSearchTool(c.core, site))
      const report = await c.sync.sync()
      expect(report).toMatchObject({ pushed: [tool.id], stopped: null })
      expect(serverTool(tool.id)?.id).toBe(tool.id)
      // A second sync refreshes again (a new process would): the rotated token was kept.
      const again = createDesktopSync({
        store: c.core.store,
        vault: c.core.vault,
        keychain: null,
        tenant: LOCAL_TENANT,
        clock: Date.now,
      })
      expect((await again.sync()).stopped).toBeNull()
      c.core.store.db.pragma('wal_checkpoint(TRUNCATE)')
      for (const file of readdirSync(c.home).filter((f) => f.startsWith('sitecall.db')))
        expect(readFileSync(join(c.home, file)).includes('svc_ort_')).toBe(false)
    } finally {
      await c.close()
    }
  })

  it('does the same from the CLI: sitecall link --token, sitecall sync, --take', async () => {
    const d = startDesktop('cli')
    try {
      const linked = await cli(d.home, ['link', node.base, '--token', owner, '--json'])
      expect(linked, linked.out).toMatchObject({ code: 0 })
      expect(JSON.parse(linked.out)).toMatchObject({ auth: 'token', tokenStore: 'vault' })
      const first = await cli(d.home, ['sync'])
      expect(first.code, first.out).toBe(0)
      expect(first.out).toMatch(
        /^Pushed 0, deleted 0; pulled 1, removed 0; server revision \d+\.$/m,
      )
      const mine = d.core.store.tools.get(tool.id)!
      d.core.store.tools.save(edited(mine, 'edited in the CLI test'))
      const theirs = store.tools.get(tool.id)!
      store.tools.save(edited(theirs, 'edited on the server'))
      const clash = await cli(d.home, ['sync'])
      expect(clash.code, clash.out).toBe(0)
      expect(clash.out).toContain(`Conflict ${tool.name} (${tool.id})`)
      expect(clash.out).toContain('they differ in description')
      expect(clash.out).toContain(`sitecall sync --take mine ${tool.id}`)
      const took = await cli(d.home, ['sync', '--take', 'theirs', tool.name, '--json'])
      expect(took.code, took.out).toBe(0)
      expect(JSON.parse(took.out)).toMatchObject({ conflicts: [], stopped: null })
      expect(d.core.store.tools.get(tool.id)!.description).toBe('edited on the server')
      expect((await cli(d.home, ['link', '--remove'])).out).toContain('Unlinked')
      expect(d.sync.link()).toBeNull()
    } finally {
      await d.close()
    }
  }, 120_000)

  it('syncs within the workspace of an account token (X-Service-Workspace), not another', async () => {
    const registered = await send<{ token: string; workspace: { id: string } }>(
      node.base,
      'POST',
      '/v1/auth/register',
      { json: { name: 'ann@example.org', password: 'sync test password' } },
    )
    expect(registered.status).toBe(201)
    const { token, workspace } = registered.body
    const e = startDesktop('account')
    try {
      await e.sync.connect(node.base, { token, workspace: workspace.id })
      const { tool: own } = await makeSearchTool(e.core, site)
      expect((await e.sync.sync()).pushed).toEqual([own.id])
      expect(store.toolsFor(workspace.id).get(own.id)?.id).toBe(own.id)
      expect(store.tools.get(own.id)).toBeNull()
      // The server's own workspace does not list it; the account's does.
      expect((await pull()).body.tools.map((t) => t.tool.id)).not.toContain(own.id)
      const theirs = await send<{ tools: Array<{ tool: ToolSpec }> }>(
        node.base,
        'GET',
        '/v1/sync/tools?since=0',
        { key: token, headers: { 'x-service-workspace': workspace.id } },
      )
      expect(theirs.body.tools.map((t) => t.tool.id)).toEqual([own.id])
      // A workspace the account is not a member of: refused before anything is read.
      const elsewhere = await send(node.base, 'GET', '/v1/sync/tools?since=0', {
        key: token,
        headers: { 'x-service-workspace': 'ws_not_mine' },
      })
      expect(elsewhere.status).toBe(403)
    } finally {
      await e.close()
    }
  })
})
