import type { Page } from 'playwright-core'
import { isIP } from 'node:net'
import type { CompileExplanation } from '../../shared/appApi'
import { httpUrl } from '../../shared/urls'
import { isServiceError, ServiceError } from '../../shared/errors'
import type { ToolSpec } from '../../shared/toolSpec'
import type { Trace } from '../../shared/trace'
import { compileTrace } from '../compiler'
import type { Recording } from '../recorder'
import type { Store } from '../store/store'
import { checkActInput, performAction, type BrowseActInput } from './browseAction'
import { takeSnapshot } from './pageSnapshot'
import { siteStorageState } from '../logins/siteLogin'
import type { SessionBrowserDeps } from './sessionBrowser'
import { sharedGuardProxy, type GuardedProxySettings } from '../engine/guardProxy'

export { BROWSE_ACTIONS, type BrowseActInput } from './browseAction'

/** What `open`, `snapshot` and `act` return: the page's accessibility snapshot with its refs. */
export interface Snapshot {
  sessionId: string
  url: string
  title: string
  /**
   * One line per shown element, `- role "name" [attrs] [ref=eN]: value`, indented two spaces per
   * nesting level, like Playwright MCP's aria snapshot; links carry a `- /url:` line.
   */
  text: string
  /** The refs of this snapshot, `e1…eN` in document order; `act` takes only these. */
  refs: string[]
}

/** What `finish` returns: the routing result of the session's trace. */
interface BrowseFinishResult {
  traceId: string
  status: 'candidate' | 'unavailable'
  candidate: ToolSpec | null
  explanation: CompileExplanation | null
}

/** Browse sessions of the MCP tools `service_browse_open`, `snapshot`, `act`, `finish`, `close`. */
export interface BrowseSessions {
  /**
   * Opens a page. `guard` (for URLs that came in through the API) judges each
   * connection the browser makes, on the address it connects to, through the guard proxy (a
   * refused one is never made): once one is refused, the next snapshot ends the session without
   * keeping its trace and throws 403 `destination_denied`.
   */
  open(
    tenant: string,
    input: { url: string; intent?: string; guard?: ConnectedAddressGuard },
  ): Promise<Snapshot>
  snapshot(tenant: string, sessionId: string): Promise<Snapshot>
  act(tenant: string, sessionId: string, input: BrowseActInput): Promise<Snapshot>
  /** Ends the session, keeps its trace and compiles it: the routing result. */
  finish(tenant: string, sessionId: string, input: { intent?: string }): Promise<BrowseFinishResult>
  close(tenant: string, sessionId: string): Promise<void>
  /** Fills and submits the page's login form from the site's saved login; the new snapshot. */
  autofill(tenant: string, sessionId: string): Promise<Snapshot>
  /**
   * Ends every open session of a workspace (`POST /v1/browser/stop`, `DELETE /v1/browser`):
   * `keep` saves each trace uncompiled like an idle session, else it is dropped like `close`.
   * Their next use is `session_expired`. Returns how many ended.
   */
  endWorkspace(tenant: string, options: { keep: boolean }): Promise<number>
  closeAll(): Promise<void>
}

/** Why a response from `url`, served from the IP `address`, may not be used; or null. */
export type ConnectedAddressGuard = (url: string, address: string) => string | null

/** The time and count limits of browse sessions; defaults from interface.md "Limits". */
export interface BrowseLimits {
  /** Open browse sessions per workspace. */
  maxOpen: number
  /** A session idle for more than this many ms has ended. */
  idleMs: number
  /** Page load limit of `open` and `navigate`, ms. */
  loadMs: number
  /** Snapshot limit, ms. */
  snapshotMs: number
  /** How long an action waits for its element to be actionable, ms (not in docs/interface.md). */
  actionMs: number
  /** How long an action's network may take to settle before the snapshot, ms (not in docs/interface.md). */
  settleMs: number
  /** How often idle sessions are swept (they are also checked on every call), ms. */
  sweepMs: number
}

/** Spec "Limits": 3 sessions per workspace, 2 minutes idle, 30 s page load, 15 s snapshot. */
const BROWSE_LIMITS: BrowseLimits = {
  maxOpen: 3,
  idleMs: 2 * 60_000,
  loadMs: 30_000,
  snapshotMs: 15_000,
  actionMs: 10_000,
  settleMs: 5_000,
  sweepMs: 15_000,
}

/** Its clock drives the idle rule. */
export interface BrowseSessionsDeps extends SessionBrowserDeps {
  /** Traces and tools are kept in the session's workspace (`tracesFor`/`toolsFor`). */
  store: Pick<Store, 'tracesFor' | 'toolsFor' | 'logins'>
  /** Default true: an agent's browser needs no window. */
  headless?: boolean
  limits?: Partial<BrowseLimits>
  /**
   * Fills the page's login form from the saved login: 412
   * `credential_required` with a one-time `url`, 422 `no_login_form`. Absent: 503.
   */
  autofill?: (tenant: string, page: Page) => Promise<void>
}

/** `bs_` and a ULID (26 Crockford base-32 characters), exactly as `open` issues it. */
const SESSION_ID = /^bs_[0-9A-HJKMNP-TV-Z]{26}$/
const PAGE_GONE = /has been closed|Target closed|Browser closed|browser has disconnected/i

/**
 * Checks the form of a `sessionId` argument (interface.md "C", MCP tools: the browser calls require the
 * exact `sessionId` that `service_browse_open` returned).
 *
 * @throws ServiceError `invalid_argument` (400) when it is missing, blank, not a string, or not of
 *   the `bs_<ulid>` form. A well-formed id that this process never issued is not refused here:
 *   the session lookup answers `session_expired` for it (it may predate a restart).
 */
export function checkSessionId(sessionId: unknown): string {
  if (typeof sessionId !== 'string' || sessionId.trim() === '')
    throw new ServiceError(
      'invalid_argument',
      'sessionId is required: pass the exact sessionId that service_browse_open returned.',
    )
  if (!SESSION_ID.test(sessionId))
    throw new ServiceError(
      'invalid_argument',
      `"${sessionId.slice(0, 60)}" is not a browse sessionId: pass the exact sessionId that ` +
        'service_browse_open returned (bs_…).',
    )
  return sessionId
}

interface Session {
  id: string
  tenant: string
  intent: string
  recording: Recording
  /** The page actions go to: the newest open page of the context (popups take over). */
  page: Page
  /** Refs of the latest snapshot. */
  refs: Set<string>
  lastUsedAt: number
  /** Calls running or queued: a busy session is never idle. */
  busy: number
  /** Calls of one session run one after another. */
  queue: Promise<unknown>
  ended: boolean
  detach(): void
  /** Verdicts of the guard on responses since the last snapshot (null: allowed). */
  checks: Array<Promise<string | null>>
  guard: ConnectedAddressGuard | null
}

function expired(sessionId: string): ServiceError {
  return new ServiceError(
    'session_expired',
    'This browse session has ended (idle over 2 minutes, finished, closed, or the app ' +
      'restarted). Open a new one with service_browse_open.',
    { sessionId },
  )
}

function checkUrl(url: unknown): string {
  const parsed = httpUrl(url)
  if (!parsed)
    throw new ServiceError(
      'invalid_argument',
      'url must be a full http or https address, like https://example.com/.',
    )
  return parsed.href
}

function checkIntent(intent: unknown): string | null {
  if (intent === undefined || intent === null) return null
  if (typeof intent !== 'string')
    throw new ServiceError('invalid_argument', 'intent must be a string.')
  return intent.trim() || null
}

/**
 * Browse sessions (interface.md "Browse sessions", "Other time-bound states",
 * "Limits"): an agent drives a page of the local headless Chromium by snapshot refs while the
 * recorder captures every exchange and the actions as a person's, and `finish` learns a
 * candidate tool from that trace.
 *
 * Rules chosen where docs/interface.md says nothing:
 * - A session of another workspace answers `session_expired` (410), exactly like an unknown one,
 *   so an id reveals nothing about other workspaces.
 * - `close` drops what the session recorded: the caller chose not to learn from it. A session
 *   that ends otherwise (idle, browser gone, app shut down) keeps its trace uncompiled in the
 *   store (spec: "what it recorded is kept"), where the person can still compile it.
 * - `navigate` ignores `ref` and opens `value` (relative URLs against the current page).
 *
 * Errors: `invalid_argument` 400 (sessionId form, url, action input), `invalid_input` 422 (an
 * intent that holds a stored secret's value), `too_many_sessions` 429,
 * `session_expired` 410, `stale_ref` 409, `browser_network_failed` 502, `site_unreachable` and
 * `page_unresponsive` 504, `chromium_not_found` 503 (see `requireChromium`).
 */
export function createBrowseSessions(deps: BrowseSessionsDeps): BrowseSessions {
  const limits: BrowseLimits = { ...BROWSE_LIMITS, ...deps.limits }
  const sessions = new Map<string, Session>()
  const opening = new Map<string, number>()
  const endings = new Set<Promise<void>>()
  let sweeper: NodeJS.Timeout | null = null

  const isIdle = (s: Session) => s.busy === 0 && deps.clock() - s.lastUsedAt > limits.idleMs

  /** Ends a session once: stops its recording and returns the trace. */
  const end = async (s: Session): Promise<Trace> => {
    s.ended = true
    sessions.delete(s.id)
    s.detach()
    if (sessions.size === 0 && sweeper) {
      clearInterval(sweeper)
      sweeper = null
    }
    return s.recording.stop()
  }

  /** Ends a session whose caller is gone (idle, shutdown); its trace is kept uncompiled. */
  const endKeeping = (s: Session): Promise<void> => {
    const ending = end(s)
      .then((trace) => deps.store.tracesFor(s.tenant).save(trace))
      .catch(() => undefined)
    endings.add(ending)
    void ending.finally(() => endings.delete(ending))
    return ending
  }

  const sweep = (tenant?: string) => {
    for (const s of [...sessions.values()])
      if ((tenant === undefined || s.tenant === tenant) && isIdle(s)) void endKeeping(s)
  }

  const lookup = (tenant: string, sessionId: unknown): Session => {
    const id = checkSessionId(sessionId)
    const s = sessions.get(id)
    if (!s || s.tenant !== tenant || s.ended) throw expired(id)
    if (isIdle(s)) {
      void endKeeping(s)
      throw expired(id)
    }
    return s
  }

  /** Runs `work` on the session after its earlier calls; the session is busy meanwhile. */
  const use = async <T>(
    tenant: string,
    sessionId: unknown,
    work: (s: Session) => Promise<T>,
  ): Promise<T> => {
    const s = lookup(tenant, sessionId)
    s.busy++
    const result = s.queue.then(() => {
      if (s.ended) throw expired(s.id)
      return work(s)
    })
    s.queue = result.catch(() => undefined)
    try {
      return await result
    } catch (error) {
      // The browser or its last page went away under the call: the session is over.
      if (!isServiceError(error) && PAGE_GONE.test(String(error))) {
        if (!s.ended) void endKeeping(s)
        throw expired(s.id)
      }
      throw error
    } finally {
      s.busy--
      s.lastUsedAt = deps.clock()
    }
  }

  const snap = async (s: Session): Promise<Snapshot> => {
    // The first navigation ran before any listener: a page now at an IP literal is judged here.
    const here = URL.canParse(s.page.url()) ? new URL(s.page.url()) : null
    const literal = here?.hostname.replace(/^\[|\]$/g, '') ?? ''
    if (s.guard && here && isIP(literal))
      s.checks.push(Promise.resolve(s.guard(here.href, literal)))
    const verdicts = await Promise.all(s.checks.splice(0))
    const denied = verdicts.find((v) => v !== null)
    if (denied) {
      // The page came from where this caller may not reach: nothing of it is shown or kept.
      s.ended = true
      sessions.delete(s.id)
      s.detach()
      await end(s).catch(() => undefined)
      throw new ServiceError('destination_denied', denied, { sessionId: s.id })
    }
    const page = await takeSnapshot(s.page, limits.snapshotMs)
    s.refs = new Set(page.refs)
    return { sessionId: s.id, ...page }
  }

  const openRecording = async (
    url: string,
    intent: string | null,
    sessionId: string,
    proxy: GuardedProxySettings | null,
  ) => {
    try {
      return await deps.startRecording({
        ...(proxy ? { proxy } : {}),
        chromiumPath: deps.chromiumPath(),
        url,
        intent: intent ?? '',
        traceId: `trc_${deps.ulid()}`,
        sessionId,
        clock: deps.clock,
        headless: deps.headless ?? true,
        navigationTimeoutMs: limits.loadMs,
      })
    } catch (error) {
      // startRecording words a failed first navigation "Could not open …"; a failed launch
      // "Could not launch …": only the first is the site's fault.
      if (
        isServiceError(error) &&
        error.code === 'recording_failed' &&
        /^Could not open/.test(error.message)
      )
        throw new ServiceError(
          'site_unreachable',
          `${url} did not load within ${limits.loadMs / 1000} s: ${error.message.split(': ').slice(1).join(': ').split('\n')[0]}`,
          { url },
        )
      throw error
    }
  }

  const track = (s: Session) => {
    const context = s.recording.context
    const onPage = (page: Page) => {
      s.page = page
      page.once('close', () => {
        if (s.page !== page) return
        const open = context.pages().filter((p) => !p.isClosed())
        if (open.length) s.page = open[open.length - 1]!
      })
    }
    context.on('page', onPage)
    s.detach = () => context.off('page', onPage)
    // The browser went away by itself (crash, last page closed): the session ends, trace kept.
    void s.recording.done.then((trace) => {
      if (s.ended) return
      s.ended = true
      sessions.delete(s.id)
      s.detach()
      try {
        deps.store.tracesFor(s.tenant).save(trace)
      } catch {
        // The store is closing with the app: nothing left to keep it in.
      }
    })
  }

  return {
    async open(tenant, input) {
      const url = checkUrl(input?.url)
      const intent = checkIntent(input?.intent)
      if (intent) await deps.refuseSecretValues?.(intent, tenant)
      sweep(tenant)
      const count =
        [...sessions.values()].filter((s) => s.tenant === tenant).length +
        (opening.get(tenant) ?? 0)
      if (count >= limits.maxOpen)
        throw new ServiceError(
          'too_many_sessions',
          `This workspace has ${limits.maxOpen} browse sessions open: finish or close one first.`,
          { limit: limits.maxOpen },
        )
      const id = `bs_${deps.ulid()}`
      opening.set(tenant, (opening.get(tenant) ?? 0) + 1)
      // An API caller's browser connects only where its guard allows, checked on the address
      // actually connected (redirects and subresources too): refusals end it at the next
      // snapshot, like a response from such an address.
      const refusals: string[] = []
      let refused = (reason: string) => void refusals.push(reason)
      const guarded = input.guard
        ? (await sharedGuardProxy()).settingsFor(input.guard, (_host, reason) => refused(reason))
        : null
      let recording: Recording
      try {
        recording = await openRecording(url, intent, id, guarded?.proxy ?? null)
      } catch (error) {
        guarded?.release()
        throw error
      } finally {
        opening.set(tenant, (opening.get(tenant) ?? 1) - 1)
      }
      const s: Session = {
        id,
        tenant,
        intent: intent ?? '',
        recording,
        page: recording.page,
        refs: new Set(),
        lastUsedAt: deps.clock(),
        busy: 1,
        queue: Promise.resolve(),
        ended: false,
        detach: () => undefined,
        checks: [],
        guard: input.guard ?? null,
      }
      sessions.set(id, s)
      track(s)
      if (guarded) {
        for (const reason of refusals) s.checks.push(Promise.resolve(reason))
        refused = (reason) => void s.checks.push(Promise.resolve(reason))
        const detach = s.detach
        s.detach = () => {
          detach()
          guarded.release()
        }
      }
      if (!sweeper) {
        sweeper = setInterval(() => sweep(), limits.sweepMs)
        sweeper.unref()
      }
      try {
        // The page answered; let its scripts and first data requests finish before the snapshot.
        await recording.page
          .waitForLoadState('networkidle', { timeout: limits.settleMs })
          .catch(() => undefined)
        return await snap(s)
      } catch (error) {
        // The caller never learns this session's id: do not leave it holding a slot.
        await endKeeping(s)
        if (!isServiceError(error) && PAGE_GONE.test(String(error))) throw expired(id)
        throw error
      } finally {
        s.busy--
        s.lastUsedAt = deps.clock()
      }
    },

    snapshot: (tenant, sessionId) => use(tenant, sessionId, snap),

    act: (tenant, sessionId, input) =>
      use(tenant, sessionId, async (s) => {
        const act = checkActInput(input ?? ({} as BrowseActInput), s.page.url())
        if (act.action !== 'navigate' && !s.refs.has(act.ref))
          throw new ServiceError(
            'stale_ref',
            `${act.ref} is not in the latest snapshot: take a new snapshot.`,
            { ref: act.ref },
          )
        try {
          await performAction(s.page, act, limits, s.id)
        } catch (error) {
          // A request the guard refused fails in the page: that refusal is the answer (snap
          // ends the session with destination_denied); else the action's own error stands.
          if (s.guard && (await Promise.all(s.checks)).some((v) => v !== null)) return snap(s)
          throw error
        }
        return snap(s)
      }),

    finish(tenant, sessionId, input) {
      const given = checkIntent(input?.intent)
      return use<BrowseFinishResult>(tenant, sessionId, async (s) => {
        // Refused before the session ends, so the caller can finish again with a clean intent.
        if (given) await deps.refuseSecretValues?.(given, tenant)
        const trace = await end(s)
        const intent = given ?? s.intent
        trace.intent = intent
        deps.store.tracesFor(s.tenant).save(trace)
        const compiled = compileTrace(trace, { toolId: deps.uuid(), now: deps.clock(), intent })
        if (!compiled.ok)
          return {
            traceId: trace.id,
            status: 'unavailable',
            candidate: null,
            explanation: compiled.explanation,
          }
        const { siteHost } = compiled.candidate
        const tools = deps.store.toolsFor(s.tenant)
        const name = tools.uniqueName(siteHost, compiled.candidate.name)
        const candidate = { ...compiled.candidate, name, capabilityId: `${siteHost}/${name}` }
        tools.save(candidate)
        // Signed in while browsing: a tool bound to a login runs with that session.
        const login = candidate.login ? siteStorageState(trace.storageState, siteHost) : null
        if (login) await deps.saveLogin?.(s.tenant, siteHost, login).catch(() => undefined)
        return { traceId: trace.id, status: 'candidate', candidate, explanation: null }
      })
    },

    close: (tenant, sessionId) =>
      use(tenant, sessionId, async (s) => {
        await end(s)
      }),

    autofill: (tenant, sessionId) =>
      use(tenant, sessionId, async (s) => {
        if (!deps.autofill)
          throw new ServiceError('unavailable', 'Autofill needs the vault of site logins.')
        await deps.autofill(s.tenant, s.page)
        return snap(s)
      }),

    async endWorkspace(tenant, { keep }) {
      const mine = [...sessions.values()].filter((s) => s.tenant === tenant && !s.ended)
      await Promise.allSettled(mine.map((s) => (keep ? endKeeping(s) : end(s))))
      return mine.length
    },

    async closeAll() {
      if (sweeper) clearInterval(sweeper)
      sweeper = null
      for (const s of [...sessions.values()]) void endKeeping(s)
      await Promise.allSettled([...endings])
    },
  }
}
