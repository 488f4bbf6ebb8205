import type { Page } from 'playwright-core'
import { isIP } from 'node:net'
import { isServiceError, ServiceError } from '../../shared/errors'
import type { Trace } from '../../shared/trace'
import type { Recording } from '../recorder'
import type { Store } from '../store/store'
import { takeSnapshot } from './pageSnapshot'

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

/** `bs_` and a ULID (26 Crockford base-32 characters), exactly as `open` issues it. */
const SESSION_ID = /^bs_[0-9A-HJKMNP-TV-Z]{26}$/

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

/** One browse session: its recording, the page actions go to, and the guard's verdicts. */
export interface Session {
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

/**
 * The sessions of one `createBrowseSessions`, with what their steps need of its deps: the idle
 * rule's clock and limits, where kept traces go, and the endings still running.
 */
export interface BrowseBook {
  limits: BrowseLimits
  clock: () => number
  store: Pick<Store, 'tracesFor'>
  sessions: Map<string, Session>
  /** Sessions being opened per workspace, counted against `maxOpen`. */
  opening: Map<string, number>
  endings: Set<Promise<void>>
  /** Sweeps idle sessions while any is open. */
  sweeper: NodeJS.Timeout | null
}

/** An error of the browser or page going away under a call. */
export const PAGE_GONE = /has been closed|Target closed|Browser closed|browser has disconnected/i

/** 410 `session_expired` for `sessionId`: unknown, ended, idle, or of another workspace. */
export function expired(sessionId: string): ServiceError {
  return new ServiceError(
    'session_expired',
    'This browse session has ended (idle over 2 minutes, finished, closed, or the app ' +
      'restarted). Open a new one with service_browse_open.',
    { sessionId },
  )
}

/** No call runs or waits on the session and it was last used over `idleMs` ago. */
const isIdle = (book: BrowseBook, s: Session) =>
  s.busy === 0 && book.clock() - s.lastUsedAt > book.limits.idleMs

/** Ends a session once: stops its recording and returns the trace. */
export async function endSession(book: BrowseBook, s: Session): Promise<Trace> {
  s.ended = true
  book.sessions.delete(s.id)
  s.detach()
  if (book.sessions.size === 0 && book.sweeper) {
    clearInterval(book.sweeper)
    book.sweeper = null
  }
  return s.recording.stop()
}

/** Ends a session whose caller is gone (idle, shutdown); its trace is kept uncompiled. */
export function endKeeping(book: BrowseBook, s: Session): Promise<void> {
  const ending = endSession(book, s)
    .then((trace) => book.store.tracesFor(s.tenant).save(trace))
    .catch(() => undefined)
  book.endings.add(ending)
  void ending.finally(() => book.endings.delete(ending))
  return ending
}

/** Ends the idle sessions (of `tenant`, or all), keeping their traces. */
export function sweepIdle(book: BrowseBook, tenant?: string): void {
  for (const s of [...book.sessions.values()])
    if ((tenant === undefined || s.tenant === tenant) && isIdle(book, s)) void endKeeping(book, s)
}

/** The live session `sessionId` of `tenant`; an idle one ends here. 410 `session_expired`. */
function lookup(book: BrowseBook, tenant: string, sessionId: unknown): Session {
  const id = checkSessionId(sessionId)
  const s = book.sessions.get(id)
  if (!s || s.tenant !== tenant || s.ended) throw expired(id)
  if (isIdle(book, s)) {
    void endKeeping(book, s)
    throw expired(id)
  }
  return s
}

/** Runs `work` on the session after its earlier calls; the session is busy meanwhile. */
export async function useSession<T>(
  book: BrowseBook,
  tenant: string,
  sessionId: unknown,
  work: (s: Session) => Promise<T>,
): Promise<T> {
  const s = lookup(book, tenant, sessionId)
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
      if (!s.ended) void endKeeping(book, s)
      throw expired(s.id)
    }
    throw error
  } finally {
    s.busy--
    s.lastUsedAt = book.clock()
  }
}

/**
 * The page's snapshot with its refs, once the guard's verdicts are in: a page from where the
 * caller may not reach ends the session unkept with 403 `destination_denied`.
 */
export async function snapSession(book: BrowseBook, s: Session): Promise<Snapshot> {
  // The first navigation ran before any listener: a page now at an IP literal is judged here.
  const here = URL.canParse(s.page.url()) ? new URL(s.page.url()) : null
  const literal = here?.hostname.replace(/^\[|\]$/g, '') ?? ''
  if (s.guard && here && isIP(literal)) s.checks.push(Promise.resolve(s.guard(here.href, literal)))
  const verdicts = await Promise.all(s.checks.splice(0))
  const denied = verdicts.find((v) => v !== null)
  if (denied) {
    // The page came from where this caller may not reach: nothing of it is shown or kept.
    s.ended = true
    book.sessions.delete(s.id)
    s.detach()
    await endSession(book, s).catch(() => undefined)
    throw new ServiceError('destination_denied', denied, { sessionId: s.id })
  }
  const page = await takeSnapshot(s.page, book.limits.snapshotMs)
  s.refs = new Set(page.refs)
  return { sessionId: s.id, ...page }
}

/**
 * Follows the session's browser: the newest open page takes actions (popups take over), and a
 * browser that went away by itself ends the session with its trace kept.
 */
export function trackSession(book: BrowseBook, s: Session): void {
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
    book.sessions.delete(s.id)
    s.detach()
    try {
      book.store.tracesFor(s.tenant).save(trace)
    } catch {
      // The store is closing with the app: nothing left to keep it in.
    }
  })
}
