import type {
  AppApiInput,
  AppApiMethod,
  AppApiResult,
  AppEventMap,
  AppEventName,
  AppResult,
} from '../shared/appApi'
import type { ErrorBody, ErrorCode } from '../shared/errors'

/** An `{ok:false,error}` answer of the app contract, thrown by `invoke`. */
export class AppError extends Error {
  override readonly name = 'AppError'
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message)
  }

  /** The contract method that answered it (set by `invoke`); undefined for other work. */
  method?: string

  static fromBody(body: ErrorBody): AppError {
    const { code, message, ...details } = body
    return new AppError(code, message, details)
  }
}

/** Told of each method that answered `ok` (the error banner clears its own method's error). */
const successListeners = new Set<(method: AppApiMethod) => void>()

/** Calls `listener` after every successful `invoke`; returns the unsubscribe function. */
export function onInvokeSuccess(listener: (method: AppApiMethod) => void): () => void {
  successListeners.add(listener)
  return () => void successListeners.delete(listener)
}

/** What carries the contract: the Electron preload's bridge has exactly this shape. */
export interface Transport {
  invoke(method: string, input: unknown): Promise<AppResult<unknown>>
  on(event: AppEventName, listener: (data: unknown) => void): () => void
  /** The desktop's channel of a recording's in-page view; web mode uses a WebSocket. */
  screencast?(
    sessionId: string,
    listener: (message: unknown) => void,
  ): { send(message: unknown): void; close(): void }
}

declare global {
  interface Window {
    sitecall?: Transport
  }
}

interface EventSourceLike {
  onmessage: ((message: MessageEvent<string>) => void) | null
  onerror?: ((event: Event) => void) | null
  /** 2 once the browser gave up on the stream (e.g. its token expired: a 401 is final). */
  readyState?: number
  close?: () => void
}

/** EventSource.CLOSED: the browser will not reconnect by itself. */
const CLOSED = 2
/** Wait before opening a stream the browser gave up on, with the token of the moment. */
const REOPEN_AFTER_MS = 2_000

export interface HttpTransportOptions {
  /** Origin of the local server; '' in the browser, where the UI is served by that server. */
  baseUrl?: string
  openEvents?: (url: string) => EventSourceLike
}

function isAppResult(body: unknown): body is AppResult<unknown> {
  return (
    typeof body === 'object' && body !== null && typeof (body as { ok?: unknown }).ok === 'boolean'
  )
}

/**
 * Web mode: `POST /app-api/<method>` with the owner token as a bearer, answered by an `AppResult`;
 * push events from one shared `EventSource` on `/app-api/events?token=…`.
 */
export function createHttpTransport(
  fetchImpl: typeof fetch,
  token: () => string | null,
  options: HttpTransportOptions = {},
): Transport {
  const base = options.baseUrl ?? ''
  const openEvents = options.openEvents ?? ((url: string) => new EventSource(url))
  const listeners = new Map<string, Set<(data: unknown) => void>>()
  let source: EventSourceLike | null = null
  const connect = () => {
    // EventSource cannot send headers, so the stream takes the token in its query. The browser
    // retries a dropped stream with the same URL; once the token it holds has expired (owner
    // tokens last an hour) that retry fails for good, so reopen with the current token.
    const opened = openEvents(`${base}/app-api/events?token=${encodeURIComponent(token() ?? '')}`)
    source = opened
    opened.onmessage = (message: MessageEvent<string>) => {
      const { event: name, data } = JSON.parse(message.data) as { event: string; data: unknown }
      listeners.get(name)?.forEach((fn) => fn(data))
    }
    opened.onerror = () => {
      if (opened.readyState !== CLOSED || source !== opened) return
      opened.close?.()
      setTimeout(() => source === opened && connect(), REOPEN_AFTER_MS)
    }
  }

  return {
    async invoke(method, input) {
      let response: Response
      try {
        response = await fetchImpl(`${base}/app-api/${encodeURIComponent(method)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token() ?? ''}` },
          body: JSON.stringify(input ?? {}),
        })
      } catch (error) {
        const message = `Cannot reach the Sitecall server: ${(error as Error).message}`
        return { ok: false, error: { code: 'unavailable', message } }
      }
      const body: unknown = await response.json().catch(() => null)
      if (isAppResult(body)) return body
      // Refusals before dispatch (auth, Host/Origin checks) use the REST envelope {error:{...}}.
      const error = (body as { error?: ErrorBody } | null)?.error
      if (error && typeof error.code === 'string') return { ok: false, error }
      const message = `HTTP ${response.status} from /app-api/${method}`
      return { ok: false, error: { code: 'internal', message } }
    },
    on(event, listener) {
      let set = listeners.get(event)
      if (!set) listeners.set(event, (set = new Set()))
      set.add(listener)
      if (!source) connect()
      return () => void set.delete(listener)
    },
  }
}

const TOKEN_KEY = 'sitecall.token'

/**
 * The owner token: from `?token=` on first load (then kept in sessionStorage and taken out of the
 * visible URL, so it is not bookmarked or shared by accident), else from sessionStorage.
 */
export function takeToken(): string | null {
  const params = new URLSearchParams(location.search)
  const fromUrl = params.get('token')
  if (!fromUrl) return sessionStorage.getItem(TOKEN_KEY)
  sessionStorage.setItem(TOKEN_KEY, fromUrl)
  params.delete('token')
  const query = params.toString()
  history.replaceState(null, '', `${location.pathname}${query ? `?${query}` : ''}${location.hash}`)
  return fromUrl
}

/**
 * Signs web mode in before the app renders: a start link's one-time `?code=` is traded for an
 * owner token (`POST /app-api/session/redeem`) and taken out of the visible URL; a tab opened
 * without a link asks for a token with the browser's session cookie (`POST
 * /app-api/session/resume`), so a person who signed in once can open the app in any tab.
 * Resolves either way; `hasOwnerSession` then tells whether it worked.
 */
export async function establishSession(
  fetchImpl: typeof fetch = fetch.bind(window),
): Promise<void> {
  if (window.sitecall) return
  const params = new URLSearchParams(location.search)
  const code = params.get('code')
  if (code) {
    params.delete('code')
    const query = params.toString()
    history.replaceState(
      null,
      '',
      `${location.pathname}${query ? `?${query}` : ''}${location.hash}`,
    )
  }
  if (!code && (params.get('token') || sessionStorage.getItem(TOKEN_KEY))) return
  const ask = (path: string, body?: unknown) =>
    fetchImpl(path, {
      method: 'POST',
      ...(body
        ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
        : {}),
    })
  try {
    let answer = code ? await ask('/app-api/session/redeem', { code }) : null
    // A spent code (a reload, the link opened twice) still signs in a browser that used it.
    if (!answer?.ok) answer = await ask('/app-api/session/resume')
    if (answer.ok)
      sessionStorage.setItem(TOKEN_KEY, ((await answer.json()) as { token: string }).token)
  } catch {
    // The service is not reachable: the signed-out page says how to get in.
  }
}

/** True when this page can reach the core: the desktop bridge, or an owner token in web mode. */
export function hasOwnerSession(): boolean {
  return Boolean(window.sitecall) || takeToken() !== null
}

/** Owner tokens last an hour (interface.md "Other time-bound states"): trade them well before that. */
const SESSION_REFRESH_MS = 20 * 60_000

/**
 * Keeps web mode's owner session alive: `POST /app-api/session/refresh` with the current token
 * at once (a reloaded page may hold a token near its end) and every 20 minutes; each fresh token
 * replaces `session.token` and goes to `save`. The answer also sets the consent page's cookie.
 * A failed refresh leaves the token as it is. Returns a function that stops the timer.
 */
export function keepSessionFresh(
  fetchImpl: typeof fetch,
  session: { token: string | null },
  options: { baseUrl?: string; everyMs?: number; save?: (token: string) => void } = {},
): () => void {
  const refresh = async () => {
    if (!session.token) return
    try {
      const response = await fetchImpl(`${options.baseUrl ?? ''}/app-api/session/refresh`, {
        method: 'POST',
        headers: { authorization: `Bearer ${session.token}` },
      })
      if (!response.ok) return
      const { token } = (await response.json()) as { token: string }
      session.token = token
      options.save?.(token)
    } catch {
      // Offline or restarting: the next tick tries again while the token lasts.
    }
  }
  void refresh()
  const timer = setInterval(() => void refresh(), options.everyMs ?? SESSION_REFRESH_MS)
  return () => clearInterval(timer)
}

export interface AppClient {
  invoke<M extends AppApiMethod>(method: M, input: AppApiInput<M>): Promise<AppApiResult<M>>
  on<E extends AppEventName>(event: E, listener: (data: AppEventMap[E]) => void): () => void
}

/** Types a transport by the contract and throws `AppError` for `{ok:false}` answers. */
export function createClient(transport: Transport): AppClient {
  return {
    async invoke(method, input) {
      const result = await transport.invoke(method, input)
      if (!result.ok) throw AppError.fromBody(result.error)
      return result.value as AppApiResult<typeof method>
    },
    on: (event, listener) => transport.on(event, listener as (data: unknown) => void),
  }
}

let client: AppClient | null = null
/** Web mode's owner token of the moment (kept fresh by `keepSessionFresh`). */
const session: { token: string | null } = { token: null }

// Picked on first use, not at import, so this module loads in Node tests without a window.
function current(): AppClient {
  if (!client) {
    session.token = window.sitecall ? null : takeToken()
    if (!window.sitecall)
      keepSessionFresh(fetch.bind(window), session, {
        save: (token) => sessionStorage.setItem(TOKEN_KEY, token),
      })
    client = createClient(
      window.sitecall ?? createHttpTransport(fetch.bind(window), () => session.token),
    )
  }
  return client
}

/**
 * Calls a method of the app contract (`src/shared/appApi.ts`); rejects with an `AppError` that
 * names the method. Listeners of {@link onInvokeSuccess} hear of each success.
 */
export async function invoke<M extends AppApiMethod>(
  method: M,
  input: AppApiInput<M>,
): Promise<AppApiResult<M>> {
  try {
    const value = await current().invoke(method, input)
    successListeners.forEach((listener) => listener(method))
    return value
  } catch (error) {
    if (error instanceof AppError) error.method = method
    throw error
  }
}

/** Subscribes to a push event of the contract; returns the unsubscribe function. */
export function on<E extends AppEventName>(
  event: E,
  listener: (data: AppEventMap[E]) => void,
): () => void {
  return current().on(event, listener)
}

/** How far a file's upload is: bytes sent of the file's size. */
export interface UploadProgress {
  sent: number
  total: number
}

/**
 * Web mode: streams `file` to `POST /app-api/har-upload` (the browser reads it from disk as it
 * sends) and reports progress as the bytes go out; resolves with the upload's id for
 * `recorder.importHar {uploadId}`. Rejects with an `AppError` (`payload_too_large` over the limit,
 * `unavailable` when the server cannot be reached).
 */
export function uploadHar(
  file: Blob,
  onProgress: (progress: UploadProgress) => void,
): Promise<{ uploadId: string; bytes: number }> {
  current()
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', '/app-api/har-upload')
    xhr.setRequestHeader('content-type', 'application/octet-stream')
    xhr.setRequestHeader('authorization', `Bearer ${session.token ?? ''}`)
    xhr.responseType = 'json'
    xhr.upload.onprogress = (event) =>
      onProgress({ sent: event.loaded, total: event.lengthComputable ? event.total : file.size })
    xhr.onerror = () =>
      reject(
        new AppError(
          'unavailable',
          'The file could not be sent: the Sitecall server is not reachable.',
        ),
      )
    xhr.onload = () => {
      const body = xhr.response as
        AppResult<{ uploadId: string; bytes: number }> | { error?: ErrorBody } | null
      if (body && 'ok' in body && body.ok) return resolve(body.value)
      const error = body && 'ok' in body ? body.error : body?.error
      reject(
        error
          ? AppError.fromBody(error)
          : new AppError('internal', `The upload was answered HTTP ${xhr.status}.`),
      )
    }
    xhr.send(file)
  })
}
