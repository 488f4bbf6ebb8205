import type { RecordingResult, RecordingState } from '../../shared/appApi'
import { ServiceError } from '../../shared/errors'
import type { ExchangeSummary, StorageState, Trace } from '../../shared/trace'
import { compileTrace } from '../compiler'
import type { EventBus } from '../events'
import { defaultHeadless, type Recording } from '../recorder'
import type { Store } from '../store/store'
import type { SessionBrowserDeps } from './sessionBrowser'
import { withoutUserinfo } from '../../shared/httpChallenge'
import { userinfoOf, type HttpLogin } from '../recorder/httpAuthWatch'
import type { SeenLogins } from '../logins/seenLogins'
import { safeUrl } from '../../shared/safeJson'

export interface RecordingSessionsDeps extends SessionBrowserDeps {
  store: Pick<Store, 'traces' | 'tools' | 'logins'>
  /** The workspace whose logins a recording saves. */
  tenant: string
  events: EventBus
  /** Forces headless (tests, servers); default: headed when a display exists. */
  headless?: boolean
  /**
   * HTTP authentication logins: the saved username and password of a site
   * (null: none, or the vault is locked), and saving the ones the person answered a challenge
   * with (503 `unavailable` while the vault is locked).
   */
  httpLogins?: {
    saved(tenant: string, siteHost: string): Promise<HttpLogin | null>
    save(tenant: string, siteHost: string, login: HttpLogin, pageUrl: string): Promise<void>
  }
  /** Where the login a recording used is held for the offer at Stop. */
  seenLogins?: Pick<SeenLogins, 'note'>
}

export interface RecordingSessions {
  /**
   * Opens Chromium at `url` and records; one recording at a time. `storageState`: the site's
   * saved login (cookies, local storage) the browser starts with, so the recording begins signed
   * in; ignored when attaching to the person's own Chromium (`cdpEndpoint`), which has its own.
   */
  start(input: {
    url: string
    intent: string
    cdpEndpoint?: string
    storageState?: StorageState | null
  }): Promise<RecordingState>
  current(): RecordingState | null
  /** Stops (or, after the person closed the window, collects), saves the trace and compiles it. */
  stop(sessionId: string): Promise<RecordingResult>
  /**
   * Answers the recording's HTTP authentication challenge: saves the
   * credentials as the site's login (503 `unavailable` while the vault is locked: nothing is
   * given then), then loads the challenged page with them. 404 `not_found`; 409 `conflict` when
   * nothing is asked.
   */
  answerAuth(sessionId: string, login: HttpLogin): Promise<RecordingState>
  /** Resolves with the result when the recording ends either way. */
  finished(sessionId: string): Promise<RecordingResult>
  /** The live recording (its browser context and first page), for scripted use; null when none. */
  recording(sessionId: string): Recording | null
  closeAll(): Promise<void>
}

interface Session {
  state: RecordingState
  recording: Recording
  result: Promise<RecordingResult>
  end: (trace: Trace) => void
}
/** The recording sessions of one `createRecordingSessions`: its deps, all sessions, the live one. */
interface RecordingBook {
  deps: RecordingSessionsDeps
  sessions: Map<string, Session>
  /** The one recording running now, if any. */
  active: Session | null
}

/**
 * Recording sessions of the Record view and `sitecall record`: each ends when
 * the caller stops it or the person closes the window; either way the trace is saved and compiled
 * into a candidate (or an explanation) exactly once. The login the browser used on the recorded
 * site is not saved by itself: the result offers it (`login`), and the person saves or skips it.
 */
export function createRecordingSessions(deps: RecordingSessionsDeps): RecordingSessions {
  const book: RecordingBook = { deps, sessions: new Map(), active: null }
  const { sessions } = book
  const stop = (sessionId: string) => stopSession(book, sessionId)
  return {
    start: (input) => startSession(book, input),
    current: () => book.active?.state ?? null,
    async answerAuth(sessionId, login) {
      const session = sessions.get(sessionId)
      if (!session) throw new ServiceError('not_found', `No recording ${sessionId}.`)
      const challenge = session.recording.authChallenge()
      if (!challenge) throw new ServiceError('conflict', 'The recording asks no credentials now.')
      if (deps.httpLogins)
        await deps.httpLogins.save(deps.tenant, challenge.host, login, challenge.url)
      await session.recording.answerAuth(login)
      session.state.authChallenge = session.recording.authChallenge()
      return session.state
    },
    recording: (sessionId) => sessions.get(sessionId)?.recording ?? null,
    stop,
    finished(sessionId) {
      const session = sessions.get(sessionId)
      if (!session)
        return Promise.reject(new ServiceError('not_found', `No recording ${sessionId}.`))
      return session.result
    },
    async closeAll() {
      await Promise.allSettled([...sessions.keys()].map(stop))
    },
  }
}

/** Saves the trace, compiles it into a candidate (or an explanation) and offers the login seen. */
async function finish(
  book: RecordingBook,
  state: RecordingState,
  trace: Trace,
): Promise<RecordingResult> {
  const { deps } = book
  deps.store.traces.save(trace)
  const compiled = compileTrace(trace, { toolId: deps.uuid(), now: deps.clock() })
  let result: RecordingResult
  if (compiled.ok) {
    const candidate = {
      ...compiled.candidate,
      name: deps.store.tools.uniqueName(compiled.candidate.siteHost, compiled.candidate.name),
    }
    candidate.capabilityId = `${candidate.siteHost}/${candidate.name}`
    deps.store.tools.save(candidate)
    result = { traceId: trace.id, candidate, explanation: null }
  } else result = { traceId: trace.id, candidate: null, explanation: compiled.explanation }
  // Offered for the tool's site, else the page the recording started on.
  const site = result.candidate?.siteHost ?? hostOf(trace.startUrl)
  result.login = site ? ((await deps.seenLogins?.note(deps.tenant, trace, site)) ?? null) : null
  deps.events.emit('recorder.stopped', { sessionId: state.sessionId, result })
  return result
}

/** `RecordingSessions.stop`: stops the recording; the result once saved and compiled. */
async function stopSession(book: RecordingBook, sessionId: string): Promise<RecordingResult> {
  const session = book.sessions.get(sessionId)
  if (!session) throw new ServiceError('not_found', `No recording ${sessionId}.`)
  session.end(await session.recording.stop())
  return session.result
}

/**
 * The start URL without its userinfo; userinfo in it is saved as the site's HTTP login. With the
 * login the recording answers the site's challenge with (typed, else saved; null: none).
 * 400 `invalid_input` for a URL that is not http(s).
 */
async function startUrl(
  deps: RecordingSessionsDeps,
  input: { url: string; intent: string },
): Promise<{ url: URL; known: HttpLogin | null }> {
  let url = safeUrl(input.url)
  if (!url)
    throw new ServiceError(
      'invalid_input',
      `"${input.url}" is not a URL: use a full address like https://example.com/.`,
    )
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ServiceError('invalid_input', 'Only http and https pages can be recorded.')
  await deps.refuseSecretValues?.(input.intent, deps.tenant)
  // Credentials in the start URL answer the site's HTTP authentication and are kept only as
  // its login (sealed): the URL is stored and shown without them.
  const typed = userinfoOf(url.href)
  url = new URL(withoutUserinfo(url.href))
  if (typed)
    await deps.httpLogins?.save(deps.tenant, url.host, typed, url.href).catch(() => undefined)
  const known = typed ?? (await deps.httpLogins?.saved(deps.tenant, url.host)) ?? null
  return { url, known }
}

/**
 * `RecordingSessions.start`: one recording at a time; opens the browser recording at the URL,
 * reporting exchanges, actions and challenges as events, and keeps the session until it ends.
 */
async function startSession(
  book: RecordingBook,
  input: Parameters<RecordingSessions['start']>[0],
): Promise<RecordingState> {
  const { deps, sessions } = book
  if (book.active)
    throw new ServiceError('conflict', 'A recording is already running: stop it first.')
  const { url, known } = await startUrl(deps, input)
  const sessionId = `rec_${deps.ulid()}`
  const state: RecordingState = {
    sessionId,
    traceId: `trc_${deps.ulid()}`,
    url: url.href,
    intent: input.intent,
    startedAt: deps.clock(),
    exchanges: [],
    actionCount: 0,
    // Headless means nobody sees a window: the Record view shows the tab in the page.
    view: input.cdpEndpoint
      ? 'attached'
      : (deps.headless ?? defaultHeadless())
        ? 'screencast'
        : 'window',
  }
  const recording = await deps.startRecording({
    chromiumPath: input.cdpEndpoint ? '' : deps.chromiumPath(),
    url: url.href,
    intent: input.intent,
    traceId: state.traceId,
    sessionId,
    clock: deps.clock,
    ...(deps.headless !== undefined ? { headless: deps.headless } : {}),
    ...(input.cdpEndpoint ? { cdpEndpoint: input.cdpEndpoint } : {}),
    ...(input.storageState && !input.cdpEndpoint ? { storageState: input.storageState } : {}),
    ...(known ? { httpLogins: [{ ...known, origin: url.origin }] } : {}),
    onAuthChallenge: (challenge) => {
      state.authChallenge = challenge
      deps.events.emit('recorder.authChallenge', { sessionId, challenge })
    },
    onExchange: (exchange: ExchangeSummary) => {
      state.exchanges.push(exchange)
      deps.events.emit('recorder.exchange', { sessionId, exchange })
    },
    onAction: () => {
      state.actionCount++
      deps.events.emit('recorder.action', { sessionId, actionCount: state.actionCount })
    },
  })
  // The recording ends by stop() or by the person closing the window, whichever comes first;
  // the trace is saved and compiled once.
  let resolveEnd!: (trace: Trace) => void
  let rejectEnd!: (error: unknown) => void
  const ended = new Promise<Trace>(
    (resolve, reject) => ((resolveEnd = resolve), (rejectEnd = reject)),
  )
  recording.done.then(resolveEnd, rejectEnd)
  const result = ended.then((trace) => {
    if (book.active?.state.sessionId === sessionId) book.active = null
    return finish(book, state, trace)
  })
  state.authChallenge = recording.authChallenge()
  const session: Session = { state, recording, result, end: resolveEnd }
  // Errors surface through stop()/finished(); keep an unobserved failure from crashing the app.
  result.catch(() => undefined)
  sessions.set(sessionId, session)
  book.active = session
  return state
}

/** The `host[:port]` of `url`, or null when it is no URL. */
function hostOf(url: string): string | null {
  return URL.canParse(url) ? new URL(url).host : null
}
