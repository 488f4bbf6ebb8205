import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createCore, LOCAL_TENANT, type Core } from '../../../src/main/core'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { startDirectorySite, type DirectorySite } from '../../fixtures/sites/directory'
import type { ApiHook } from '../../fixtures/harness/harness'
import { saveTestLogin } from '../logins/loginHelpers'
import { startOrdersSite, type OrdersSite } from '../../fixtures/sites/orders'
import { orderTool } from '../../fixtures/sites/orders/orderTool'

/** A clock the test moves by hand (the 15-minute requirement window). */
export interface FakeClock {
  now: () => number
  advance(ms: number): void
}

/** Starts at the real time so ids and dates look ordinary, then only moves when told. */
export function fakeClock(): FakeClock {
  let at = Date.now()
  return { now: () => at, advance: (ms) => void (at += ms) }
}

export interface EngineHarness {
  core: Core
  base: string
  key: string
  directory: DirectorySite
  orders: OrdersSite
  /** Sets (or clears) what the directory awaits before answering each /api/* request. */
  setApiHook(hook: ApiHook | null): void
  close(): Promise<void>
}

/**
 * A real core (SQLite file in a temp dir, port 0, optionally a fake clock, a vault that never asks
 * the OS keychain), both fixture sites on 127.0.0.1, and a personal key of the local workspace.
 */
export async function startEngineHarness(options: { clock?: FakeClock } = {}) {
  let hook: ApiHook | null = null
  const home = mkdtempSync(join(tmpdir(), 'sitecall-engine-'))
  const directory = await startDirectorySite({ onApiRequest: (req) => hook?.(req) })
  const orders = await startOrdersSite({ recordRequests: true })
  const core = createCore({
    home,
    port: 0,
    rendererDir: null,
    keychain: null,
    ...(options.clock ? { clock: options.clock.now } : {}),
  })
  const base = await core.listen()
  const { key } = core.store.keys.create(
    { id: 'key_engine', tenant: LOCAL_TENANT, label: 'engine tests' },
    Date.now(),
  )
  const harness: EngineHarness = {
    core,
    base,
    key,
    directory,
    orders,
    setApiHook: (next) => void (hook = next),
    async close() {
      hook = null
      await directory.close()
      await orders.close()
      await core.close()
      rmSync(home, { recursive: true, force: true })
    },
  }
  return harness
}

/**
 * The orders site's "create an order" tool, shaped as the compiler makes it from a recorded
 * order form (test/e2e/orders.spec.ts): a GET of /orders whose `<meta name="csrf-token">` feeds the
 * `X-CSRF-Token` of the `POST /api/orders` target, the session cookie from the saved login, and
 * `shipping` with the form's three options. Saved verified, with alice's login sealed in the vault
 * (unlocked with the test passphrase) for the site.
 */
export async function saveOrderTool(core: Core, orders: OrdersSite): Promise<ToolSpec> {
  const now = Date.now()
  const tool: ToolSpec = { ...orderTool(orders), createdAt: now, updatedAt: now }
  core.store.tools.save(tool)
  const session = orders.state.sessions.start('alice')
  await saveTestLogin(core, LOCAL_TENANT, orders.host, {
    cookies: [
      { name: 'parcel_session', value: session, domain: '127.0.0.1', path: '/', expires: -1 },
    ],
    origins: [],
  })
  return tool
}

/** The orders site's `POST /api/orders` requests, in arrival order. */
export const orderPosts = (orders: OrdersSite) =>
  orders.state.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/api/orders'))

/** Alice's orders made by runs (the seeds excluded). */
export const createdOrders = (orders: OrdersSite, item: string) =>
  orders.state.orders.list('alice', null).filter((o) => o.item === item)

/** Runs of a tool in the database (every status). */
export const runsOf = (core: Core, toolId: string) => core.store.runs.list({ toolId, limit: 1000 })

/** The workspace's charges, oldest first, as the Usage view lists them (the ledger's). */
export function charges(core: Core): Array<{ ref: string; amount: number }> {
  return core.store.ledger
    .entries(LOCAL_TENANT, 1000)
    .filter((e) => e.kind === 'charge')
    .reverse()
    .map(({ ref, amount }) => ({ ref, amount }))
}
