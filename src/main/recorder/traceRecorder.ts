import { constants, existsSync } from 'node:fs'
import { access, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import type {
  Browser,
  BrowserContext,
  Disposable,
  Frame,
  Page,
  Request,
  Response,
} from 'playwright-core'
import { describeLoadFailure } from './loadFailure'
import { ServiceError } from '../../shared/errors'
import { headerValue, summarizeExchange } from '../../shared/trace'
import type { HttpAuthChallenge } from '../../shared/appApi'
import type {
  Action,
  ActionKind,
  Body,
  Exchange,
  ExchangeSummary,
  StorageState,
  Trace,
} from '../../shared/trace'
import {
  ACTION_BINDING,
  ACTION_FLUSH,
  actionScript,
  SECRET_BINDING,
  type ActionPayload,
} from './actionScript'
import { chromiumArgs } from './chromium'
import { encodeBody } from './encodeBody'
import { watchHttpAuth, type HttpAuthWatch, type HttpLogin } from './httpAuthWatch'
import { redactSecrets, redactTypedSecrets, redactTypedSecretsInAction } from './redactSecrets'
import { storedCookies } from './storedCookies'
import { UploadBodies } from './uploadBodies'
import { safeUrl } from '../../shared/safeJson'

/** Options of {@link startRecording}. */
export interface RecordingOptions {
  /** Chromium/Chrome binary to launch (see `findChromium`); ignored with `cdpEndpoint`. */
  chromiumPath: string
  /** The page the recording starts on. */
  url: string
  /** What the person wants to do, in their words; copied into the trace. */
  intent: string
  /** `trc_<ulid>` of the trace this recording produces. */
  traceId: string
  /** Id of this recording session, echoed on the {@link Recording}. */
  sessionId: string
  /** Default: headless on Linux without `DISPLAY`, headed elsewhere. Launch mode only. */
  headless?: boolean
  /**
   * `http://127.0.0.1:PORT` of a Chromium the person already runs with remote debugging. The
   * recording then uses that browser's first context (its profile and logins) and leaves the
   * browser running when it stops.
   */
  cdpEndpoint?: string
  /**
   * Cookies and localStorage to start with (launch mode), as a saved login gives them: the
   * recording then starts signed in, as the person's own browser would be.
   */
  storageState?: StorageState
  /** Profile directory for launch mode. Default: a fresh temp dir, removed when recording ends. */
  userDataDir?: string
  /**
   * The proxy every request of the browser goes through (launch mode): the guard proxy that
   * checks the addresses an API caller's browse session connects to.
   */
  proxy?: { server: string; username: string; password: string }
  /** Milliseconds since the Unix epoch; default `Date.now`. */
  clock?: () => number
  /** Called as each exchange completes (answered or failed). */
  onExchange?: (summary: ExchangeSummary) => void
  /**
   * Called for each action. A `fill` that supersedes the previous action (same field, nothing in
   * between) is reported again with the same `seq` and the new value.
   */
  onAction?: (action: Action) => void
  /** Bodies longer than this many bytes are stored as `null`; default 25 MiB. */
  maxBodyBytes?: number
  /** Milliseconds to wait for the first navigation; default 30 000. */
  navigationTimeoutMs?: number
  /**
   * HTTP authentication answers known before the start (a saved login's, a start URL's
   * userinfo), by origin (scheme://host:port).
   */
  httpLogins?: Array<HttpLogin & { origin: string }>
  /**
   * Told when a recorded page meets a Basic or Digest challenge nobody answered (null once
   * answered): the app asks the person; see {@link Recording.answerAuth}.
   */
  onAuthChallenge?: (challenge: HttpAuthChallenge | null) => void
}

/** A running recording, as returned by {@link startRecording}. */
export interface Recording {
  sessionId: string
  traceId: string
  /**
   * The recorded context. Over CDP it is the person's own context: read it, never close it.
   */
  context: BrowserContext
  /** The first page, already navigated to the start URL (or met by an HTTP auth challenge). */
  page: Page
  /** The HTTP authentication challenge waiting on the person, or null. */
  authChallenge(): HttpAuthChallenge | null
  /** Answers it with the person's credentials and loads the challenged page again. */
  answerAuth(login: HttpLogin): Promise<void>
  /**
   * Ends the recording and returns its trace: flushes pending actions, waits up to 5 s for bodies
   * still being read, takes the storage state, then closes the browser (launch mode) or only
   * disconnects (CDP mode). Idempotent: later calls return the same trace. Never rejects.
   */
  stop(): Promise<Trace>
  /**
   * Settles with the same trace once the recording ends: the person closed the last recorded
   * page, the browser went away, or `stop()` was called. Never rejects.
   */
  done: Promise<Trace>
}

/** What Playwright passes a binding about its caller (its type is not exported). */
interface BindingSource {
  page: Page
  frame: Frame
}

const DEFAULT_MAX_BODY_BYTES = 25 * 1024 * 1024
const BODY_WAIT_MS = 5_000
const FLUSH_WAIT_MS = 2_000
const CLOSE_WAIT_MS = 10_000
const SNAPSHOT_DEBOUNCE_MS = 750
const PAGE_ACTION_KINDS: ReadonlySet<ActionKind> = new Set([
  'click',
  'fill',
  'select',
  'press',
  'submit',
])

/**
 * Whether a launched recording browser runs headless when the caller does not say: on Linux
 * without `DISPLAY` (a server, a container), where a window could not be shown.
 */
export function defaultHeadless(): boolean {
  return process.platform === 'linux' && !process.env['DISPLAY']
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** An error's first line without Playwright's `browserType.method: ` prefix (no call log). */
function firstLine(error: unknown): string {
  return errorMessage(error)
    .split('\n')[0]!
    .replace(/^[a-zA-Z]+\.[a-zA-Z]+: /, '')
}

/**
 * Why the person's own Chromium at `endpoint` could not be attached to, in a sentence: nothing
 * listening (not started with `--remote-debugging-port`), or the first line of the cause.
 */
function cdpFailure(endpoint: string, error: unknown): string {
  const text = errorMessage(error)
  if (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|Timeout \d+ms/i.test(text))
    return `No Chromium answers at ${endpoint}. Start it with --remote-debugging-port (e.g. chromium --remote-debugging-port=9222) and check the address.`
  return `Could not attach to your Chromium at ${endpoint}: ${firstLine(error)}`
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** Resolves with the promise's value, or `fallback` after `ms`, or `fallback` if it rejects. */
async function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms)
  })
  try {
    return await Promise.race([promise.catch(() => fallback), timeout])
  } finally {
    clearTimeout(timer)
  }
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null
}

interface Started {
  id: string
  seq: number
  startedAt: number
  pageUrl: string
}

/**
 * Starts recording a person's browsing: launches Chromium (or attaches over CDP), injects the
 * action script, opens `url`, and captures every request/response of the context and every
 * action until {@link Recording.stop} or the person closes the window.
 *
 * Exchanges get ids `exc_1, exc_2…` and `seq` in the order their requests started. Bodies are
 * utf8 text or base64 (see `encodeBody`). Actions on secret fields never carry their value;
 * the values typed into them are blanked in every request URL, header and body that carries them,
 * and fields named like secrets are blanked too (see `redactTypedSecrets`, `redactSecrets`).
 *
 * @throws ServiceError `recording_failed` (500) when Chromium cannot be launched or connected
 *   to, has no context (CDP), or the start URL cannot be opened.
 */
export async function startRecording(options: RecordingOptions): Promise<Recording> {
  const clock = options.clock ?? Date.now
  const createdAt = clock()
  let browser: Browser | null = null
  let context: BrowserContext
  let ownedDir: string | null = null
  try {
    if (options.cdpEndpoint) {
      browser = await chromium.connectOverCDP(options.cdpEndpoint)
      const first = browser.contexts()[0]
      if (!first) throw new Error(`the browser at ${options.cdpEndpoint} has no open context`)
      context = first
    } else {
      const headless = options.headless ?? defaultHeadless()
      // Checked first because a failed launch leaves Playwright's artifacts dir behind in /tmp.
      await access(options.chromiumPath, constants.X_OK).catch(() => {
        throw new Error(`${options.chromiumPath} is not an executable file`)
      })
      ownedDir = options.userDataDir ? null : await mkdtemp(join(tmpdir(), 'sitecall-record-'))
      context = await chromium.launchPersistentContext(options.userDataDir ?? ownedDir!, {
        executablePath: options.chromiumPath,
        headless,
        args: chromiumArgs(),
        // Ctrl+C belongs to whoever runs the recording (`sitecall record` stops it and keeps the
        // trace): Playwright's own handler would kill the browser and exit the process with 130.
        handleSIGINT: false,
        // Headed: let the page follow the window size the person drags it to.
        ...(headless ? {} : { viewport: null }),
        ...(options.proxy ? { proxy: options.proxy } : {}),
      })
      if (options.storageState) await applyStorageState(context, options.storageState)
    }
  } catch (error) {
    await browser?.close().catch(() => undefined)
    if (ownedDir)
      await rm(ownedDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }).catch(
        () => undefined,
      )
    if (options.cdpEndpoint)
      throw new ServiceError('recording_failed', cdpFailure(options.cdpEndpoint, error))
    throw new ServiceError(
      'recording_failed',
      `Could not launch Chromium at ${options.chromiumPath}: ${firstLine(error)}`,
    )
  }

  const session = new RecordingSession(options, clock, createdAt, context, browser, ownedDir)
  try {
    const page = await session.attach()
    await page
      .goto(options.url, {
        waitUntil: 'domcontentloaded',
        timeout: options.navigationTimeoutMs ?? 30_000,
      })
      .catch((error: unknown) => {
        // A Basic or Digest challenge fails the load until the person answers it in the app.
        if (!session.auth.pending()) throw error
      })
    return {
      sessionId: options.sessionId,
      traceId: options.traceId,
      context,
      page,
      authChallenge: () => session.auth.pending(),
      answerAuth: (login) => session.auth.answer(page, login),
      stop: () => session.finish(),
      done: session.done,
    }
  } catch (error) {
    await session.finish()
    // Said as a person reads it: no Playwright call log, no net::ERR_ name.
    throw new ServiceError(
      'recording_failed',
      `Could not open the page to record: ${describeLoadFailure(options.url, error).message}`,
    )
  }
}

/** The mutable state of one recording; lives exactly as long as the recording. */
class RecordingSession {
  readonly done: Promise<Trace>
  private resolveDone!: (trace: Trace) => void
  private final: Promise<Trace> | null = null
  private stopping = false

  private exchangeSeq = 0
  private readonly started = new Map<Request, Started>()
  private readonly exchanges: Exchange[] = []
  private readonly inflight = new Set<Promise<void>>()

  private actionSeq = 0
  private readonly actions: Action[] = []
  private readonly lastNavigation = new WeakMap<Page, string>()

  private readonly recordedPages = new Set<Page>()
  private openPages = 0
  private firstPage: Page | null = null

  private readonly cookieUrls = new Set<string>()
  private readonly localStorageByOrigin = new Map<string, Array<{ name: string; value: string }>>()
  private lastCookies: StorageState['cookies'] | null = null
  private snapshotTimer: NodeJS.Timeout | null = null
  private snapshotRunning: Promise<void> | null = null

  private readonly disposables: Disposable[] = []
  private readonly detachers: Array<() => void> = []
  /** Set by `attach`, before the first navigation. */
  auth!: HttpAuthWatch
  private readonly maxBodyBytes: number
  private readonly uploads: UploadBodies
  /** Request bodies read over CDP, kept raw until the chosen files can be put in at the end. */
  private readonly uploadBodies = new Map<Exchange, Buffer | null>()
  /**
   * What the person typed into each secret field (by origin and field), in memory only: blanked
   * in the requests at the end, then dropped with the session.
   */
  private readonly typedSecrets = new Map<string, string[]>()

  constructor(
    private readonly options: RecordingOptions,
    private readonly clock: () => number,
    private readonly createdAt: number,
    private readonly context: BrowserContext,
    private readonly browser: Browser | null,
    private readonly ownedDir: string | null,
  ) {
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
    this.uploads = new UploadBodies(this.maxBodyBytes)
    this.done = new Promise((resolve) => {
      this.resolveDone = resolve
    })
  }

  private get overCdp(): boolean {
    return this.browser !== null
  }

  /** Installs listeners, the binding and the action script; returns the page to navigate. */
  async attach(): Promise<Page> {
    const { context, browser } = this
    const onRequest = (request: Request): void => this.onRequest(request)
    const onDone = (request: Request): void => this.track(this.complete(request))
    const onPage = (page: Page): void => this.attachPage(page)
    const onGone = (): void => void this.finish()
    context.on('request', onRequest)
    context.on('requestfinished', onDone)
    context.on('requestfailed', onDone)
    context.on('page', onPage)
    context.on('close', onGone)
    browser?.on('disconnected', onGone)
    this.detachers.push(() => {
      context.off('request', onRequest)
      context.off('requestfinished', onDone)
      context.off('requestfailed', onDone)
      context.off('page', onPage)
      context.off('close', onGone)
      browser?.off('disconnected', onGone)
    })

    this.auth = watchHttpAuth(
      context,
      (response) => !this.stopping && this.isRecorded(response.request()),
      (challenge) => this.options.onAuthChallenge?.(challenge),
    )
    this.detachers.push(() => this.auth.dispose())
    for (const { origin, ...login } of this.options.httpLogins ?? [])
      await this.auth.give(origin, login)

    this.disposables.push(
      await context.exposeBinding(ACTION_BINDING, (source: BindingSource, payload: unknown) =>
        this.onActionPayload(source, payload),
      ),
      await context.exposeBinding(SECRET_BINDING, (source: BindingSource, payload: unknown) =>
        this.onSecretValue(source, payload),
      ),
      await context.addInitScript({ content: actionScript() }),
      ...(await this.uploads.install(context)),
    )

    // Launch mode reuses the blank tab a persistent context opens with; over CDP the person's
    // own tabs are left alone and the recording gets a tab of its own.
    const page = (!this.overCdp && context.pages()[0]) || (await context.newPage())
    this.firstPage = page
    this.attachPage(page)
    // Before the first navigation, so the start page's own uploads are seen too.
    await this.uploads.attach(page)
    return page
  }

  /** Ends the recording once; every caller gets the same trace. */
  finish(): Promise<Trace> {
    if (!this.final) {
      this.final = this.finalize().then((trace) => {
        this.resolveDone(trace)
        return trace
      })
    }
    return this.final
  }

  private attachPage(page: Page): void {
    if (this.recordedPages.has(page) || this.stopping) return
    this.recordedPages.add(page)
    this.openPages++
    if (page !== this.firstPage) void this.uploads.attach(page)
    const onNavigated = (frame: Frame): void => {
      if (frame === page.mainFrame()) this.onNavigated(page, frame.url())
    }
    const onLoad = (): void => this.scheduleSnapshot()
    const onClose = (): void => {
      this.openPages--
      if (this.openPages <= 0) void this.finish()
    }
    page.on('framenavigated', onNavigated)
    page.on('load', onLoad)
    page.once('close', onClose)
    this.detachers.push(() => {
      page.off('framenavigated', onNavigated)
      page.off('load', onLoad)
      page.off('close', onClose)
    })
  }

  private track(work: Promise<void>): void {
    // A request torn down mid-read (page closed, browser gone) only loses its own exchange.
    const guarded = work.catch(() => undefined)
    this.inflight.add(guarded)
    void guarded.finally(() => this.inflight.delete(guarded))
  }

  private isRecorded(request: Request): boolean {
    // Over CDP the context holds the person's other tabs too: keep only the recording's pages.
    if (!this.overCdp) return true
    try {
      return this.recordedPages.has(request.frame().page())
    } catch {
      // Service-worker requests have no frame: no page of the recording made them.
      return false
    }
  }

  private fallbackPageUrl(): string {
    try {
      const url = this.firstPage?.url()
      if (url && url !== 'about:blank') return url
    } catch {
      // The page is gone: the start URL is the best remaining answer.
    }
    return this.options.url
  }

  private initiatorUrl(request: Request): string {
    try {
      const url = request.frame().url()
      if (url && url !== 'about:blank') return url
      if (request.isNavigationRequest()) return request.url()
    } catch {
      // Service-worker requests and requests of detached frames have no frame.
    }
    return this.fallbackPageUrl()
  }

  private onRequest(request: Request): void {
    if (this.stopping || !this.isRecorded(request)) return
    const seq = ++this.exchangeSeq
    this.started.set(request, {
      id: `exc_${seq}`,
      seq,
      startedAt: this.clock(),
      pageUrl: this.initiatorUrl(request),
    })
    const url = safeUrl(request.url())
    if (url) this.cookieUrls.add(url.origin + '/')
  }

  private async readBody(
    response: Response,
    headers: Record<string, string>,
  ): Promise<Body | null> {
    const length = Number(headerValue(headers, 'content-length') ?? NaN)
    if (Number.isFinite(length) && length > this.maxBodyBytes) return null
    let bytes: Buffer
    try {
      bytes = await response.body()
    } catch {
      // Redirects, aborted and evicted responses have no body to give.
      return null
    }
    if (bytes.length > this.maxBodyBytes) return null
    return encodeBody(bytes, headerValue(headers, 'content-type'))
  }

  private async complete(request: Request): Promise<void> {
    const start = this.started.get(request)
    if (!start) return
    this.started.delete(request)
    const requestHeaders = await within(request.allHeaders(), BODY_WAIT_MS, request.headers())
    const response = await within(request.response(), BODY_WAIT_MS, null)
    let status = 0
    let responseHeaders: Record<string, string> = {}
    let responseBody: Body | null = null
    if (response) {
      status = response.status()
      responseHeaders = await within(response.allHeaders(), BODY_WAIT_MS, response.headers())
      responseBody = await this.readBody(response, responseHeaders)
    }
    const responseEnd = request.timing().responseEnd
    // A file upload's body is not in Playwright's request; CDP gives it (see UploadBodies).
    const given = request.postDataBuffer()
    const sent = given ?? (await this.uploads.bodyOf(request))
    const requestBytes = sent && sent.length > this.maxBodyBytes ? null : sent
    // The request is kept as sent until the trace is built: then secret fields are redacted by
    // name (redactSecrets) and the exact typed values wherever they appear (redactTypedSecrets);
    // a value the page script hashed or encrypted cannot be recognised.
    const exchange: Exchange = {
      id: start.id,
      seq: start.seq,
      method: request.method(),
      url: request.url(),
      requestHeaders,
      requestBody: encodeBody(requestBytes, headerValue(requestHeaders, 'content-type')),
      status,
      responseHeaders,
      responseBody,
      resourceType: request.resourceType(),
      startedAt: start.startedAt,
      durationMs:
        responseEnd >= 0 ? Math.round(responseEnd) : Math.max(0, this.clock() - start.startedAt),
      pageUrl: start.pageUrl,
    }
    if (given === null && request.method() !== 'GET') this.uploadBodies.set(exchange, requestBytes)
    this.addExchange(exchange)
  }

  /** Puts the files the person chose into upload bodies that lack them (see UploadBodies). */
  private completeUploads(): void {
    for (const [exchange, bytes] of this.uploadBodies) {
      const filled = this.uploads.complete(bytes, exchange.requestHeaders)
      if (filled === bytes || (filled && filled.length > this.maxBodyBytes)) continue
      const type = headerValue(exchange.requestHeaders, 'content-type')
      exchange.requestBody = encodeBody(filled, type)
    }
    this.uploadBodies.clear()
  }

  /** A request still unanswered when the recording ends: it was sent, so the trace keeps it. */
  private unanswered(request: Request, start: Started): Exchange {
    const requestHeaders = request.headers()
    return {
      id: start.id,
      seq: start.seq,
      method: request.method(),
      url: request.url(),
      requestHeaders,
      requestBody: encodeBody(
        request.postDataBuffer(),
        headerValue(requestHeaders, 'content-type'),
      ),
      status: 0,
      responseHeaders: {},
      responseBody: null,
      resourceType: request.resourceType(),
      startedAt: start.startedAt,
      durationMs: Math.max(0, this.clock() - start.startedAt),
      pageUrl: start.pageUrl,
    }
  }

  private addExchange(exchange: Exchange): void {
    this.exchanges.push(exchange)
    try {
      this.options.onExchange?.(summarizeExchange(exchange))
    } catch {
      // A listener's bug must not lose the recording.
    }
  }

  private emitAction(action: Action): void {
    try {
      this.options.onAction?.({ ...action })
    } catch {
      // A listener's bug must not lose the recording.
    }
    this.scheduleSnapshot()
  }

  private onNavigated(page: Page, url: string): void {
    if (this.stopping || !url || url === 'about:blank') return
    if (this.lastNavigation.get(page) === url) return
    this.lastNavigation.set(page, url)
    const action: Action = {
      seq: ++this.actionSeq,
      kind: 'navigate',
      at: this.clock(),
      pageUrl: url,
      selector: null,
      role: null,
      name: null,
      value: url,
    }
    this.actions.push(action)
    this.emitAction(action)
  }

  private onActionPayload(source: BindingSource, payload: unknown): void {
    if (this.stopping) return
    if (this.overCdp && !this.recordedPages.has(source.page)) return
    if (typeof payload !== 'object' || payload === null) return
    // The page is not trusted: every field of the payload is checked before it is kept.
    const p = payload as Partial<Record<keyof ActionPayload, unknown>>
    const kind = p['kind']
    if (typeof kind !== 'string' || !PAGE_ACTION_KINDS.has(kind as ActionKind)) return
    const secret = p['secret'] === true
    const action: Action = {
      seq: 0,
      kind: kind as ActionKind,
      at: this.clock(),
      pageUrl: stringOrNull(p['pageUrl']) ?? source.frame.url(),
      selector: stringOrNull(p['selector']),
      role: stringOrNull(p['role']),
      name: stringOrNull(p['name']),
      // Defence in depth: the page script already withholds it; the recorder never keeps it.
      value: secret ? null : stringOrNull(p['value']),
      fieldName: stringOrNull(p['fieldName']),
      inputType: stringOrNull(p['inputType']),
    }
    if (Array.isArray(p['options'])) {
      action.options = p['options'].filter((o): o is string => typeof o === 'string')
    }
    if (secret) action.secret = true

    const last = this.actions[this.actions.length - 1]
    if (
      action.kind === 'fill' &&
      last?.kind === 'fill' &&
      last.selector === action.selector &&
      last.pageUrl === action.pageUrl
    ) {
      // Typing resumed after a pause: one field edit stays one action.
      last.value = action.value
      last.at = action.at
      this.emitAction(last)
      return
    }
    action.seq = ++this.actionSeq
    this.actions.push(action)
    this.emitAction(action)
  }

  /**
   * Keeps a secret field's value to blank it later. A value that an edit of the same field
   * continued (`hunt` → `hunter2`) was only part of the typing and is dropped, so a partial
   * value never blanks an unrelated word; a replaced value (a wrong password, then the right
   * one) stays, since a request may have carried it.
   */
  private onSecretValue(source: BindingSource, payload: unknown): void {
    if (this.stopping) return
    if (this.overCdp && !this.recordedPages.has(source.page)) return
    if (typeof payload !== 'object' || payload === null) return
    const { field, value } = payload as Record<string, unknown>
    if (typeof field !== 'string' || typeof value !== 'string' || !value) return
    const earlier = (this.typedSecrets.get(field) ?? []).filter(
      (v) => v !== value && !value.startsWith(v),
    )
    this.typedSecrets.set(field, [...earlier, value])
  }

  private openRecordedPages(): Page[] {
    return [...this.recordedPages].filter((page) => !page.isClosed())
  }

  private scheduleSnapshot(): void {
    if (this.stopping) return
    if (this.snapshotTimer) clearTimeout(this.snapshotTimer)
    this.snapshotTimer = setTimeout(() => {
      this.snapshotTimer = null
      void this.snapshot()
    }, SNAPSHOT_DEBOUNCE_MS)
    this.snapshotTimer.unref?.()
  }

  /**
   * Collects cookies and localStorage without `context.storageState()`, which opens a hidden
   * page per origin no tab is on: visible in a headed browser, and over CDP it would walk the
   * person's whole profile. Origins seen earlier keep their last known localStorage, so the
   * state survives the person closing the window before stop.
   */
  private snapshot(): Promise<void> {
    if (this.snapshotRunning) return this.snapshotRunning
    this.snapshotRunning = (async () => {
      const frames = this.openRecordedPages().flatMap((page) => page.frames())
      const stores = await Promise.all(
        frames.map((frame) =>
          within(
            frame.evaluate(
              `(() => { try { return { origin: location.origin, items: Object.keys(localStorage).map((k) => ({ name: k, value: String(localStorage.getItem(k)) })) } } catch (e) { return null } })()`,
            ) as Promise<{ origin: string; items: Array<{ name: string; value: string }> } | null>,
            FLUSH_WAIT_MS,
            null,
          ),
        ),
      )
      for (const store of stores) {
        if (store && store.origin && store.origin !== 'null') {
          this.localStorageByOrigin.set(store.origin, store.items)
        }
      }
      // Over CDP, only cookies the recorded sites would receive: not the person's whole jar.
      const urls = this.overCdp ? [...this.cookieUrls] : []
      if (!this.overCdp || urls.length > 0) {
        const cookies = await within(this.context.cookies(urls), FLUSH_WAIT_MS, null)
        if (cookies) {
          this.lastCookies = storedCookies(cookies)
        }
      } else {
        this.lastCookies = []
      }
    })().finally(() => {
      this.snapshotRunning = null
    })
    return this.snapshotRunning
  }

  private storageState(): StorageState | null {
    if (this.lastCookies === null && this.localStorageByOrigin.size === 0) return null
    return {
      cookies: this.lastCookies ?? [],
      origins: [...this.localStorageByOrigin]
        .filter(([, items]) => items.length > 0)
        .map(([origin, localStorage]) => ({ origin, localStorage })),
    }
  }

  private async flushPages(): Promise<void> {
    const frames = this.openRecordedPages().flatMap((page) => page.frames())
    await within(
      Promise.all(
        frames.map((frame) =>
          frame
            .evaluate(
              `window[${JSON.stringify(ACTION_FLUSH)}] && window[${JSON.stringify(ACTION_FLUSH)}]()`,
            )
            .catch(() => undefined),
        ),
      ),
      FLUSH_WAIT_MS,
      [],
    )
  }

  private async awaitInflight(): Promise<void> {
    const deadline = Date.now() + BODY_WAIT_MS
    // Loop: a request finishing while we wait adds new work to the set.
    while (this.inflight.size > 0 && Date.now() < deadline) {
      await within(
        Promise.allSettled([...this.inflight]).then(() => undefined),
        deadline - Date.now(),
        undefined,
      )
    }
  }

  private async finalize(): Promise<Trace> {
    // Actions the page still holds (debounced fills) arrive before `stopping` closes the gate.
    await this.flushPages()
    this.stopping = true
    if (this.snapshotTimer) clearTimeout(this.snapshotTimer)
    await this.awaitInflight()
    if (this.snapshotRunning) await this.snapshotRunning
    await within(this.snapshot(), BODY_WAIT_MS, undefined)

    for (const detach of this.detachers.splice(0)) detach()
    const unanswered = [...this.started].map(([request, start]) => this.unanswered(request, start))
    this.started.clear()
    for (const exchange of unanswered) this.addExchange(exchange)
    this.completeUploads()

    const secretFields = this.actions
      .filter((action) => action.secret && action.fieldName)
      .map((action) => action.fieldName!)
    const typed = [...this.typedSecrets.values()].flat()
    this.typedSecrets.clear()
    const exchanges = [...this.exchanges]
      .sort((a, b) => a.seq - b.seq)
      .map((exchange) => redactTypedSecrets(redactSecrets(exchange, secretFields), typed))

    const trace: Trace = {
      id: this.options.traceId,
      intent: this.options.intent,
      startUrl: this.options.url,
      createdAt: this.createdAt,
      exchanges,
      actions: this.actions.map((action) => redactTypedSecretsInAction({ ...action }, typed)),
      storageState: this.storageState(),
    }
    await this.release().catch(() => undefined)
    return trace
  }

  private async release(): Promise<void> {
    await within(this.uploads.close(), FLUSH_WAIT_MS, undefined)
    if (this.browser) {
      // Over CDP the browser is the person's: remove what we added, then only disconnect.
      await within(
        Promise.all(this.disposables.map((d) => d.dispose().catch(() => undefined))),
        FLUSH_WAIT_MS,
        [],
      )
      await within(this.browser.close(), CLOSE_WAIT_MS, undefined)
    } else {
      await within(this.context.close(), CLOSE_WAIT_MS, undefined)
    }
    if (this.ownedDir) {
      // When the person closed the browser, `close` can return before Chromium has exited and
      // written its last profile files: remove again until the directory stays gone.
      for (let attempt = 0; attempt < 10; attempt++) {
        await rm(this.ownedDir, {
          recursive: true,
          force: true,
          maxRetries: 5,
          retryDelay: 100,
        }).catch(() => undefined)
        await sleep(150)
        if (!existsSync(this.ownedDir)) break
      }
    }
  }
}

/**
 * Puts a saved storage state into a fresh context: cookies directly, localStorage by an init
 * script that fills each origin's entries before the page's own scripts run.
 */
async function applyStorageState(context: BrowserContext, state: StorageState): Promise<void> {
  if (state.cookies.length) await context.addCookies(state.cookies)
  const origins = state.origins.filter((o) => o.localStorage.length)
  if (!origins.length) return
  await context.addInitScript((all: StorageState['origins']) => {
    const mine = all.find((o) => o.origin === location.origin)
    if (!mine || sessionStorage.getItem('__sitecall_seeded')) return
    for (const { name, value } of mine.localStorage) localStorage.setItem(name, value)
    sessionStorage.setItem('__sitecall_seeded', '1')
  }, origins)
}
