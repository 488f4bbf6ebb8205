import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import {
  createBrowserPool,
  type BrowserLauncher,
  type PoolBrowser,
} from '../../../src/main/engine/browserPool'
import { BrowserCapacityError, isBrowserCapacityError } from '../../../src/main/engine/browserSlots'
import type { StorageState } from '../../../src/shared/trace'

/** A context of the fake browser: remembers the storage state it was made with. */
class FakeContext {
  closed = false
  constructor(readonly storageState: StorageState | undefined) {}
  async close() {
    this.closed = true
  }
}

/** The OS edge: a browser process that can be made to crash. */
class FakeBrowser extends EventEmitter implements PoolBrowser<FakeContext> {
  connected = true
  contexts: FakeContext[] = []
  failNext = false
  async newContext(options: { storageState?: StorageState }) {
    if (this.failNext) {
      this.failNext = false
      throw new Error('Target page, context or browser has been closed')
    }
    const context = new FakeContext(options.storageState)
    this.contexts.push(context)
    return context
  }
  isConnected() {
    return this.connected
  }
  async close() {
    this.connected = false
  }
  crash() {
    this.connected = false
    this.emit('disconnected')
  }
}

function setup(options: { capacity?: number; waitMs?: number } = {}) {
  const launched: FakeBrowser[] = []
  const launches: Array<{ executablePath: string; args: string[] }> = []
  const launch: BrowserLauncher<FakeContext> = async (o) => {
    launches.push(o)
    const browser = new FakeBrowser()
    launched.push(browser)
    return browser
  }
  const pool = createBrowserPool<FakeContext>({
    chromiumPath: () => '/usr/bin/chromium',
    launch,
    ...options,
  })
  return { pool, launched, launches }
}

const live = () => new AbortController().signal
const settled = async <T>(p: Promise<T>) => {
  // Lets queued microtasks and I/O callbacks run, then tells whether `p` settled.
  let done = false
  void p.then(
    () => (done = true),
    () => (done = true),
  )
  await new Promise((r) => setImmediate(r))
  return done
}

describe('browser pool', () => {
  it('launches one browser lazily, with the recorder flags, and shares it between leases', async () => {
    const { pool, launched, launches } = setup()
    expect(launched).toHaveLength(0)
    expect(pool.stats()).toEqual({ leased: 0, waiting: 0, running: false })
    const login: StorageState = { cookies: [], origins: [] }
    const [a, b] = await Promise.all([
      pool.acquire(live(), { wait: false, storageState: login }),
      pool.acquire(live(), { wait: false }),
    ])
    expect(launched).toHaveLength(1)
    expect(launches[0]!.executablePath).toBe('/usr/bin/chromium')
    expect(launches[0]!.args).toContain('--no-sandbox')
    expect(a.context).not.toBe(b.context)
    expect(a.context.storageState).toBe(login)
    expect(b.context.storageState).toBeUndefined()
    await a.release()
    expect(a.context.closed).toBe(true)
    await b.release()
    await pool.close()
  })

  it('refuses a caller that does not wait at once when every lease is out', async () => {
    const { pool } = setup({ capacity: 1 })
    const held = await pool.acquire(live(), { wait: false })
    const refused = await pool.acquire(live(), { wait: false }).catch((e: unknown) => e)
    expect(isBrowserCapacityError(refused)).toBe(true)
    expect(refused).toMatchObject({
      code: 'browser_capacity',
      waited: false,
      retryAfterSeconds: 30,
    })
    await held.release()
    const next = await pool.acquire(live(), { wait: false })
    await next.release()
    await pool.close()
  })

  it('gives freed leases to waiting callers first in, first out', async () => {
    const { pool } = setup({ capacity: 1 })
    const first = await pool.acquire(live(), { wait: true })
    const order: string[] = []
    const second = pool.acquire(live(), { wait: true }).then((l) => (order.push('second'), l))
    const third = pool.acquire(live(), { wait: true }).then((l) => (order.push('third'), l))
    expect(pool.stats()).toMatchObject({ leased: 1, waiting: 2 })
    // A newcomer that does not wait cannot overtake the queue.
    await expect(pool.acquire(live(), { wait: false })).rejects.toBeInstanceOf(BrowserCapacityError)
    await first.release()
    const secondLease = await second
    expect(order).toEqual(['second'])
    expect(await settled(third)).toBe(false)
    await secondLease.release()
    await (await third).release()
    expect(order).toEqual(['second', 'third'])
    expect(pool.stats()).toMatchObject({ leased: 0, waiting: 0 })
    await pool.close()
  })

  it('tells a caller that waited its time out with waited: true', async () => {
    const { pool } = setup({ capacity: 1, waitMs: 50 })
    const held = await pool.acquire(live(), { wait: true })
    const refused = await pool.acquire(live(), { wait: true }).catch((e: unknown) => e)
    expect(refused).toMatchObject({ code: 'browser_capacity', waited: true, retryAfterSeconds: 30 })
    expect(pool.stats().waiting).toBe(0)
    await held.release()
    await pool.close()
  })

  it('takes an aborted caller out of the queue', async () => {
    const { pool } = setup({ capacity: 1 })
    const held = await pool.acquire(live(), { wait: true })
    const controller = new AbortController()
    const aborted = pool.acquire(controller.signal, { wait: true })
    const after = pool.acquire(live(), { wait: true })
    expect(pool.stats().waiting).toBe(2)
    controller.abort(new Error('cancelled by the caller'))
    await expect(aborted).rejects.toThrow('cancelled by the caller')
    expect(pool.stats().waiting).toBe(1)
    await held.release()
    const lease = await after
    expect(pool.stats()).toMatchObject({ leased: 1, waiting: 0 })
    await lease.release()
    await expect(pool.acquire(AbortSignal.abort(), { wait: true })).rejects.toBeDefined()
    expect(pool.stats().leased).toBe(0)
    await pool.close()
  })

  it('closes every context and the browser on close, and refuses waiters and newcomers', async () => {
    const { pool, launched } = setup({ capacity: 1 })
    const held = await pool.acquire(live(), { wait: true })
    const waiting = pool.acquire(live(), { wait: true })
    await pool.close()
    await expect(waiting).rejects.toThrow('closed')
    expect(held.context.closed).toBe(true)
    expect(launched[0]!.connected).toBe(false)
    await held.release()
    await expect(pool.acquire(live(), { wait: true })).rejects.toThrow('closed')
    expect(pool.stats()).toEqual({ leased: 0, waiting: 0, running: false })
    await pool.close()
  })

  it('launches a new browser after the last one crashed', async () => {
    const { pool, launched } = setup()
    const a = await pool.acquire(live(), { wait: false })
    launched[0]!.crash()
    await a.release()
    expect(pool.stats().running).toBe(false)
    const b = await pool.acquire(live(), { wait: false })
    expect(launched).toHaveLength(2)
    expect(launched[1]!.contexts).toContain(b.context)
    await b.release()
    await pool.close()
  })

  it('frees the slot when a context cannot be made', async () => {
    const { pool, launched } = setup({ capacity: 1 })
    await (await pool.acquire(live(), { wait: false })).release()
    launched[0]!.failNext = true
    await expect(pool.acquire(live(), { wait: false })).rejects.toThrow('closed')
    expect(pool.stats().leased).toBe(0)
    await (await pool.acquire(live(), { wait: false })).release()
    await pool.close()
  })

  it('tries the launch again when it failed', async () => {
    let attempts = 0
    const pool = createBrowserPool<FakeContext>({
      chromiumPath: () => '/usr/bin/chromium',
      launch: async () => {
        if (++attempts === 1) throw new Error('spawn ENOENT')
        return new FakeBrowser()
      },
    })
    await expect(pool.acquire(live(), { wait: false })).rejects.toThrow('ENOENT')
    expect(pool.stats()).toMatchObject({ leased: 0, running: false })
    await (await pool.acquire(live(), { wait: false })).release()
    expect(attempts).toBe(2)
    await pool.close()
  })
})
