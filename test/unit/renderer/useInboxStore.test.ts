import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createCore, LOCAL_TENANT, type Core } from '../../../src/main/core'
import { REQUIREMENT_WINDOW_MS } from '../../../src/main/engine/requirements'
import { createHttpTransport } from '../../../src/renderer/api'
import { useAppStore } from '../../../src/renderer/stores/useAppStore'
import { pendingCount, useInboxStore } from '../../../src/renderer/stores/useInboxStore'
import type { InboxItem } from '../../../src/shared/appApi'
import type { Run } from '../../../src/shared/run'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { startOrdersSite, type OrdersSite } from '../../fixtures/sites/orders'
import { saveOrderToolAndLogin } from '../../e2e/orderTool'
import { fakeClock, type FakeClock } from '../../integration/engine/engineHarness'

let home: string
let core: Core
let orders: OrdersSite
let tool: ToolSpec
let clock: FakeClock

// The store talks to a real core over the web transport, put where the Electron preload would be.
beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'sitecall-inbox-store-'))
  clock = fakeClock()
  orders = await startOrdersSite()
  core = createCore({
    home,
    port: 0,
    rendererDir: null,
    clock: clock.now,
    keychain: null,
    env: { SITECALL_KEYCHAIN: 'off', SITECALL_PASSPHRASE: 'inbox store passphrase' },
    expirySweepMs: 60 * 60_000,
  })
  const base = await core.listen()
  tool = await saveOrderToolAndLogin(core, orders)
  const transport = createHttpTransport(fetch, () => core.ownerToken, { baseUrl: base })
  Object.assign(globalThis, { window: { sitecall: transport } })
})

afterAll(async () => {
  await core.close()
  await orders.close()
  rmSync(home, { recursive: true, force: true })
  Reflect.deleteProperty(globalThis, 'window')
})

beforeEach(() => {
  // Runs of earlier tests must not wait in this one's inbox.
  for (const run of core.store.runs.withStatus(['input_required']))
    core.engine.cancel(run.runId, null)
  useInboxStore.setState({ items: [], loaded: false, closed: [], answering: {}, failures: {} })
  useAppStore.getState().dismiss()
})

/** A call without `allow_mutation`, as surface A makes it: the run waits on the person. */
function waitingRun(inputs: Record<string, unknown>): string {
  const { run } = core.engine.start(tool, inputs, { tenant: LOCAL_TENANT })
  expect(run.status).toBe('input_required')
  return run.runId
}

async function loadedItem(runId: string): Promise<InboxItem> {
  await useInboxStore.getState().load()
  const item = useInboxStore.getState().items.find((i) => i.runId === runId)
  expect(item).toBeDefined()
  return item!
}

const ordersOf = (item: string) =>
  orders.state.orders.list('alice', null).filter((o) => o.item === item)

describe('useInboxStore', () => {
  it('lists each waiting run with its tool, site, requirement kinds and slot types', async () => {
    const runId = waitingRun({ item: 'Lamp', shipping: 'fast' })
    const item = await loadedItem(runId)
    expect(item).toMatchObject({ toolName: tool.name, siteHost: orders.host, mutating: true })
    expect(item.requirements.map((r) => [r.kind, r.slot, r.slotSchema?.type])).toEqual([
      ['value', 'quantity', 'integer'],
      ['choice', 'shipping', 'string'],
      ['approval', undefined, undefined],
    ])
    expect(item.requirements[2]!.request).toMatchObject({
      method: 'POST',
      url: `${orders.url}/api/orders`,
    })
    expect(pendingCount(useInboxStore.getState().items)).toBe(3)
    // The countdown follows the core's clock, not this process's.
    const { skewMs } = useInboxStore.getState()
    expect(Math.abs(Date.now() + skewMs - clock.now())).toBeLessThan(5_000)
  })

  it('approving sends the order and closes the item with the succeeded run', async () => {
    const runId = waitingRun({ item: 'Vase', quantity: 3, shipping: 'express' })
    const item = await loadedItem(runId)
    const approval = item.requirements[0]!
    await useInboxStore
      .getState()
      .answer(item, approval, { requirementId: approval.id, approve: true })
    const { items, closed } = useInboxStore.getState()
    expect(items).toEqual([])
    expect(closed[0]).toMatchObject({ answer: 'approved', run: { runId, status: 'succeeded' } })
    expect(ordersOf('Vase')).toMatchObject([{ quantity: 3, shipping: 'express' }])
  })

  it('declining fails the run `declined` and sends nothing', async () => {
    const runId = waitingRun({ item: 'Rug', quantity: 1, shipping: 'standard' })
    const item = await loadedItem(runId)
    const approval = item.requirements[0]!
    await useInboxStore
      .getState()
      .answer(item, approval, { requirementId: approval.id, approve: false })
    expect(useInboxStore.getState().closed[0]).toMatchObject({
      answer: 'declined',
      run: { status: 'failed', error: { code: 'declined' } },
    })
    expect(ordersOf('Rug')).toEqual([])
  })

  it('keeps a refused value on its requirement and the item in the inbox', async () => {
    const runId = waitingRun({ item: 'Chair', shipping: 'standard' })
    const item = await loadedItem(runId)
    const value = item.requirements[0]!
    await useInboxStore.getState().answer(item, value, { requirementId: value.id, value: 'two' })
    const state = useInboxStore.getState()
    expect(state.failures[value.id]?.code).toBe('invalid_answer')
    expect(state.items.map((i) => i.runId)).toEqual([runId])
    expect(state.closed).toEqual([])
  })

  it('an answer after the 15 minutes closes the item with `expired_requirement`', async () => {
    const runId = waitingRun({ item: 'Clock', quantity: 1, shipping: 'standard' })
    const item = await loadedItem(runId)
    clock.advance(REQUIREMENT_WINDOW_MS + 1000)
    const approval = item.requirements[0]!
    await useInboxStore
      .getState()
      .answer(item, approval, { requirementId: approval.id, approve: true })
    expect(useInboxStore.getState().closed[0]).toMatchObject({
      item: { runId },
      error: { code: 'expired_requirement' },
    })
    expect(useInboxStore.getState().items).toEqual([])
    expect(ordersOf('Clock')).toEqual([])
  })

  it('takes a run answered elsewhere out of the inbox when its update arrives', async () => {
    const runId = waitingRun({ item: 'Desk', quantity: 1, shipping: 'standard' })
    const item = await loadedItem(runId)
    const updates: Run[] = []
    const off = core.events.on('runs.updated', ({ run }) => void updates.push(run))
    await core.handlers['requirements.answer']({
      runId,
      stateRevision: item.stateRevision,
      answers: [{ requirementId: item.requirements[0]!.id, approve: false }],
    })
    off()
    for (const run of updates) useInboxStore.getState().applyRun(run)
    const { items, closed } = useInboxStore.getState()
    expect(items).toEqual([])
    expect(closed[0]).toMatchObject({ answer: null, run: { runId, status: 'failed' } })
    // A late read of the inbox that still held the run does not bring it back.
    useInboxStore.setState({ items: [] })
    await useInboxStore.getState().load()
    expect(useInboxStore.getState().items.map((i) => i.runId)).not.toContain(runId)
  })
})
