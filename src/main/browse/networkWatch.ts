import type { BrowserContext, Request } from 'playwright-core'

/** A request of an action's result that got no answer. */
interface FailedRequest {
  method: string
  url: string
  resourceType: string
  /** Chromium's error text, e.g. `net::ERR_EMPTY_RESPONSE`. */
  failure: string
}

/** Watches the requests a browse action causes; see {@link watchNetwork}. */
export interface NetworkWatch {
  /**
   * Resolves once no watched request has been in flight for `quietMs` (counted from the call at
   * the earliest), or after `maxMs` at the latest (long polls and streams never go quiet). Real time: the session's clock may be fake.
   */
  settle(maxMs: number, quietMs?: number): Promise<void>
  /** Requests that carried the action's result (documents, fetch, XHR) and failed. */
  failures(): FailedRequest[]
  stop(): void
}

/** Requests that never end by design (streams) or that nobody waits on (beacons). */
const NOT_AWAITED = new Set(['websocket', 'eventsource', 'ping', 'manifest'])
/** The requests whose failure means the action's result did not load (interface.md "Browse sessions"). */
const RESULT_TYPES = new Set(['document', 'xhr', 'fetch'])
const DEFAULT_QUIET_MS = 500
const POLL_MS = 50

/**
 * Starts watching the requests of `context` from now on: the ones in flight, for settling after
 * an action, and the failed ones, for `browser_network_failed`. A request the page itself
 * aborted (`net::ERR_ABORTED`: a navigation replaced it, or the page cancelled it) is no failure.
 */
export function watchNetwork(context: BrowserContext): NetworkWatch {
  const inflight = new Set<Request>()
  const failed: FailedRequest[] = []
  let lastChange = performance.now()
  const onRequest = (request: Request): void => {
    if (NOT_AWAITED.has(request.resourceType())) return
    inflight.add(request)
    lastChange = performance.now()
  }
  const onFinished = (request: Request): void => {
    if (inflight.delete(request)) lastChange = performance.now()
  }
  const onFailed = (request: Request): void => {
    if (!inflight.delete(request)) return
    lastChange = performance.now()
    const failure = request.failure()?.errorText ?? 'failed'
    if (!RESULT_TYPES.has(request.resourceType()) || /ERR_ABORTED/.test(failure)) return
    failed.push({
      method: request.method(),
      url: request.url(),
      resourceType: request.resourceType(),
      failure,
    })
  }
  context.on('request', onRequest)
  context.on('requestfinished', onFinished)
  context.on('requestfailed', onFailed)
  return {
    async settle(maxMs, quietMs = DEFAULT_QUIET_MS) {
      // Quiet counts from the call at the earliest: an action that took longer than `quietMs`
      // (a loaded machine) must still leave its result a moment to start a request or a timer.
      lastChange = Math.max(lastChange, performance.now())
      const deadline = performance.now() + maxMs
      while (performance.now() < deadline) {
        if (inflight.size === 0 && performance.now() - lastChange >= quietMs) return
        await new Promise((resolve) => setTimeout(resolve, POLL_MS))
      }
    },
    failures: () => [...failed],
    stop() {
      context.off('request', onRequest)
      context.off('requestfinished', onFinished)
      context.off('requestfailed', onFailed)
    },
  }
}
