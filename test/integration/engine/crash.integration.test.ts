import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ulid } from 'ulid'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createCore } from '../../../src/main/core'
import { createStore, type Store } from '../../../src/main/store/store'
import type { Run } from '../../../src/shared/run'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { startOrdersSite, type OrdersSite } from '../../fixtures/sites/orders'
import { pollRun, send } from '../../fixtures/harness/http'
import { saveTestLoginAt, TEST_VAULT_ENV } from '../logins/loginHelpers'
import { bearerLogin, createOrderTool, listOrdersTool, requestsTo } from './ordersTools'
import { startServe, until, type ServeProcess } from './serveProcess'

let home: string
let site: OrdersSite
let key: string
let list: ToolSpec
let create: ToolSpec
const children: ServeProcess[] = []

const dbPath = () => join(home, 'sitecall.db')

/** Opens the app's SQLite file from the test (WAL: safe next to a running app), runs `fn`. */
function withStore<T>(fn: (store: Store) => T): T {
  const store = createStore(dbPath())
  try {
    return fn(store)
  } finally {
    store.close()
  }
}

/** Starts `sitecall serve` on `home`, its vault opened by the passphrase sealing the login. */
async function serve(): Promise<ServeProcess> {
  const child = await startServe(home, TEST_VAULT_ENV)
  children.push(child)
  return child
}

const call = (base: string, tool: ToolSpec, body: unknown) =>
  send<Run>(base, 'POST', `/api/v1/sites/${tool.siteHost}/call/${tool.name}`, { key, json: body })

/** Writes a run into the SQLite file as a process would have left it when it died. */
function leaveRun(tool: ToolSpec, inputs: Record<string, unknown>, status: 'accepted' | 'working') {
  const runId = `lrun_${ulid()}`
  withStore((store) =>
    store.runs.create(
      {
        runId,
        tenant: 'local',
        toolId: tool.id,
        capabilityId: tool.capabilityId,
        via: 'http',
        inputs,
        inputHash: createHash('sha256').update(JSON.stringify(inputs)).digest('hex'),
        idempotencyKey: null,
        deadlineMs: null,
        status,
        mutating: tool.mutating,
        billOnSuccess: true,
      },
      Date.now(),
    ),
  )
  return runId
}

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'sitecall-crash-'))
  site = await startOrdersSite()
  list = listOrdersTool(site)
  create = createOrderTool(site)
  await saveTestLoginAt(home, 'local', site.host, await bearerLogin(site))
  withStore((store) => {
    store.tools.save(list)
    store.tools.save(create)
    key = store.keys.create({ id: 'key_crash', tenant: 'local', label: 'crash' }, Date.now()).key
  })
})

afterEach(async () => {
  for (const child of children.splice(0)) await child.stop('SIGKILL')
  await site.close()
  rmSync(home, { recursive: true, force: true })
})

// Each test starts the real app (tsx compiles it) once or twice: slow on a busy machine.
describe('a kill -9 of the serving process', { timeout: 180_000 }, () => {
  it('leaves a write in flight outcome_unknown after restart, never resent, and loses no run', async () => {
    const first = await serve()
    // Runs of every kind persisted before the kill: finished reads and a write awaiting approval.
    const reads = [await call(first.base, list, {}), await call(first.base, list, {})]
    for (const read of reads) expect(read.body.status).toBe('succeeded')
    const waiting = await call(first.base, create, { item: 'Waiting lamp' })
    expect(waiting.status).toBe(202)

    // The write: approved, sent, received by the site, held there unanswered.
    site.switches.delayMs = 600_000
    const asked = await call(first.base, create, { item: 'Crash lamp' })
    expect(asked.status).toBe(202)
    const [approval] = asked.body.requirements as Array<{ id: string; kind: string }>
    expect(approval!.kind).toBe('approval')
    void send(first.base, 'POST', `/api/v1/runs/${asked.body.runId}/responses`, {
      key,
      json: {
        stateRevision: asked.body.stateRevision,
        answers: [{ requirementId: approval!.id, approve: true }],
      },
    }).catch(() => undefined)
    await until(() => requestsTo(site, 'POST', '/api/spa/orders').length === 1)
    expect(withStore((s) => s.runs.get(asked.body.runId)!.status)).toBe('working')
    const before = withStore((s) => s.runs.list({ limit: 1000 }))

    expect(await first.stop('SIGKILL')).toBe('SIGKILL')
    site.switches.delayMs = 0

    const second = await serve()
    const lost = await send<Run>(second.base, 'GET', `/api/v1/runs/${asked.body.runId}`, { key })
    expect(lost.status).toBe(200)
    expect(lost.body).toMatchObject({
      runId: asked.body.runId,
      status: 'outcome_unknown',
      error: { code: 'worker_lost', message: expect.stringContaining('check the site') },
    })
    expect(lost.body).not.toHaveProperty('result')
    const after = withStore((s) => s.runs.list({ limit: 1000 }))
    expect(after.map((r) => r.runId).sort()).toEqual(before.map((r) => r.runId).sort())
    for (const run of before) {
      const now = after.find((r) => r.runId === run.runId)!
      if (run.runId === asked.body.runId) continue
      expect({ runId: now.runId, status: now.status, result: now.result }).toEqual({
        runId: run.runId,
        status: run.status,
        result: run.result,
      })
    }
    // A later read through the new process works, and the write was never sent again.
    expect((await call(second.base, list, {})).body.status).toBe('succeeded')
    expect(requestsTo(site, 'POST', '/api/spa/orders')).toHaveLength(1)
    expect(withStore((s) => s.runs.get(asked.body.runId)!.billed)).toBe(false)
  })

  it('resumes a read left working, which then succeeds, and fails a write left accepted worker_lost', async () => {
    const read = leaveRun(list, {}, 'working')
    const write = leaveRun(create, { item: 'Never sent' }, 'accepted')
    const app = await serve()

    const resumed = await pollRun(app.base, key, read)
    expect(resumed.body).toMatchObject({ runId: read, status: 'succeeded', error: null })
    expect(resumed.body.result).toEqual({ orders: expect.any(Array), count: expect.any(Number) })
    expect(requestsTo(site, 'GET', '/api/spa/orders')).toHaveLength(1)

    const failed = await pollRun(app.base, key, write)
    expect(failed.body).toMatchObject({
      runId: write,
      status: 'failed',
      error: { code: 'worker_lost', message: expect.any(String) },
    })
    expect(requestsTo(site, 'POST', '/api/spa/orders')).toHaveLength(0)
  })

  it('leaves runs in flight alone when a core opens the data dir without serving (sitecall record)', async () => {
    const read = leaveRun(list, {}, 'working')
    const write = leaveRun(create, { item: 'In flight elsewhere' }, 'working')
    const core = createCore({ home, rendererDir: null })
    await core.close()
    expect(withStore((s) => [s.runs.get(read)!.status, s.runs.get(write)!.status])).toEqual([
      'working',
      'working',
    ])
  })
})
