import type { Page, Request } from 'playwright-core'

/** How long without a request in flight counts as quiet: Playwright's `networkidle` rule. */
const QUIET_MS = 500

/** A watch of a page's requests from now on; {@link watchRequests}. */
export interface RequestWatch {
  /**
   * Resolves once no request of the page has been in flight for {@link QUIET_MS} (counted from
   * the call at the earliest), or after
   * `ms` milliseconds, or when `signal` aborts; never rejects.
   */
  quiet(ms: number, signal?: AbortSignal): Promise<void>
  /** Stops watching (the page's listeners are removed). */
  stop(): void
}

/**
 * Starts counting the requests a page makes from now on, so a later wait sees the search a typed
 * box or a submitted form starts. `page.waitForLoadState('networkidle')` cannot: it resolves at
 * once when the page reached that state before (no navigation happened since), which let the
 * observation stop before the search's answer arrived on a loaded machine.
 */
export function watchRequests(page: Page): RequestWatch {
  const inFlight = new Set<Request>()
  let changed = Date.now()
  const started = (r: Request) => {
    inFlight.add(r)
    changed = Date.now()
  }
  const ended = (r: Request) => {
    if (inFlight.delete(r)) changed = Date.now()
  }
  page.on('request', started)
  page.on('requestfinished', ended)
  page.on('requestfailed', ended)
  return {
    async quiet(ms, signal) {
      // At least QUIET_MS from now: a search may start a moment after the key or click.
      changed = Math.max(changed, Date.now())
      const end = Date.now() + ms
      while (Date.now() < end && !signal?.aborted && !page.isClosed()) {
        if (inFlight.size === 0 && Date.now() - changed >= QUIET_MS) return
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    },
    stop() {
      page.off('request', started)
      page.off('requestfinished', ended)
      page.off('requestfailed', ended)
    },
  }
}
