import type { Page } from 'playwright-core'
import type { CompileExplanation } from '../../shared/appApi'
import { httpUrl } from '../../shared/urls'
import { isServiceError, ServiceError } from '../../shared/errors'
import type { ToolSpec } from '../../shared/toolSpec'
import { compileTrace } from '../compiler'
import type { Recording } from '../recorder'
import type { Store } from '../store/store'
import { checkActInput, performAction, type BrowseActInput } from './browseAction'
import { siteStorageState } from '../logins/siteLogin'
import type { SessionBrowserDeps } from './sessionBrowser'
import { sharedGuardProxy, type GuardedProxySettings } from '../engine/guardProxy'
import {
  endKeeping,
  endSession,
  expired,
  PAGE_GONE,
  snapSession,
  sweepIdle,
  trackSession,
  useSession,
  type BrowseBook,
  type BrowseLimits,
  type ConnectedAddressGuard,
  type Session,
  type Snapshot,
} from './browseSession'

export { BROWSE_ACTIONS, type BrowseActInput } from './browseAction'
export {
  checkSessionId,
  type BrowseLimits,
  type ConnectedAddressGuard,
  type Snapshot,
} from './browseSession'

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

/** interface.md "Limits": 3 sessions per workspace, 2 minutes idle, 30 s page load, 15 s snapshot. */
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

/** The sessions of one `createBrowseSessions` and its deps. */
interface BrowseContext extends BrowseBook {
  deps: BrowseSessionsDeps
}

/** `url` as a full http(s) address; 400 `invalid_argument` otherwise. */
function checkUrl(url: unknown): string {
  const parsed = httpUrl(url)
  if (!parsed)
    throw new ServiceError(
      'invalid_argument',
      'url must be a full http or https address, like https://example.com/.',
    )
  return parsed.href
}

/** The trimmed intent, or null when none was given; 400 `invalid_argument` for a non-string. */
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
  const ctx: BrowseContext = {
    deps,
    limits: { ...BROWSE_LIMITS, ...deps.limits },
    clock: deps.clock,
    store: deps.store,
    sessions: new Map(),
    opening: new Map(),
    endings: new Set(),
    sweeper: null,
  }
  const use = <T>(tenant: string, sessionId: unknown, work: (s: Session) => Promise<T>) =>
    useSession(ctx, tenant, sessionId, work)
  return {
    open: (tenant, input) => openSession(ctx, tenant, input),
    snapshot: (tenant, sessionId) => use(tenant, sessionId, (s) => snapSession(ctx, s)),
    act: (tenant, sessionId, input) => use(tenant, sessionId, (s) => actIn(ctx, s, input)),
    finish(tenant, sessionId, input) {
      const given = checkIntent(input?.intent)
      return use(tenant, sessionId, (s) => finishSession(ctx, s, tenant, given))
    },
    close: (tenant, sessionId) =>
      use(tenant, sessionId, async (s) => {
        await endSession(ctx, s)
      }),
    autofill: (tenant, sessionId) =>
      use(tenant, sessionId, async (s) => {
        if (!deps.autofill)
          throw new ServiceError('unavailable', 'Autofill needs the vault of site logins.')
        await deps.autofill(s.tenant, s.page)
        return snapSession(ctx, s)
      }),
    async endWorkspace(tenant, { keep }) {
      const mine = [...ctx.sessions.values()].filter((s) => s.tenant === tenant && !s.ended)
      await Promise.allSettled(mine.map((s) => (keep ? endKeeping(ctx, s) : endSession(ctx, s))))
      return mine.length
    },
    async closeAll() {
      if (ctx.sweeper) clearInterval(ctx.sweeper)
      ctx.sweeper = null
      for (const s of [...ctx.sessions.values()]) void endKeeping(ctx, s)
      await Promise.allSettled([...ctx.endings])
    },
  }
}

/**
 * Starts the session's recording at `url` through `proxy`; a first navigation that failed is
 * 504 `site_unreachable` (the site's fault), a failed launch keeps its own error.
 */
async function openRecording(
  ctx: BrowseContext,
  url: string,
  intent: string | null,
  sessionId: string,
  proxy: GuardedProxySettings | null,
): Promise<Recording> {
  const { deps, limits } = ctx
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

/**
 * `BrowseSessions.open`: checks the input and the workspace's session limit, records the page
 * (through the caller's guard, if any), then answers its first snapshot once its network
 * settled. A session whose first snapshot fails ends at once, its trace kept.
 */
async function openSession(
  ctx: BrowseContext,
  tenant: string,
  input: { url: string; intent?: string; guard?: ConnectedAddressGuard },
): Promise<Snapshot> {
  const { deps, limits, sessions, opening } = ctx
  const url = checkUrl(input?.url)
  const intent = checkIntent(input?.intent)
  if (intent) await deps.refuseSecretValues?.(intent, tenant)
  sweepIdle(ctx, tenant)
  const count =
    [...sessions.values()].filter((s) => s.tenant === tenant).length + (opening.get(tenant) ?? 0)
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
    recording = await openRecording(ctx, url, intent, id, guarded?.proxy ?? null)
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
  trackSession(ctx, s)
  if (guarded) {
    for (const reason of refusals) s.checks.push(Promise.resolve(reason))
    refused = (reason) => void s.checks.push(Promise.resolve(reason))
    const detach = s.detach
    s.detach = () => {
      detach()
      guarded.release()
    }
  }
  if (!ctx.sweeper) {
    ctx.sweeper = setInterval(() => sweepIdle(ctx), limits.sweepMs)
    ctx.sweeper.unref()
  }
  try {
    // The page answered; let its scripts and first data requests finish before the snapshot.
    await recording.page
      .waitForLoadState('networkidle', { timeout: limits.settleMs })
      .catch(() => undefined)
    return await snapSession(ctx, s)
  } catch (error) {
    // The caller never learns this session's id: do not leave it holding a slot.
    await endKeeping(ctx, s)
    if (!isServiceError(error) && PAGE_GONE.test(String(error))) throw expired(id)
    throw error
  } finally {
    s.busy--
    s.lastUsedAt = deps.clock()
  }
}

/** `BrowseSessions.act` on a session: performs the action by a ref of the latest snapshot. */
async function actIn(ctx: BrowseContext, s: Session, input: BrowseActInput): Promise<Snapshot> {
  const act = checkActInput(input ?? ({} as BrowseActInput), s.page.url())
  if (act.action !== 'navigate' && !s.refs.has(act.ref))
    throw new ServiceError(
      'stale_ref',
      `${act.ref} is not in the latest snapshot: take a new snapshot.`,
      { ref: act.ref },
    )
  try {
    await performAction(s.page, act, ctx.limits, s.id)
  } catch (error) {
    // A request the guard refused fails in the page: that refusal is the answer (snap
    // ends the session with destination_denied); else the action's own error stands.
    if (s.guard && (await Promise.all(s.checks)).some((v) => v !== null)) return snapSession(ctx, s)
    throw error
  }
  return snapSession(ctx, s)
}

/**
 * `BrowseSessions.finish` on a session: ends it, keeps its trace with the intent, compiles it and
 * saves the candidate tool (and the login it was recorded with, when it is bound to one).
 */
async function finishSession(
  ctx: BrowseContext,
  s: Session,
  tenant: string,
  given: string | null,
): Promise<BrowseFinishResult> {
  const { deps } = ctx
  // Refused before the session ends, so the caller can finish again with a clean intent.
  if (given) await deps.refuseSecretValues?.(given, tenant)
  const trace = await endSession(ctx, s)
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
}
