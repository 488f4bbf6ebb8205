import { chromium, type BrowserContext } from 'playwright-core'
import type { StorageState } from '../../shared/trace'
import { chromiumArgs } from '../recorder'
import type { GuardedProxySettings } from './guardProxy'
import {
  closeSlots,
  createSlots,
  freeSlot,
  poolClosedError,
  takeSlot,
  type BrowserSlots,
} from './browserSlots'

/** Leases at once when the caller names none (capacity 2). */
const DEFAULT_BROWSER_CAPACITY = 2
/** How long a waiting caller queues for a lease (interface.md "browser_capacity": 503 after 30 s). */
const DEFAULT_BROWSER_WAIT_MS = 30_000

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

interface AcquireOptions {
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
interface BrowserLease<C extends PoolContext> {
  context: C
  release(): Promise<void>
}

interface BrowserPoolStats {
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

/** One pool: its options, its slots, the contexts leased out and the browser process. */
interface PoolState<C extends PoolContext> {
  readonly options: BrowserPoolOptions<C>
  readonly launch: BrowserLauncher<C>
  readonly slots: BrowserSlots
  /** The contexts leased out and not yet released: closed with the pool. */
  readonly contexts: Set<C>
  /** The browser process, running or starting; null before the first lease and after a crash. */
  browser: Promise<PoolBrowser<C>> | null
}

/**
 * Creates the pool of rendered runs (docs/architecture.md "executor (rendered)"): one Chromium process
 * shared by every lease, launched lazily with the recorder's flags, and one fresh context per
 * lease so runs never share cookies. Slots beyond `capacity` queue first-in first-out.
 */
export function createBrowserPool<C extends PoolContext = BrowserContext>(
  options: BrowserPoolOptions<C>,
): BrowserPool<C> {
  const state: PoolState<C> = {
    options,
    launch: (options.launch ?? launchChromium) as BrowserLauncher<C>,
    slots: createSlots(
      options.capacity ?? DEFAULT_BROWSER_CAPACITY,
      options.waitMs ?? DEFAULT_BROWSER_WAIT_MS,
      options.clock ?? Date.now,
    ),
    contexts: new Set<C>(),
    browser: null,
  }
  return {
    acquire: (signal, acquireOptions) => acquireLease(state, signal, acquireOptions),
    stats: () => ({
      leased: state.slots.leased,
      waiting: state.slots.queue.length,
      running: state.browser !== null,
    }),
    close: () => closePool(state),
  }
}

/** The running browser, launching it when none runs or the last one crashed. */
function runningBrowser<C extends PoolContext>(state: PoolState<C>): Promise<PoolBrowser<C>> {
  if (state.browser) return state.browser
  const starting = state
    .launch({
      executablePath: state.options.chromiumPath(),
      headless: state.options.headless ?? true,
      args: chromiumArgs(),
    })
    .then((b) => {
      b.on('disconnected', () => {
        if (state.browser === starting) state.browser = null
      })
      return b
    })
  state.browser = starting
  // A failed launch must not stick: the next lease tries again.
  starting.catch(() => {
    if (state.browser === starting) state.browser = null
  })
  return starting
}

/** A fresh context in the running browser, launching a new one when it was disconnected. */
async function newContext<C extends PoolContext>(
  state: PoolState<C>,
  storageState: StorageState | null | undefined,
  proxy: GuardedProxySettings | null | undefined,
  httpCredentials: AcquireOptions['httpCredentials'],
): Promise<C> {
  let b = await runningBrowser(state)
  if (!b.isConnected()) {
    if (state.browser) state.browser = null
    b = await runningBrowser(state)
  }
  return b.newContext({
    ...(storageState ? { storageState } : {}),
    ...(proxy ? { proxy } : {}),
    ...(httpCredentials ? { httpCredentials } : {}),
  })
}

/**
 * `BrowserPool.acquire`: a slot, then a fresh context in it. The slot is freed again when the
 * context cannot be made, or when the pool closed or the signal aborted while it was made.
 */
async function acquireLease<C extends PoolContext>(
  state: PoolState<C>,
  signal: AbortSignal,
  { wait, storageState, proxy, httpCredentials }: AcquireOptions,
): Promise<BrowserLease<C>> {
  await takeSlot(state.slots, signal, wait)
  let context: C
  try {
    context = await newContext(state, storageState, proxy, httpCredentials)
  } catch (error) {
    freeSlot(state.slots)
    throw error
  }
  if (state.slots.closed || signal.aborted) {
    await context.close().catch(() => {})
    freeSlot(state.slots)
    throw state.slots.closed ? poolClosedError() : signal.reason
  }
  state.contexts.add(context)
  return leaseOf(state, context)
}

/** The lease of a context: releasing it closes the context and frees its slot, once. */
function leaseOf<C extends PoolContext>(state: PoolState<C>, context: C): BrowserLease<C> {
  let released = false
  return {
    context,
    async release() {
      if (released) return
      released = true
      state.contexts.delete(context)
      try {
        await context.close()
      } catch {
        // The browser may already be gone (crash, pool closed): the slot is freed anyway.
      } finally {
        freeSlot(state.slots)
      }
    },
  }
}

/** `BrowserPool.close`: refuses waiters, closes every context and the browser; safe twice. */
async function closePool<C extends PoolContext>(state: PoolState<C>): Promise<void> {
  if (state.slots.closed) return
  closeSlots(state.slots)
  const open = [...state.contexts]
  state.contexts.clear()
  await Promise.allSettled(open.map((c) => c.close()))
  const current = state.browser
  state.browser = null
  if (current) await current.then((b) => b.close()).catch(() => {})
}
