/**
 * Devices run what only they hold (issue 27 C), with real parts: one `sitecall server` node
 * process on a private PostgreSQL 15 cluster, the orders fixture site on 127.0.0.1 (its orders
 * need the session cookie of a login), and desktop A: a core on its own SQLite file whose vault
 * holds the site's login, linked to the node, its device loop running. An agent calls the tool
 * through the server over REST: it runs on A (the site sees A's cookie) and the server's
 * database holds no credential; with A's loop stopped, a run ends `expired` naming the device.
 * A write the agent did not confirm asks its approval in A's Inbox (approved: sent once; declined:
 * `declined`; unanswered: `expired` naming A); an unlinked device's waiting run ends `expired`; a
 * run that meets a sign-in wall on A carries A's own sign-in link.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, LOCAL_TENANT, type Core } from '../../../src/main/core'
import { createPgOwnerTokens } from '../../../src/main/serverAccess'
import { createPgStore, type PgStore } from '../../../src/main/store/postgres/pgStore'
import { createDesktopSync, type DesktopSync } from '../../../src/main/sync/desktopSync'
import { startLinkedDevice, type DeviceAgent } from '../../../src/main/sync/deviceAgent'
import type { Run } from '../../../src/shared/run'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { callTool, pollRun, send } from '../../fixtures/harness/http'
import { DEFAULT_USER, startOrdersSite, type OrdersSite } from '../../fixtures/sites/orders'
import { listOrdersTool } from '../../fixtures/sites/orders/listOrdersTool'
import { orderTool } from '../../fixtures/sites/orders/orderTool'
import { listInbox } from '../../../src/main/app/appInbox'
import { saveTestLogin, TEST_VAULT_ENV } from '../logins/loginHelpers'
import { pgUnavailable, startPgCluster, type PgCluster } from '../store/pgCluster'
import { killServerNode, startServerNode, type ServerNode } from './serverNode'

const skip = pgUnavailable()

describe.skipIf(skip !== null)(`devices${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let cluster: PgCluster
  let store: PgStore
  let node: ServerNode
  let other: ServerNode
  let orders: OrdersSite
  let owner: string
  let home: string
  let a: Core
  let sync: DesktopSync
  let agent: DeviceAgent | null = null
  let tool: ToolSpec
  let session: string
  const reported: string[] = []

  beforeAll(async () => {
    cluster = await startPgCluster()
    const url = await cluster.createDatabase('devices')
    store = createPgStore(url)
    owner = createPgOwnerTokens(store.pg, { clock: Date.now }).issue().token
    orders = await startOrdersSite()
    node = await startServerNode(url, 'devices_node')
    other = await startServerNode(url, 'devices_other')
    home = mkdtempSync(join(tmpdir(), 'sitecall-desk-a-'))
    a = createCore({
      home,
      port: 0,
      rendererDir: null,
      keychain: null,
      env: { ...process.env, ...TEST_VAULT_ENV, SITECALL_DEVICE_NAME: 'ann-laptop' },
    })
    sync = createDesktopSync({
      store: a.store,
      vault: a.vault,
      keychain: null,
      tenant: LOCAL_TENANT,
      clock: Date.now,
    })
    // A's own tool and login; the tool reaches the server by sync, the login never does.
    tool = listOrdersTool(orders)
    a.store.tools.save(tool)
    session = orders.state.sessions.start(DEFAULT_USER.username)
    await saveTestLogin(a, LOCAL_TENANT, orders.host, {
      cookies: [
        { name: 'parcel_session', value: session, domain: '127.0.0.1', path: '/', expires: -1 },
      ],
      origins: [],
    })
    await sync.connect(node.base, { token: owner })
    expect((await sync.sync()).pushed).toEqual([tool.id])
  }, 180_000)

  afterAll(async () => {
    await agent?.stop()
    await a?.close()
    if (home) rmSync(home, { recursive: true, force: true })
    if (node) await killServerNode(node)
    if (other) await killServerNode(other)
    store?.close()
    await orders?.close()
    await cluster?.close()
  })

  const startAgent = () =>
    startLinkedDevice({
      store: a.store,
      vault: a.vault,
      keychain: null,
      engine: a.engine,
      sites: () => a.logins.list(LOCAL_TENANT).map((l) => l.host),
      tenant: LOCAL_TENANT,
      name: 'ann-laptop',
      onRun: (runId, status) => reported.push(`${runId} ${status}`),
    })!

  it('without a device the server runs the tool itself, and the site refuses it (no login there)', async () => {
    const call = await callTool<Run>(node.base, owner, tool, {})
    expect(call.status, JSON.stringify(call.body)).toBe(200)
    expect(call.body).toMatchObject({ status: 'failed', error: { code: 'session_or_permission' } })
  })

  it('refuses a long poll for a device the workspace does not have, and a bad wait', async () => {
    const unknown = await send(node.base, 'GET', '/v1/devices/dev_nope/next?wait=0', { key: owner })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toMatchObject({ error: { code: 'not_found' } })
    const registered = await send<{ id: string }>(node.base, 'POST', '/v1/devices', {
      key: owner,
      json: { name: 'spare', sites: [] },
    })
    expect(registered.status).toBe(200)
    const tooLong = await send(node.base, 'GET', `/v1/devices/${registered.body.id}/next?wait=26`, {
      key: owner,
    })
    expect(tooLong.status).toBe(400)
    const idle = await send(node.base, 'GET', `/v1/devices/${registered.body.id}/next?wait=0`, {
      key: owner,
    })
    expect(idle.status).toBe(204)
    const values = await send(node.base, 'POST', '/v1/devices', {
      key: owner,
      json: { name: 'spare', sites: ['parcel_session=abc'] },
    })
    expect(values.status).toBe(400)
  })

  it("an agent's call through the server runs on desktop A with A's cookie; the server keeps none", async () => {
    agent = startAgent()
    const deviceId = await agent.registered
    const devices = store.pg.query<{ id: string; name: string; sites: string[] }>(
      'SELECT id, name, sites FROM devices WHERE id = $1',
      [deviceId],
    ).rows
    expect(devices).toEqual([{ id: deviceId, name: 'ann-laptop', sites: [orders.host] }])
    const before = orders.state.requestCount('/api/orders')
    const call = await callTool<Run>(node.base, owner, tool, {})
    expect(call.status, JSON.stringify(call.body)).toBe(200)
    const mine = orders.state.orders.list(DEFAULT_USER.username, null)
    expect(mine.length).toBeGreaterThan(0)
    expect(call.body).toMatchObject({ status: 'succeeded', result: { count: mine.length } })
    // The site saw one request, carrying A's session cookie.
    expect(orders.state.requestCount('/api/orders')).toBe(before + 1)
    const seen = orders.state.requests.filter((r) => r.path === '/api/orders').at(-1)!
    expect(String(seen.headers.cookie)).toContain(`parcel_session=${session}`)
    // A ran it in its own engine (its run history has it) and reported it.
    expect(reported).toEqual([expect.stringMatching(new RegExp(`^${call.body.runId} succeeded$`))])
    expect(a.store.runs.list({ toolId: tool.id })).toHaveLength(1)
    // Reported once: a second report changes nothing.
    const again = await send(node.base, 'POST', `/v1/devices/${deviceId}/runs/${call.body.runId}`, {
      key: owner,
      json: { status: 'failed', error: { code: 'upstream_error', message: 'late' } },
    })
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ error: { code: 'conflict' } })
    // No table of the server's database holds the cookie's value.
    const tables = store.pg.query<{ schema: string; name: string }>(
      `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
        WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
    ).rows
    expect(tables.length).toBeGreaterThan(20)
    for (const t of tables) {
      const hits = store.pg.query(
        `SELECT 1 FROM "${t.schema}"."${t.name}" x WHERE x::text LIKE $1 LIMIT 1`,
        [`%${session}%`],
      ).rows
      expect(hits, `${t.schema}.${t.name}`).toEqual([])
    }
    expect(store.pg.query('SELECT 1 FROM logins').rows).toEqual([])
  })

  it('a call on another node than the one A polls runs on A too (claim and report go through the database)', async () => {
    // The other node learns of A's device from a NOTIFY (docs/team-server.md, devices): until it
    // has, it runs the call itself and the site refuses it for want of A's login. Only that
    // refusal is tried again, for at most 10 s; anything else fails at once.
    for (let tries = 1; ; tries++) {
      const before = a.store.runs.list({ toolId: tool.id }).length
      const call = await callTool<Run>(other.base, owner, tool, {})
      expect(call.status, JSON.stringify(call.body)).toBe(200)
      const refused =
        call.body.status === 'failed' && call.body.error?.code === 'session_or_permission'
      if (refused && tries < 20) {
        await new Promise((resolve) => setTimeout(resolve, 500))
        continue
      }
      expect(call.body.status, JSON.stringify(call.body)).toBe('succeeded')
      expect(a.store.runs.list({ toolId: tool.id })).toHaveLength(before + 1)
      break
    }
  })

  it('a run offered to a poll whose answer went nowhere is offered again, taken and run once', async () => {
    await agent!.stop()
    agent = null
    const deviceId = store.pg.one<{ id: string }>(
      "SELECT id FROM devices WHERE name = 'ann-laptop'",
    )!.id
    const before = orders.state.requestCount('/api/orders')
    // A poll answered as its device hung up: the offer is never taken.
    const lost = send<{ run: { runId: string } }>(
      node.base,
      'GET',
      `/v1/devices/${deviceId}/next?wait=25`,
      { key: owner },
    )
    const call = callTool<Run>(node.base, owner, tool, {}, { 'x-service-deadline-ms': '60000' })
    const offered = await lost
    expect(offered.status).toBe(200)
    const runId = offered.body.run.runId
    // A back: once the handover window passed its poll is offered the run, takes it and runs it.
    agent = startAgent()
    const done = await call
    expect(done.status, JSON.stringify(done.body)).toBe(200)
    expect(done.body).toMatchObject({ runId, status: 'succeeded' })
    expect(orders.state.requestCount('/api/orders')).toBe(before + 1)
    expect(reported.at(-1)).toBe(`${runId} succeeded`)
    // The lost poll's take, arriving now, finds the run reported: the device runs nothing.
    const late = await send(node.base, 'POST', `/v1/devices/${deviceId}/runs/${runId}/take`, {
      key: owner,
    })
    expect(late.status).toBe(409)
    expect(late.body).toMatchObject({ error: { code: 'conflict' } })
    // Real time: the 15 s handover and a 5 s recheck of the poll.
  }, 90_000)

  it('with A offline, a run waits until its deadline, then ends expired naming the device', async () => {
    await agent!.stop()
    agent = null
    const before = orders.state.requestCount('/api/orders')
    const call = await callTool<Run & { error: { code: string; runId?: string } }>(
      node.base,
      owner,
      tool,
      {},
      { 'x-service-deadline-ms': '5000' },
    )
    // The call's deadline and the run's are one: the answer is the 504 or the expired run.
    expect([200, 504], JSON.stringify(call.body)).toContain(call.status)
    const runId = call.status === 504 ? call.body.error.runId! : call.body.runId
    const run = await pollRun(node.base, owner, runId)
    expect(run.body).toMatchObject({
      status: 'expired',
      error: {
        code: 'worker_lost',
        message: "desktop 'ann-laptop' was offline until the run's deadline",
      },
    })
    // Nothing reached the site, and A coming back later does not run it.
    agent = startAgent()
    const deviceId = await agent.registered
    const next = await send(node.base, 'GET', `/v1/devices/${deviceId}/next?wait=0`, { key: owner })
    expect(next.status).toBe(204)
    expect(orders.state.requestCount('/api/orders')).toBe(before)
    // Real time: the run's 5 s deadline, its expiry and the device's return; a loaded CI machine
    // (2 cores, other suites beside it) took over the default 30 s once.
  }, 90_000)

  it('a report for a run the device never claimed is refused', async () => {
    const deviceId = await agent!.registered
    const refused = await send(node.base, 'POST', `/v1/devices/${deviceId}/runs/lrun_none`, {
      key: owner,
      json: { status: 'succeeded', result: {} },
    })
    expect(refused.status).toBe(404)
    const bad = await send(node.base, 'POST', `/v1/devices/${deviceId}/runs/lrun_none`, {
      key: owner,
      json: { status: 'failed', error: { code: 'made_up', message: 'x' } },
    })
    expect(bad.status).toBe(400)
  })

  it('a linked desktop that serves runs its device loop by itself', async () => {
    await agent?.stop()
    agent = null
    const device = () =>
      store.pg.one<{ id: string; last_seen_at: string }>(
        "SELECT id, last_seen_at FROM devices WHERE name = 'ann-laptop'",
      )!
    const seen = Number(device().last_seen_at)
    await a.listen()
    // Its first long poll marks the device seen.
    while (Number(device().last_seen_at) === seen)
      await new Promise((resolve) => setTimeout(resolve, 50))
    const before = a.store.runs.list({ toolId: tool.id }).length
    const call = await callTool<Run>(node.base, owner, tool, {})
    expect(call.status, JSON.stringify(call.body)).toBe(200)
    expect(call.body.status).toBe('succeeded')
    expect(a.store.runs.list({ toolId: tool.id })).toHaveLength(before + 1)
    // A login saved on the server itself wins: the server runs it (its vault is locked here, so
    // the run fails there), and A does not.
    store.pg.query(
      `INSERT INTO logins (tenant, site_host, secrets, saved_at) VALUES ('local', $1, '{}', $2)`,
      [orders.host, Date.now()],
    )
    try {
      const served = await callTool<Run>(node.base, owner, tool, {})
      expect(served.status, JSON.stringify(served.body)).toBe(200)
      expect(served.body.status).toBe('failed')
      expect(a.store.runs.list({ toolId: tool.id })).toHaveLength(before + 1)
    } finally {
      store.pg.query('DELETE FROM logins')
    }
  })

  /** The order write, on A and pushed to the server (its login is A's, as the list's). */
  let write: ToolSpec | null = null
  const orderWrite = async (): Promise<ToolSpec> => {
    if (write) return write
    write = orderTool(orders)
    a.store.tools.save(write)
    expect((await sync.sync()).pushed).toEqual([write.id])
    return write
  }
  const posts = () =>
    orders.state.requests.filter((r) => r.method === 'POST' && r.path === '/api/orders').length
  /** A's Inbox item of the run of `toolId` once it shows (the person's view of it). */
  const inboxItem = async (toolId: string) => {
    for (let i = 0; i < 400; i++) {
      const item = listInbox({ store: a.store, engine: a.engine }, LOCAL_TENANT).find(
        (x) => x.toolId === toolId,
      )
      if (item) return item
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    throw new Error("the approval never reached A's Inbox")
  }
  const placeOrder = (tool: ToolSpec, deadlineMs: number) =>
    callTool<Run & { error: { code: string; message: string; runId?: string } }>(
      node.base,
      owner,
      tool,
      { item: 'tea', quantity: 2, shipping: 'express' },
      { 'x-service-deadline-ms': String(deadlineMs) },
    )

  it("a write the agent did not confirm asks its approval in A's Inbox; approved there, it is sent once", async () => {
    const tool = await orderWrite()
    const before = posts()
    const call = placeOrder(tool, 30_000)
    const item = await inboxItem(tool.id)
    expect(item.requirements).toEqual([expect.objectContaining({ kind: 'approval' })])
    // The server's run waits for A, and asks nothing of the agent itself.
    const waiting = store.pg.one<{ status: string; requirements: string }>(
      "SELECT status, requirements FROM runs WHERE tool_id = $1 AND tenant = 'local'",
      [tool.id],
    )!
    expect(waiting).toEqual({ status: 'working', requirements: '[]' })
    expect(posts()).toBe(before)
    a.engine.respond(item.runId, LOCAL_TENANT, {
      stateRevision: item.stateRevision,
      answers: [{ requirementId: item.requirements[0]!.id, approve: true }],
    })
    const answer = await call
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expect(answer.body).toMatchObject({ status: 'succeeded', result: { order: { item: 'tea' } } })
    expect(posts()).toBe(before + 1)
    expect(listInbox({ store: a.store, engine: a.engine }, LOCAL_TENANT)).toEqual([])
  })

  it('declined in A\'s Inbox, the agent\'s call ends failed "declined" and nothing is sent', async () => {
    const tool = await orderWrite()
    const before = posts()
    const call = placeOrder(tool, 30_000)
    const item = await inboxItem(tool.id)
    a.engine.respond(item.runId, LOCAL_TENANT, {
      stateRevision: item.stateRevision,
      answers: [{ requirementId: item.requirements[0]!.id, approve: false }],
    })
    const answer = await call
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expect(answer.body).toMatchObject({
      status: 'failed',
      error: { code: 'declined', message: 'The approval was declined: nothing was sent.' },
    })
    expect(posts()).toBe(before)
  })

  it("unanswered by the run's deadline, the run ends expired naming A and leaves A's Inbox", async () => {
    const tool = await orderWrite()
    const before = posts()
    const call = placeOrder(tool, 5_000)
    const item = await inboxItem(tool.id)
    const answer = await call
    const runId = answer.status === 504 ? answer.body.error.runId! : answer.body.runId
    const run = await pollRun(node.base, owner, runId)
    expect(run.body).toMatchObject({
      status: 'expired',
      error: {
        code: 'worker_lost',
        message:
          "desktop 'ann-laptop': nobody approved the run in the desktop's Inbox by its deadline",
      },
    })
    expect(listInbox({ store: a.store, engine: a.engine }, LOCAL_TENANT)).toEqual([])
    // A late approval finds the run cancelled on A: nothing can be sent.
    expect(() =>
      a.engine.respond(item.runId, LOCAL_TENANT, {
        stateRevision: item.stateRevision,
        answers: [{ requirementId: item.requirements[0]!.id, approve: true }],
      }),
    ).toThrow(/cancelled/)
    expect(posts()).toBe(before)
  })

  it("DELETE /v1/devices/{id} unlinks a device: its waiting run ends expired, its claims end; another workspace's is 404", async () => {
    // A device that holds the site and never polls: seen last, runs go to it.
    const spare = await send<{ id: string }>(node.base, 'POST', '/v1/devices', {
      key: owner,
      json: { name: 'spare-laptop', sites: [orders.host] },
    })
    expect(spare.status).toBe(200)
    const call = callTool<Run>(node.base, owner, tool, {}, { 'x-service-deadline-ms': '30000' })
    while (!store.pg.one('SELECT 1 FROM device_runs WHERE device_id = $1', [spare.body.id]))
      await new Promise((resolve) => setTimeout(resolve, 50))
    // Another workspace cannot see it, nor remove it.
    const registered = await send<{ token: string; workspace: { id: string } }>(
      node.base,
      'POST',
      '/v1/auth/register',
      { json: { name: 'bob@example.org', password: 'devices test password' } },
    )
    expect(registered.status).toBe(201)
    const foreign = await send(node.base, 'DELETE', `/v1/devices/${spare.body.id}`, {
      key: registered.body.token,
      headers: { 'x-service-workspace': registered.body.workspace.id },
    })
    expect(foreign.status).toBe(404)
    expect(foreign.body).toMatchObject({ error: { code: 'not_found' } })
    const removed = await send(node.base, 'DELETE', `/v1/devices/${spare.body.id}`, { key: owner })
    expect(removed.status, JSON.stringify(removed.body)).toBe(200)
    expect(removed.body).toEqual({ id: spare.body.id, deleted: true, endedRuns: 1 })
    const answer = await call
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expect(answer.body).toMatchObject({
      status: 'expired',
      error: {
        code: 'worker_lost',
        message: "desktop 'spare-laptop': unlinked from the workspace before it took the run",
      },
    })
    // Its claims and reports end; removing it again is 404.
    const poll = await send(node.base, 'GET', `/v1/devices/${spare.body.id}/next?wait=0`, {
      key: owner,
    })
    expect(poll.status).toBe(404)
    const report = await send(
      node.base,
      'POST',
      `/v1/devices/${spare.body.id}/runs/${answer.body.runId}`,
      { key: owner, json: { status: 'succeeded', result: {} } },
    )
    expect(report.status).toBe(404)
    const again = await send(node.base, 'DELETE', `/v1/devices/${spare.body.id}`, { key: owner })
    expect(again.status).toBe(404)
    // Runs go to A again.
    const next = await callTool<Run>(node.base, owner, tool, {})
    expect(next.body.status).toBe('succeeded')
  })

  it('unlinking a device that took a read and did not report it ends that run failed worker_lost', async () => {
    const spare = await send<{ id: string }>(node.base, 'POST', '/v1/devices', {
      key: owner,
      json: { name: 'claiming-laptop', sites: [orders.host] },
    })
    const call = callTool<Run>(node.base, owner, tool, {}, { 'x-service-deadline-ms': '30000' })
    let claimed: { status: number; body: { run?: { runId: string } } } = { status: 204, body: {} }
    while (claimed.status === 204)
      claimed = await send(node.base, 'GET', `/v1/devices/${spare.body.id}/next?wait=5`, {
        key: owner,
      })
    expect(claimed.status).toBe(200)
    const runPath = `/v1/devices/${spare.body.id}/runs/${claimed.body.run!.runId}`
    const taken = await send(node.base, 'POST', `${runPath}/take`, { key: owner })
    expect(taken.body).toEqual({ runId: claimed.body.run!.runId, taken: true })
    // A second take (its first answer lost) is the same take.
    const twice = await send(node.base, 'POST', `${runPath}/take`, { key: owner })
    expect(twice.status).toBe(200)
    const removed = await send(node.base, 'DELETE', `/v1/devices/${spare.body.id}`, { key: owner })
    expect(removed.body).toMatchObject({ deleted: true, endedRuns: 1 })
    const answer = await call
    expect(answer.body).toMatchObject({
      runId: claimed.body.run!.runId,
      status: 'failed',
      error: {
        code: 'worker_lost',
        message: "desktop 'claiming-laptop' was unlinked while it ran the run",
      },
    })
  })

  it('a device that does not say it asks approvals (an earlier desktop) is handed a write only once approved on the server', async () => {
    const tool = await orderWrite()
    const older = await send<{ id: string; asksApprovals: boolean }>(
      node.base,
      'POST',
      '/v1/devices',
      { key: owner, json: { name: 'older-laptop', sites: [orders.host] } },
    )
    expect(older.status).toBe(200)
    expect(older.body.asksApprovals).toBe(false)
    try {
      const answer = await placeOrder(tool, 30_000)
      expect(answer.status, JSON.stringify(answer.body)).toBe(202)
      expect(answer.body).toMatchObject({
        status: 'input_required',
        requirements: [expect.objectContaining({ kind: 'approval' })],
      })
      expect(
        store.pg.one('SELECT 1 FROM device_runs WHERE run_id = $1', [answer.body.runId]),
      ).toBeUndefined()
      const cancelled = await send(node.base, 'POST', `/api/v1/runs/${answer.body.runId}/cancel`, {
        key: owner,
      })
      expect(cancelled.status).toBe(200)
    } finally {
      await send(node.base, 'DELETE', `/v1/devices/${older.body.id}`, { key: owner })
    }
  })

  it("a run that meets a sign-in wall on A carries A's own sign-in link", async () => {
    orders.expireSessions()
    const call = await callTool<Run>(node.base, owner, tool, {})
    expect(call.status, JSON.stringify(call.body)).toBe(200)
    expect(call.body).toMatchObject({ status: 'failed', error: { code: 'session_or_permission' } })
    const own = a.store.runs.list({ toolId: tool.id })[0]!
    expect(own.status).toBe('failed')
    expect(own.signIn?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//)
    expect(call.body.signIn).toEqual({ url: own.signIn!.url })
  })

  it('a desktop that starts again cancels the approvals a device run left in its Inbox, and only those', async () => {
    const tool = await orderWrite()
    const inputs = { item: 'tea', quantity: 1, shipping: 'standard' }
    const left = a.engine.start(tool, inputs, {
      tenant: LOCAL_TENANT,
      idempotencyKey: 'device:lrun_left_by_a_crash',
      mayAsk: true,
    }).run
    const own = a.engine.start(tool, inputs, { tenant: LOCAL_TENANT, mayAsk: true }).run
    expect([left.status, own.status]).toEqual(['input_required', 'input_required'])
    await agent?.stop()
    agent = startAgent()
    await agent.registered
    expect(a.engine.get(left.runId)!.status).toBe('cancelled')
    expect(a.engine.get(own.runId)!.status).toBe('input_required')
    a.engine.cancel(own.runId, LOCAL_TENANT)
  })
})
