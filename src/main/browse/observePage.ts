import type { BrowserContext, Page } from 'playwright-core'
import type { StorageState, Trace } from '../../shared/trace'
import type { Recording, RecordingOptions } from '../recorder'
import { ServiceError } from '../../shared/errors'
import { sharedGuardProxy, type DestinationCheck } from '../engine/guardProxy'
import { watchRequests } from './networkQuiet'
import { findSearchBox, intentSearchValue, submitSearch } from './searchHeuristic'

/** How long each part of an unattended observation may take, ms. */
export interface ObserveLimits {
  /** The page load limit (interface.md "Limits": 30 s). */
  loadMs: number
  /** How long the page may keep its network busy after loading (and after a search), ms. */
  settleMs: number
  /** How long filling and submitting the search box may take, ms. */
  actionMs: number
}

const OBSERVE_LIMITS: ObserveLimits = { loadMs: 30_000, settleMs: 5_000, actionMs: 10_000 }

export interface ObserveInput {
  url: string
  intent: string
  traceId: string
  /** Echoed as the recording's session id (`idx_…`, `ixr_…`). */
  sessionId: string
  /** The workspace's saved login of the site, put in the browser before the page opens. */
  login: StorageState | null
  /** Aborting ends the observation early: what was recorded so far is kept. */
  signal?: AbortSignal
  /**
   * For a URL that came in through the API: the browser connects only where
   * this allows, on the address actually connected (redirects and subresources too), and any
   * refusal ends the observation with 403 `destination_denied`, keeping nothing.
   */
  guard?: DestinationCheck
}

export interface ObserveDeps {
  chromiumPath: () => string
  startRecording: (options: RecordingOptions) => Promise<Recording>
  clock: () => number
  limits?: Partial<ObserveLimits>
}

/** What one observation saw. */
export interface Observation {
  trace: Trace
  /** The page's address when the observation stopped. */
  finalUrl: string
  /** The page asked to sign in (a visible password or one-time-code field). */
  signIn: boolean
  /** What the search heuristic typed, and into which field; null when it typed nothing. */
  filled: { value: string; field: string | null } | null
  /** The page did not load: the browser's words; null when it loaded. */
  loadError: string | null
  /** The observation was cut short by its signal (`POST /v1/browser/stop`). */
  stopped: boolean
}

// Runs in the page: a visible password or one-time-code field means the site shows a sign-in
// form rather than what the intent is about.
const SIGN_IN_SCRIPT = `(() => [...document.querySelectorAll('input')].some((el) => {
  const wanted = el.type === 'password' || (el.getAttribute('autocomplete') || '').includes('one-time-code')
  if (!wanted) return false
  const r = el.getBoundingClientRect()
  return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden'
}))()`

/** Resolves when `work` settles or the signal aborts, whichever is first; never rejects. */
function untilAborted(work: Promise<unknown>, signal: AbortSignal | undefined): Promise<void> {
  const settled = work.then(
    () => undefined,
    () => undefined,
  )
  if (!signal) return settled
  if (signal.aborted) return Promise.resolve()
  return new Promise((resolve) => {
    const onAbort = () => resolve()
    signal.addEventListener('abort', onAbort, { once: true })
    void settled.then(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    })
  })
}

/**
 * Puts a saved login into a fresh context: its cookies (with Playwright's defaults for flags a
 * recording may leave out) and its localStorage, written by an init script on each of its origins.
 */
async function applyLogin(context: BrowserContext, login: StorageState): Promise<void> {
  if (login.cookies.length)
    await context.addCookies(
      login.cookies.map((c) => ({
        ...c,
        httpOnly: c.httpOnly ?? false,
        secure: c.secure ?? false,
        sameSite: c.sameSite ?? 'Lax',
      })),
    )
  if (login.origins.length)
    await context.addInitScript({
      content: `(() => { const saved = ${JSON.stringify(login.origins)}
  const mine = saved.find((o) => o.origin === location.origin)
  if (mine) for (const item of mine.localStorage) try { localStorage.setItem(item.name, item.value) } catch {}
})()`,
    })
}

async function settle(page: Page, ms: number, signal: AbortSignal | undefined): Promise<void> {
  await untilAborted(page.waitForLoadState('networkidle', { timeout: ms }), signal)
}

/**
 * Observes a page with nobody at the keyboard (`POST /v1/index`): launches headless
 * Chromium through the recorder, puts the workspace's saved login of the site in it, opens `url`
 * and lets it load and settle (network idle, at most `settleMs`). Then, unless the page asks to
 * sign in, the search heuristic acts like a person once: when the intent names a value
 * ({@link intentSearchValue}) and the page has one obvious search box ({@link findSearchBox}), it
 * types the value and submits, and the page settles again. Then the recording stops and its trace
 * (start URL `url`) is returned with what was seen. Bounded: load `loadMs`, each settle
 * `settleMs`, the search `actionMs`, the recorder's own stop at most ~15 s.
 *
 * The recording starts on `about:blank` so the saved login is in the browser before the first
 * request to the site.
 *
 * @throws ServiceError `chromium_not_found` (from `chromiumPath`) or `recording_failed` (Chromium
 *   could not start). A page that does not load is not thrown: `loadError` says why.
 */
export async function observePage(deps: ObserveDeps, input: ObserveInput): Promise<Observation> {
  const limits = { ...OBSERVE_LIMITS, ...deps.limits }
  const { signal } = input
  const refusals: string[] = []
  const guarded = input.guard
    ? (await sharedGuardProxy()).settingsFor(input.guard, (_host, reason) => refusals.push(reason))
    : null
  const recording = await deps
    .startRecording({
      ...(guarded ? { proxy: guarded.proxy } : {}),
      chromiumPath: deps.chromiumPath(),
      url: 'about:blank',
      intent: input.intent,
      traceId: input.traceId,
      sessionId: input.sessionId,
      clock: deps.clock,
      headless: true,
      navigationTimeoutMs: limits.loadMs,
    })
    .catch((error: unknown) => {
      guarded?.release()
      throw error
    })
  const { page } = recording
  let loadError: string | null = null
  let signIn = false
  let filled: Observation['filled'] = null
  try {
    if (input.login) await applyLogin(recording.context, input.login)
    await untilAborted(
      page
        .goto(input.url, { waitUntil: 'domcontentloaded', timeout: limits.loadMs })
        .then((loaded) => {
          // The guard proxy's own answer when the site could not be reached (proxy-chain 59x).
          if (guarded && loaded && loaded.status() >= 590 && loaded.status() <= 599)
            loadError = `${loaded.status()} ${loaded.statusText()} (the site could not be reached)`
        })
        .catch((e) => {
          loadError = e instanceof Error ? e.message.split('\n')[0]! : String(e)
        }),
      signal,
    )
    if (!loadError && !signal?.aborted) {
      await settle(page, limits.settleMs, signal)
      signIn = signal?.aborted
        ? false
        : await page.evaluate(SIGN_IN_SCRIPT).then(Boolean, () => false)
      const value = signIn ? null : intentSearchValue(input.intent)
      const box = value && !signal?.aborted ? await findSearchBox(page) : null
      if (value && box) {
        const requests = watchRequests(page)
        try {
          await untilAborted(submitSearch(page, box, value, limits.actionMs), signal)
          filled = { value, field: box.field }
          if (!signal?.aborted) await requests.quiet(limits.settleMs, signal)
        } finally {
          requests.stop()
        }
      }
    }
  } catch (error) {
    // Its browser must not outlive the call.
    await recording.stop()
    guarded?.release()
    throw error
  }
  const finalUrl = page.isClosed() ? input.url : page.url()
  const trace = await recording.stop()
  guarded?.release()
  if (refusals.length) throw new ServiceError('destination_denied', refusals[0]!)
  trace.startUrl = input.url
  return { trace, finalUrl, signIn, filled, loadError, stopped: signal?.aborted ?? false }
}
