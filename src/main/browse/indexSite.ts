import type { CompileExplanation } from '../../shared/appApi'
import { isServiceError } from '../../shared/errors'
import type { ToolSpec } from '../../shared/toolSpec'
import type { StorageState } from '../../shared/trace'
import { compileTrace } from '../compiler'
import type { Store } from '../store/store'
import { observePage, type ObserveDeps, type Observation } from './observePage'
import type { DestinationCheck } from '../engine/guardProxy'
import { siteStorageState } from '../logins/siteLogin'

/**
 * Why an indexing ended without a candidate: the page asked to sign in, did not load, the
 * browser failed, it was stopped before it saw anything useful, or nothing observed carried the
 * intent's evidence.
 */
type IndexReason =
  'sign_in_required' | 'site_unreachable' | 'browser_failed' | 'stopped' | 'no_evidence'

/** What one indexing produced (the `routing` of interface.md "B" `POST /v1/index`). */
export interface IndexOutcome {
  /** The private trace the observation was recorded into (`trc_…`), kept in the store. */
  traceId: string
  status: 'candidate' | 'unavailable'
  /** The saved candidate (status `candidate`); its first execution verifies it. */
  candidate: ToolSpec | null
  explanation: CompileExplanation | null
  reason: IndexReason | null
  /** Human text for `reason`, with the next step. */
  message: string | null
  /** With `sign_in_required`: the sign-in page to open and save the login from. */
  signIn: { url: string } | null
  /** What the unattended browser did: where it ended, what it typed, how much it saw. */
  observed: {
    url: string
    finalUrl: string
    filled: Observation['filled']
    exchanges: number
    stopped: boolean
    usedSavedLogin: boolean
  }
}

/**
 * The workspace's saved logins as indexing uses them: a port, so the storage (the store today, the
 * vault's sealed logins tomorrow) is the composition root's choice.
 */
interface IndexLogins {
  /** The saved storage state of a site, or null when none is saved (or it cannot be read now). */
  load(tenant: string, siteHost: string): Promise<StorageState | null>
  save(tenant: string, siteHost: string, state: StorageState): Promise<void>
}

export interface IndexSiteDeps extends ObserveDeps {
  /** The trace and the candidate are kept in the caller's workspace. */
  store: Pick<Store, 'tracesFor' | 'toolsFor'>
  logins: IndexLogins
  ulid: () => string
  uuid: () => string
}

export interface IndexSiteInput {
  url: string
  intent: string
  /** `trc_<ulid>` to record into; default a new one. */
  traceId?: string
  signal?: AbortSignal
  /** An API caller's destination check (see `ObserveInput.guard`). */
  guard?: DestinationCheck
}

/** host[:port] of an http(s) URL, as a tool's `siteHost`. */
export function siteOf(url: string): string {
  return new URL(url).host
}

/**
 * Indexes one URL for one intent in a workspace (interface.md "B" `POST /v1/index`, "Search
 * result status"): observes the page unattended ({@link observePage}) with the workspace's saved
 * login of the site, saves the trace, and compiles it with the intent (no language model: the
 * compiler is deterministic). A candidate is saved as a `candidate` tool (so
 * `POST /v1/tools/{id}/execute` runs and verifies it); when it binds a login and the workspace
 * has none for the site, the observed session is saved as that login, like a finished browse
 * session.
 *
 * A sign-in page is an answer, not an error: when the observed page asks to sign in, nothing is
 * compiled (what the trace holds is the sign-in page, not the intent's data) and the outcome is
 * `unavailable` with reason `sign_in_required` and `signIn.url` (the sign-in page): save a login
 * for the site, then index again. A page that does not load is `site_unreachable`; a browser that
 * fails mid-way is `browser_failed`.
 *
 * @throws ServiceError `chromium_not_found` (503) when no Chromium is installed: nothing was
 *   observed, so callers refuse the request rather than bill it.
 */
export async function indexSite(
  deps: IndexSiteDeps,
  tenant: string,
  input: IndexSiteInput,
): Promise<IndexOutcome> {
  const site = siteOf(input.url)
  const traceId = input.traceId ?? `trc_${deps.ulid()}`
  const saved = await deps.logins.load(tenant, site)
  let observation: Observation
  try {
    observation = await observePage(deps, {
      url: input.url,
      intent: input.intent,
      traceId,
      sessionId: `ixr_${deps.ulid()}`,
      login: saved,
      ...(input.signal ? { signal: input.signal } : {}),
      ...(input.guard ? { guard: input.guard } : {}),
    })
  } catch (error) {
    if (
      isServiceError(error) &&
      (error.code === 'chromium_not_found' || error.code === 'destination_denied')
    )
      throw error
    return {
      traceId,
      status: 'unavailable',
      candidate: null,
      explanation: null,
      reason: 'browser_failed',
      message: `The local browser could not observe ${input.url}: ${error instanceof Error ? error.message : String(error)}`,
      signIn: null,
      observed: {
        url: input.url,
        finalUrl: input.url,
        filled: null,
        exchanges: 0,
        stopped: false,
        usedSavedLogin: saved !== null,
      },
    }
  }
  const { trace } = observation
  deps.store.tracesFor(tenant).save(trace)
  const observed: IndexOutcome['observed'] = {
    url: input.url,
    finalUrl: observation.finalUrl,
    filled: observation.filled,
    exchanges: trace.exchanges.length,
    stopped: observation.stopped,
    usedSavedLogin: saved !== null,
  }
  const unavailable = (
    reason: IndexReason,
    message: string,
    extra: Partial<IndexOutcome> = {},
  ): IndexOutcome => ({
    traceId,
    status: 'unavailable',
    candidate: null,
    explanation: null,
    reason,
    message,
    signIn: null,
    observed,
    ...extra,
  })
  if (observation.loadError)
    return unavailable('site_unreachable', `${input.url} did not load: ${observation.loadError}`)
  if (observation.signIn)
    return unavailable(
      'sign_in_required',
      `${site} asks to sign in (${observation.finalUrl}) ${saved ? 'even with the saved login, which has lapsed' : 'and no login is saved for it'}: open the sign-in page, sign in and save the login, then index again with a new Idempotency-Key.`,
      { signIn: { url: observation.finalUrl } },
    )
  const compiled = compileTrace(trace, {
    toolId: deps.uuid(),
    now: deps.clock(),
    intent: input.intent,
  })
  if (!compiled.ok)
    return unavailable(
      observation.stopped ? 'stopped' : 'no_evidence',
      observation.stopped
        ? `The observation was stopped before it saw a request for "${input.intent}": ${compiled.explanation.reason}`
        : compiled.explanation.reason,
      { explanation: compiled.explanation },
    )
  const { siteHost } = compiled.candidate
  const tools = deps.store.toolsFor(tenant)
  const name = tools.uniqueName(siteHost, compiled.candidate.name)
  const candidate: ToolSpec = { ...compiled.candidate, name, capabilityId: `${siteHost}/${name}` }
  tools.save(candidate)
  if (candidate.login && !saved) {
    const login = siteStorageState(trace.storageState, siteHost)
    // A login that cannot be kept (a locked vault) leaves the candidate as it is.
    if (login) await deps.logins.save(tenant, siteHost, login).catch(() => undefined)
  }
  return {
    traceId,
    status: 'candidate',
    candidate,
    explanation: null,
    reason: null,
    message: null,
    signIn: null,
    observed,
  }
}
