import { bindStepSecrets } from '../vault'
import type { BrowserContext, Page, Response } from 'playwright-core'
import type { ResultShape, ToolSpec, ToolStep } from '../../shared/toolSpec'
import type { BrowserPool } from './browserPool'
import { isBrowserCapacityError } from './browserSlots'
import {
  destinationDenied,
  generatedFor,
  loginScope,
  readDependency,
  signInRedirect,
  type ExecutionOutcome,
  type RunContext,
} from './httpExecutor'
import { filterResult } from './extract'
import { toolSiteCheck } from './destination'
import { sharedGuardProxy, type GuardProxy } from './guardProxy'
import {
  judgeResponse,
  judgeShown,
  type Acknowledgement,
  type Outcome,
  type SiteResponse,
} from './outcome'
import { readPage } from './pageView'
import type { RenderedExecutor } from './runEngine'
import {
  renderOrRefuse,
  renderRequest,
  shownValues,
  secretNames,
  type RenderedRequest,
  type RenderedUpload,
  type TemplateScope,
} from './template'

/** A page load's limit (over 30 s is `render_failed`). */
const PAGE_LOAD_TIMEOUT_MS = 30_000
/** How long a loaded page may keep fetching before it is read anyway. */
const NETWORK_IDLE_TIMEOUT_MS = 5_000
/** How long a bot check may take to clear itself within the page-load limit. */
const CHALLENGE_BUDGET_MS = 15_000

export interface RenderedExecutorOptions {
  pool: BrowserPool<BrowserContext>
  /** Page-load limit in ms; default 30,000. */
  pageLoadTimeoutMs?: number
  /** Bound on waiting for network idle after load, in ms; default 5,000. */
  networkIdleTimeoutMs?: number
  /** Queue for a browser slot when all are busy (503 after the wait) or refuse at once (429). */
  wait?: boolean
  /**
   * The guard proxy every request of a run's page goes through: loopback,
   * private and link-local addresses only for a tool of a local site, metadata never; default
   * the process's own (`sharedGuardProxy`).
   */
  guardProxy?: () => Promise<GuardProxy>
}

/** A failure that also says how long to stay away and whether the call queued first. */
type CapacityOutcome = Extract<Outcome, { ok: false }> & {
  retryAfterSeconds: number
  waited: boolean
}

/** Request headers a page's `fetch` may not set (Fetch standard "forbidden request-header"). */
const FORBIDDEN_HEADER =
  /^(cookie|cookie2|host|content-length|connection|keep-alive|origin|referer|te|trailer|transfer-encoding|upgrade|via|date|expect|dnt|accept-charset|accept-encoding|access-control-request-[a-z-]+|sec-[a-z-]+|proxy-[a-z-]+)$/i

/**
 * Creates the rendered executor (docs/architecture.md "executor (rendered)"): runs a tool in a
 * fresh context of the pooled Chromium holding the login's storage state. A GET page read (a
 * document tool, or a GET whose verify expects HTML) navigates to the URL, lets scripts and bot
 * checks settle (network idle, bounded), and judges the rendered DOM like the HTTP path judges
 * an answer. Any other target, and every dependency step, runs as `fetch` inside a page of the
 * site's origin, so the browser's cookies and same-origin rules apply. Every URL is checked
 * against the tool's site before it is requested, and a main-frame navigation off the site
 * (a redirect included) is blocked. Failures: all slots busy → `browser_capacity` (with
 * `retryAfterSeconds` and `waited`); a page load over 30 s or a browser that cannot start →
 * `render_failed`; an unreachable site → `network_error`; a write whose answer was lost →
 * `outcome_unknown`. An aborted signal rejects with its reason.
 */
export function createRenderedExecutor(options: RenderedExecutorOptions): RenderedExecutor {
  const loadTimeout = options.pageLoadTimeoutMs ?? PAGE_LOAD_TIMEOUT_MS
  const idleTimeout = options.networkIdleTimeoutMs ?? NETWORK_IDLE_TIMEOUT_MS
  return async (tool, inputs, context, signal) => {
    const target = tool.steps[tool.steps.length - 1]
    if (!target)
      return { ok: false, code: 'outcome_not_verified', message: 'The tool has no steps.' }
    const login = loginScope(tool.login, context.login)
    if (!login.ok) return login.outcome
    const scope: TemplateScope = { ...inputs, ...login.scope, ...generatedFor(tool) }
    const first = renderRequest(tool.steps[0]!.request, scope)
    const denied = destinationDenied(first.url, tool.siteHost)
    if (denied) return { ok: false, code: 'destination_denied', message: denied }

    // Every request the page makes, redirects and scripts' own included, connects through the
    // guard: the address actually connected is the one checked.
    const denials: Array<{ host: string; reason: string }> = []
    const guarded = (await (options.guardProxy ?? sharedGuardProxy)()).settingsFor(
      toolSiteCheck(tool.siteHost),
      (host, reason) => denials.push({ host, reason }),
    )
    // A site behind HTTP authentication: the browser answers its challenge with the saved login;
    // Basic goes with every request to the site's origin, as the recorded requests carried it.
    const httpAuth = tool.login?.httpAuth
    const credentials = httpAuth ? await context.httpCredentials?.() : null
    let lease
    try {
      lease = await options.pool.acquire(signal, {
        wait: options.wait ?? true,
        storageState: context.login,
        proxy: guarded.proxy,
        ...(credentials
          ? {
              httpCredentials: {
                ...credentials,
                origin: new URL(first.url).origin,
                ...(httpAuth?.scheme === 'basic' ? { send: 'always' as const } : {}),
              },
            }
          : {}),
      })
    } catch (error) {
      guarded.release()
      if (signal.aborted) throw signal.reason
      return leaseFailure(error)
    }
    const page = await lease.context.newPage()
    const stop = () => void page.close().catch(() => {})
    signal.addEventListener('abort', stop, { once: true })
    try {
      const run = new PageRun(page, tool.siteHost, loadTimeout, idleTimeout)
      await run.guard()
      const outcome = await runSteps(run, tool, target, scope, context, signal)
      // A run that failed because the guard refused its site, or a destination its steps
      // needed, says so (the site's own answer would be the proxy's 403).
      const site = new URL(first.url)
      const siteAt = `${site.hostname}:${site.port || (site.protocol === 'https:' ? 443 : 80)}`
      const denied = denials.find((d) => d.host === siteAt) ?? denials[0]
      if (
        !outcome.ok &&
        denied &&
        (denied.host === siteAt ||
          outcome.code === 'network_error' ||
          outcome.code === 'render_failed')
      )
        return { ok: false, code: 'destination_denied', message: denied.reason }
      return outcome
    } catch (error) {
      if (signal.aborted) throw signal.reason
      return {
        ok: false,
        code: 'render_failed',
        message: `The browser failed: ${firstLine(error)}`,
      }
    } finally {
      signal.removeEventListener('abort', stop)
      await lease.release()
      guarded.release()
    }
  }
}

async function runSteps(
  run: PageRun,
  tool: ToolSpec,
  target: ToolStep,
  scope: TemplateScope,
  context: RunContext,
  signal: AbortSignal,
): Promise<ExecutionOutcome> {
  const shape = pageReadShape(tool, target)
  const fetches = shape ? tool.steps.length - 1 : tool.steps.length
  if (fetches > 0) {
    // Same-origin first: the site's cookies (a bot check's clearance among them) then apply.
    const origin = new URL(renderRequest(tool.steps[0]!.request, scope).url).origin
    const opened = await run.open(`${origin}/`, 'enter')
    if (!opened.ok) return opened.outcome
    if (readPage(opened.html, opened.url).barrier === 'challenge')
      return judgeResponse(opened.response, tool.verify, shape ?? undefined, opened.url)
  }
  for (const step of tool.steps) {
    // As over HTTP: secrets enter this step only, and only toward the hosts they are bound to.
    const secrets = await bindStepSecrets(secretNames(step.request), context.secrets)
    if (!secrets.ok) return secrets
    const request = renderOrRefuse(step.request, { ...scope, ...secrets.scope })
    if ('ok' in request) return request
    const denied = destinationDenied(request.url, tool.siteHost)
    if (denied) return { ok: false, code: 'destination_denied', message: denied }
    const leak = secrets.deniedAt(request.url)
    if (leak) return leak
    if (step === target && shape) {
      const opened = await run.open(request.url, 'render')
      context.onSent?.({
        method: 'GET',
        url: request.url,
        status: opened.ok ? opened.response.status : null,
      })
      if (!opened.ok) return opened.outcome
      return judgeResponse(opened.response, tool.verify, shape, opened.url)
    }
    const writes = step === target && tool.mutating
    const fetched = await run.fetch(request, writes)
    context.onSent?.({
      method: request.method,
      url: request.url,
      status: fetched.ok ? fetched.response.status : null,
    })
    if (signal.aborted) throw signal.reason
    if (!fetched.ok) return fetched.outcome
    if (step !== target) {
      const failed = readDependency(step, fetched.response, scope)
      if (failed) return failed
      continue
    }
    const response = asRedirect(fetched.response, tool.verify.redirect !== undefined)
    const redirect = signInRedirect(response, tool.verify.redirect)
    if (redirect) return redirect
    const judged = judgeResponse(response, tool.verify, tool.result, request.url)
    // The page the fetch followed the redirect to is the read-back: it must show the values.
    const values = shownValues(step.request, request, tool.verify.redirect?.shows ?? [])
    if (judged.ok && values.length && fetched.response.redirected) {
      const { finalUrl, ...page } = fetched.response
      return judgeShown(judged.result as Acknowledgement, page, values, finalUrl)
    }
    // A search the page did on its data is redone on the answer.
    return filterResult(judged, tool.result, scope)
  }
  return { ok: false, code: 'outcome_not_verified', message: 'The tool has no target step.' }
}

/**
 * A page's `fetch` follows redirects (with `redirect: 'manual'` it sees an opaque answer without
 * its Location), so a target whose rule expects a redirect (Post/Redirect/Get) is shown
 * the redirect it followed: a 302 to the final URL. The original 3xx status is not visible to a
 * page; any 3xx passes such a rule (RFC 9110 §15.4), so 302 stands for it.
 */
function asRedirect(response: FetchedResponse, expectsRedirect: boolean): SiteResponse {
  const { finalUrl, redirected, ...plain } = response
  if (!expectsRedirect || !redirected) return plain
  return { status: 302, headers: { location: finalUrl }, body: '', setCookies: plain.setCookies }
}

/**
 * How the target's page becomes the result when the target is a page read: the tool's document
 * shape, or the page view for a GET whose verify rule expects HTML; null for a data request.
 */
function pageReadShape(tool: ToolSpec, target: ToolStep): ResultShape | null {
  if (target.request.method.toUpperCase() !== 'GET' || target.request.body) return null
  if (tool.result?.kind === 'document') return tool.result
  if (/html/i.test(tool.verify.mimeType)) return { kind: 'document', page: true }
  return null
}

type Opened =
  { ok: true; response: SiteResponse; html: string; url: string } | { ok: false; outcome: Outcome }
/** A fetch's answer, with where its redirects (followed by the page) ended. */
type FetchedResponse = SiteResponse & { finalUrl: string; redirected: boolean }
type Fetched = { ok: true; response: FetchedResponse } | { ok: false; outcome: ExecutionOutcome }

/** One page of one run: navigation with its limits, and `fetch` from inside the page. */
class PageRun {
  private document: Response | null = null
  private blocked: string | null = null

  constructor(
    private readonly page: Page,
    private readonly siteHost: string,
    private readonly loadTimeout: number,
    private readonly idleTimeout: number,
  ) {
    page.on('response', (response) => {
      if (response.request().isNavigationRequest() && response.frame() === page.mainFrame())
        this.document = response
    })
  }

  /** Blocks main-frame navigations off the tool's site: redirects are not checked otherwise. */
  async guard(): Promise<void> {
    await this.page.route('**/*', async (route) => {
      const request = route.request()
      const denied = destinationDenied(request.url(), this.siteHost)
      if (denied && request.isNavigationRequest() && request.frame() === this.page.mainFrame()) {
        this.blocked = denied
        return route.abort('blockedbyclient')
      }
      return route.fallback()
    })
  }

  /**
   * Loads `url` in the page. `render` waits until its scripts settle (the load event, then
   * network idle, bounded); `enter` only needs the document (the origin a fetch runs from).
   * Either way, while a bot check shows, waits for the load its script causes (bounded).
   */
  async open(url: string, mode: 'render' | 'enter'): Promise<Opened> {
    const deadline = Date.now() + this.loadTimeout
    try {
      const waitUntil = mode === 'render' ? 'load' : 'domcontentloaded'
      const loaded = await this.page.goto(url, { timeout: this.loadTimeout, waitUntil })
      // The guard proxy's own answer when the site could not be reached (proxy-chain's 59x).
      if (loaded && loaded.status() >= 590 && loaded.status() <= 599)
        return {
          ok: false,
          outcome: {
            ok: false,
            code: 'network_error',
            message: `The site could not be reached: ${loaded.statusText() || loaded.status()}.`,
          },
        }
      if (mode === 'render') await this.idle(deadline)
      let html = await this.content(deadline)
      const challengeEnd = Math.min(deadline, Date.now() + CHALLENGE_BUDGET_MS)
      while (readPage(html, this.page.url()).barrier === 'challenge' && Date.now() < challengeEnd) {
        await this.page.waitForTimeout(100)
        await this.page.waitForLoadState('load', { timeout: remaining(challengeEnd) })
        await this.idle(challengeEnd)
        html = await this.content(deadline)
      }
      const response: SiteResponse = {
        status: this.document?.status() ?? 200,
        headers: { ...(this.document?.headers() ?? {}), 'content-type': 'text/html' },
        body: html,
      }
      return { ok: true, response, html, url: this.page.url() }
    } catch (error) {
      return { ok: false, outcome: this.loadFailure(url, error) }
    }
  }

  /** Sends one request with the page's `fetch` (the browser adds cookies and origin). */
  async fetch(request: RenderedRequest, writes: boolean): Promise<Fetched> {
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(([name]) => !FORBIDDEN_HEADER.test(name)),
    )
    const answer = await this.page.evaluate(
      async ({ method, url, headers, body, upload, timeoutMs }) => {
        try {
          // A file body crosses into the page as base64 and is sent as bytes or a FormData.
          let sent: BodyInit | undefined = body ?? undefined
          if (upload?.kind === 'binary')
            sent = Uint8Array.from(atob(upload.bytes), (c) => c.charCodeAt(0))
          else if (upload) {
            const form = new FormData()
            for (const part of upload.parts)
              if (part.bytes === undefined) form.append(part.name, part.value ?? '')
              else {
                const bytes = Uint8Array.from(atob(part.bytes), (c) => c.charCodeAt(0))
                form.append(part.name, new Blob([bytes], { type: part.contentType }), part.filename)
              }
            sent = form
          }
          const res = await fetch(url, {
            method,
            headers,
            body: sent,
            credentials: 'include',
            signal: AbortSignal.timeout(timeoutMs),
          })
          const seen: Record<string, string> = {}
          res.headers.forEach((value, name) => (seen[name] = value))
          return {
            ok: true as const,
            status: res.status,
            headers: seen,
            body: await res.text(),
            url: res.url,
            redirected: res.redirected,
          }
        } catch (error) {
          const e = error as { name?: string; message?: string }
          return {
            ok: false as const,
            error: `${e.name ?? 'Error'}: ${e.message ?? String(error)}`,
          }
        }
      },
      { ...request, headers, upload: pageUpload(request.upload), timeoutMs: this.loadTimeout },
    )
    if (!answer.ok) {
      if (writes)
        return {
          ok: false,
          outcome: {
            ok: false,
            code: 'outcome_unknown',
            message: `The write may have landed; its answer was lost (${answer.error}).`,
          },
        }
      return {
        ok: false,
        outcome: {
          ok: false,
          code: 'network_error',
          message: `The site could not be reached: ${answer.error}.`,
        },
      }
    }
    const offSite = destinationDenied(answer.url, this.siteHost)
    if (offSite)
      return {
        ok: false,
        outcome: {
          ok: false,
          code: 'destination_denied',
          message: `A redirect left the site: ${offSite}`,
        },
      }
    // A page's fetch never sees Set-Cookie; the context's jar holds what the answer set.
    const cookies = await this.page.context().cookies(answer.url)
    return {
      ok: true,
      response: {
        status: answer.status,
        headers: answer.headers,
        body: answer.body,
        setCookies: cookies.map((c) => `${c.name}=${c.value}`),
        finalUrl: answer.url,
        redirected: answer.redirected,
      },
    }
  }

  private async idle(deadline: number): Promise<void> {
    const timeout = Math.min(this.idleTimeout, remaining(deadline))
    // A page that polls forever never goes idle; it is read as it stands then.
    await this.page.waitForLoadState('networkidle', { timeout }).catch(() => {})
  }

  /** The DOM as HTML; while a script navigates, waits for the next document and reads that. */
  private async content(deadline: number): Promise<string> {
    for (;;) {
      try {
        return await this.page.content()
      } catch (error) {
        if (!/navigat|context was destroyed/i.test(String(error)) || Date.now() >= deadline)
          throw error
        await this.page.waitForLoadState('load', { timeout: remaining(deadline) })
      }
    }
  }

  private loadFailure(url: string, error: unknown): Outcome {
    const text = firstLine(error)
    if (this.blocked) return { ok: false, code: 'destination_denied', message: this.blocked }
    if ((error as Error).name === 'TimeoutError')
      return {
        ok: false,
        code: 'render_failed',
        message: `${url} did not finish loading within ${Math.round(this.loadTimeout / 1000)} s.`,
      }
    if (
      /net::ERR_(CONNECTION|NAME_NOT_RESOLVED|ADDRESS|INTERNET|NETWORK|TIMED_OUT|EMPTY_RESPONSE|TUNNEL_CONNECTION_FAILED|PROXY_CONNECTION_FAILED)/.test(
        text,
      )
    )
      return {
        ok: false,
        code: 'network_error',
        message: `The site could not be reached: ${text}.`,
      }
    return { ok: false, code: 'render_failed', message: `The page could not be rendered: ${text}` }
  }
}

function leaseFailure(error: unknown): ExecutionOutcome {
  if (isBrowserCapacityError(error)) {
    const outcome: CapacityOutcome = {
      ok: false,
      code: 'browser_capacity',
      message: error.message,
      retryAfterSeconds: error.retryAfterSeconds,
      waited: error.waited,
    }
    return outcome
  }
  return {
    ok: false,
    code: 'render_failed',
    message: `No browser could start: ${firstLine(error)}`,
  }
}

function remaining(deadline: number): number {
  return Math.max(1, deadline - Date.now())
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!
}

/** A file body in a form the page's `evaluate` can take: bytes as base64 text. */
function pageUpload(upload: RenderedUpload | undefined):
  | { kind: 'binary'; bytes: string }
  | {
      kind: 'multipart'
      parts: Array<{
        name: string
        value?: string
        filename?: string
        contentType?: string
        bytes?: string
      }>
    }
  | null {
  if (!upload) return null
  const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64')
  if (upload.kind === 'binary') return { kind: 'binary', bytes: base64(upload.bytes) }
  return {
    kind: 'multipart',
    parts: upload.parts.map((part) =>
      'value' in part ? part : { ...part, bytes: base64(part.bytes) },
    ),
  }
}
