/** The cooldown a refused caller is told (interface.md "browser_capacity": retry after about 30 s). */
const BROWSER_RETRY_AFTER_S = 30

/**
 * All browser slots are taken (interface.md "Why a run failed": `browser_capacity`). `waited` tells the
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

/** What the pool refuses with once it is closed. */
export function poolClosedError(): Error {
  return new Error('The browser pool is closed.')
}

interface Waiter {
  grant(): void
  refuse(error: unknown): void
}

/**
 * The browser pool's slots: at most `capacity` leases out at once, the rest of the callers queued
 * first in, first out for up to `waitMs`. `closed` refuses every caller from then on.
 */
export interface BrowserSlots {
  readonly capacity: number
  /** How long a waiting caller queues, in ms. */
  readonly waitMs: number
  /** Milliseconds since the Unix epoch (how long a refused caller waited). */
  readonly clock: () => number
  readonly queue: Waiter[]
  leased: number
  closed: boolean
}

/** Slots for `capacity` leases (at least one), none out, nobody waiting. */
export function createSlots(capacity: number, waitMs: number, clock: () => number): BrowserSlots {
  return { capacity: Math.max(1, capacity), waitMs, clock, queue: [], leased: 0, closed: false }
}

/**
 * Takes a slot: at once when one is free; else refuses with a {@link BrowserCapacityError}
 * (`waited: false`) without `wait`, or queues (`queueForSlot`). Rejects with the signal's reason
 * when it is aborted, and with {@link poolClosedError} when the slots are closed.
 */
export function takeSlot(slots: BrowserSlots, signal: AbortSignal, wait: boolean): Promise<void> {
  if (slots.closed) return Promise.reject(poolClosedError())
  if (signal.aborted) return Promise.reject(signal.reason)
  if (slots.leased < slots.capacity) {
    slots.leased++
    return Promise.resolve()
  }
  if (!wait)
    return Promise.reject(
      new BrowserCapacityError(
        false,
        BROWSER_RETRY_AFTER_S,
        `All ${slots.capacity} browser slots are busy: retry after ${BROWSER_RETRY_AFTER_S} s.`,
      ),
    )
  return queueForSlot(slots, signal)
}

/**
 * Waits in the queue until `freeSlot` hands this caller a slot; refuses with a
 * {@link BrowserCapacityError} (`waited: true`) after `waitMs`, or with the signal's reason when
 * it is aborted, leaving the queue either way.
 */
function queueForSlot(slots: BrowserSlots, signal: AbortSignal): Promise<void> {
  const since = slots.clock()
  return new Promise<void>((resolve, reject) => {
    const leave = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', onAbort)
      const at = slots.queue.indexOf(waiter)
      if (at >= 0) slots.queue.splice(at, 1)
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
            `All ${slots.capacity} browser slots stayed busy for ${Math.round((slots.clock() - since) / 1000)} s: retry after ${BROWSER_RETRY_AFTER_S} s.`,
          ),
        ),
      slots.waitMs,
    )
    signal.addEventListener('abort', onAbort, { once: true })
    slots.queue.push(waiter)
  })
}

/** Gives a slot back: it passes to the oldest waiter, unless the slots are closed. */
export function freeSlot(slots: BrowserSlots): void {
  slots.leased--
  // The slot passes straight to the oldest waiter, so a newcomer cannot overtake the queue.
  const next = slots.queue[0]
  if (next && !slots.closed) {
    slots.leased++
    next.grant()
  }
}

/** Closes the slots: every waiter and every newcomer is refused with {@link poolClosedError}. */
export function closeSlots(slots: BrowserSlots): void {
  slots.closed = true
  for (const waiter of [...slots.queue]) waiter.refuse(poolClosedError())
}
