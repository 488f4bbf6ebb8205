import { chromium, type BrowserContext } from 'playwright-core'
import type { StorageState } from '../../shared/trace'
import { chromiumArgs } from '../recorder'
import type { GuardedProxySettings } from './guardProxy'

/** Leases at once when the caller names none (capacity 2). */
export const DEFAULT_BROWSER_CAPACITY = 2
/** How long a waiting caller queues for a lease (spec "browser_capacity": 503 after 30 s). */
export const DEFAULT_BROWSER_WAIT_MS = 30_000
/** The cooldown a refused caller is told (spec "browser_capacity": retry after about 30 s). */
export const BROWSER_RETRY_AFTER_S = 30

/** The part of a browser context the pool itself needs; Playwright's `BrowserContext` has it. */
export interface PoolContext {
  close(): Promise<void>
}

/** The part of a launched browser the pool needs; Playwright's `Browser` has it. */
export interface PoolBrowser<C extends PoolContext> {
  newContext(options: {
    storageState?: StorageState
    proxy?: GuardedProxySettings
    httpCredentials?: {
      username: string
      password: string
      origin: string
      send?: 'always' | 'unauthorized'
    }
  }): Promise<C>
  isConnected(): boolean
  close(): Promise<void>
  on(event: 'disconnected', listener: () => void): unknown
}

/** Starts the browser process (the OS edge: tests pass a fake). */
export type BrowserLauncher<C extends PoolContext> = (options: {
  executablePath: string
  headless: boolean
  args: string[]
}) => Promise<PoolBrowser<C>>

export interface BrowserPoolOptions<C extends PoolContext> {
  /** Resolves the Chromium binary at first launch; may throw `chromium_not_found`. */
  chromiumPath: () => string
  /** Leases out at once; default 2. */
  capacity?: number
  /** How long `acquire(…, {wait: true})` queues before refusing, in ms; default 30,000. */
  waitMs?: number
  /** Milliseconds since the Unix epoch (how long a refused caller waited). */
  clock?: () => number
  headless?: boolean
  /** Default: playwright-core's `chromium.launch`. */
  launch?: BrowserLauncher<C>
}

export interface AcquireOptions {
  /** Queue (FIFO, up to `waitMs`) when every lease is out; false refuses at once. */
  wait: boolean
  /** The login's cookies and localStorage for the fresh context; null for none. */
  storageState?: StorageState | null
  /** The guard proxy the context connects through; absent: none. */
  proxy?: GuardedProxySettings | null
  /**
   * The site's saved HTTP authentication login, sent for its origin only: answering its
   * challenges, or with every request (`send: 'always'`, Basic a page's script sends itself).
   */
  httpCredentials?: {
    username: string
    password: string
    origin: string
    send?: 'always' | 'unauthorized'
  } | null
}

/** One browser context held by one run; `release()` closes it and frees the slot (idempotent). */
export interface BrowserLease<C extends PoolContext> {
  context: C
  release(): Promise<void>
}

export interface BrowserPoolStats {
  leased: number
  waiting: number
  /** True while a browser process is up (or starting). */
  running: boolean
}

export interface BrowserPool<C extends PoolContext = BrowserContext> {
  /**
   * A fresh context in the shared browser, launching it on first use and again after a crash.
   * Rejects with {@link BrowserCapacityError} when every lease is out (at once without `wait`,
   * after `waitMs` with it), with the signal's reason when aborted (the caller leaves the queue),
   * and with an Error when the pool is closed or the browser cannot start.
   */
  acquire(signal: AbortSignal, options: AcquireOptions): Promise<BrowserLease<C>>
  stats(): BrowserPoolStats
  /** Refuses waiters, closes every context and the browser; safe to call twice. */
  close(): Promise<void>
}

/**
 * All browser slots are taken (spec "Why a run failed": `browser_capacity`). `waited` tells the
 * REST edge 503 (the call waited its 30 s) from 429 (it did not wait).
 */
export class BrowserCapacityError extends Error {
  override readonly name = 'BrowserCapacityError'
  readonly code = 'browser_capacity'
  constructor(
    readonly waited: boolean,
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super(message)
  }
}

/** True for a {@link BrowserCapacityError}, also across module copies (checks the name). */
export function isBrowserCapacityError(error: unknown): error is BrowserCapacityError {
  return error instanceof Error && error.name === 'BrowserCapacityError'
}

/**
 * playwright-core's `chromium.launch`; the saved login's cookies get Playwright's defaults for
 * the flags a recording may leave out (not HttpOnly, not Secure, SameSite=Lax).
 */
const launchChromium: BrowserLauncher<BrowserContext> = async (options) => {
  const browser = await chromium.launch(options)
  return {
    newContext: ({ storageState, proxy, httpCredentials }) =>
      browser.newContext({
        ...(proxy ? { proxy } : {}),
        ...(httpCredentials ? { httpCredentials } : {}),
        ...(storageState
          ? {
              storageState: {
                origins: storageState.origins,
                cookies: storageState.cookies.map((c) => ({
                  ...c,
                  httpOnly: c.httpOnly ?? false,
                  secure: c.secure ?? false,
                  sameSite: c.sameSite ?? 'Lax',
                })),
              },
            }
          : {}),
      }),
    isConnected: () => browser.isConnected(),
    close: () => browser.close(),
    on: (event, listener) => browser.on(event, listener),
  }
}

interface Waiter {
  grant(): void
  refuse(error: unknown): void
}

/**
 * Creates the pool of rendered runs (DESIGN.md §1 "executor (rendered)"): one Chromium process
 * shared by every lease, launched lazily with the recorder's flags, and one fresh context per
 * lease so runs never share cookies. Slots beyond `capacity` queue first-in first-out.
 */
export function createBrowserPool<C extends PoolContext = BrowserContext>(
  options: BrowserPoolOptions<C>,
): BrowserPool<C> {
  const capacity = Math.max(1, options.capacity ?? DEFAULT_BROWSER_CAPACITY)
  const waitMs = options.waitMs ?? DEFAULT_BROWSER_WAIT_MS
  const clock = options.clock ?? Date.now
  const launch = (options.launch ?? launchChromium) as BrowserLauncher<C>
  const queue: Waiter[] = []
  const contexts = new Set<C>()
  let leased = 0
  let browser: Promise<PoolBrowser<C>> | null = null
  let closed = false

  const closedError = () => new Error('The browser pool is closed.')

  /** The running browser, launching it when none runs or the last one crashed. */
  function running(): Promise<PoolBrowser<C>> {
    if (browser) return browser
    const starting = launch({
      executablePath: options.chromiumPath(),
      headless: options.headless ?? true,
      args: chromiumArgs(),
    }).then((b) => {
      b.on('disconnected', () => {
        if (browser === starting) browser = null
      })
      return b
    })
    browser = starting
    // A failed launch must not stick: the next lease tries again.
    starting.catch(() => {
      if (browser === starting) browser = null
    })
    return starting
  }

  function takeSlot(signal: AbortSignal, wait: boolean): Promise<void> {
    if (closed) return Promise.reject(closedError())
    if (signal.aborted) return Promise.reject(signal.reason)
    if (leased < capacity) {
      leased++
      return Promise.resolve()
    }
    if (!wait)
      return Promise.reject(
        new BrowserCapacityError(
          false,
          BROWSER_RETRY_AFTER_S,
          `All ${capacity} browser slots are busy: retry after ${BROWSER_RETRY_AFTER_S} s.`,
        ),
      )
    const since = clock()
    return new Promise<void>((resolve, reject) => {
      const leave = () => {
        clearTimeout(timer)
        signal.removeEventListener('abort', onAbort)
        const at = queue.indexOf(waiter)
        if (at >= 0) queue.splice(at, 1)
      }
      const waiter: Waiter = {
        grant: () => {
          leave()
          resolve()
        },
        refuse: (error) => {
          leave()
          reject(error)
        },
      }
      const onAbort = () => waiter.refuse(signal.reason)
      const timer = setTimeout(
        () =>
          waiter.refuse(
            new BrowserCapacityError(
              true,
              BROWSER_RETRY_AFTER_S,
              `All ${capacity} browser slots stayed busy for ${Math.round((clock() - since) / 1000)} s: retry after ${BROWSER_RETRY_AFTER_S} s.`,
            ),
          ),
        waitMs,
      )
      signal.addEventListener('abort', onAbort, { once: true })
      queue.push(waiter)
    })
  }

  function freeSlot(): void {
    leased--
    // The slot passes straight to the oldest waiter, so a newcomer cannot overtake the queue.
    const next = queue[0]
    if (next && !closed) {
      leased++
      next.grant()
    }
  }

  async function newContext(
    storageState: StorageState | null | undefined,
    proxy: GuardedProxySettings | null | undefined,
    httpCredentials: AcquireOptions['httpCredentials'],
  ): Promise<C> {
    let b = await running()
    if (!b.isConnected()) {
      if (browser) browser = null
      b = await running()
    }
    return b.newContext({
      ...(storageState ? { storageState } : {}),
      ...(proxy ? { proxy } : {}),
      ...(httpCredentials ? { httpCredentials } : {}),
    })
  }

  return {
    async acquire(signal, { wait, storageState, proxy, httpCredentials }) {
      await takeSlot(signal, wait)
      let context: C
      try {
        context = await newContext(storageState, proxy, httpCredentials)
      } catch (error) {
        freeSlot()
        throw error
      }
      if (closed || signal.aborted) {
        await context.close().catch(() => {})
        freeSlot()
        throw closed ? closedError() : signal.reason
      }
      contexts.add(context)
      let released = false
      return {
        context,
        async release() {
          if (released) return
          released = true
          contexts.delete(context)
          try {
            await context.close()
          } catch {
            // The browser may already be gone (crash, pool closed): the slot is freed anyway.
          } finally {
            freeSlot()
          }
        },
      }
    },
    stats: () => ({ leased, waiting: queue.length, running: browser !== null }),
    async close() {
      if (closed) return
      closed = true
      for (const waiter of [...queue]) waiter.refuse(closedError())
      const open = [...contexts]
      contexts.clear()
      await Promise.allSettled(open.map((c) => c.close()))
      const current = browser
      browser = null
      if (current) await current.then((b) => b.close()).catch(() => {})
    },
  }
}
