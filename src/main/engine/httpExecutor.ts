import { request } from 'undici'
import type { ToolSpec } from '../../shared/toolSpec'
import { judgeResponse, type Outcome, type SiteResponse } from './outcome'
import { renderRequest, type RenderedRequest, type TemplateScope } from './template'

/** Sends one rendered request; injectable so tests and benchmarks can count or fault it. */
export type SendRequest = (req: RenderedRequest, signal: AbortSignal) => Promise<SiteResponse>

/** Errors raised before any byte left (the write cannot have landed), per undici's codes. */
const NOT_SENT = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|UND_ERR_CONNECT_TIMEOUT|EHOSTUNREACH|ENETUNREACH/

/**
 * Sends a request with undici. Redirects are not followed: a 3xx is the site's answer, and a
 * redirect must not carry a request somewhere the destination check did not see.
 */
export const sendWithUndici: SendRequest = async (req, signal) => {
  const res = await request(req.url, {
    method: req.method as 'GET',
    headers: req.headers,
    body: req.body ?? undefined,
    signal,
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
  })
  const headers: Record<string, string> = {}
  for (const [k, v] of Object.entries(res.headers))
    if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v
  return { status: res.statusCode, headers, body: await res.body.text() }
}

export type ExecutionOutcome = Outcome | { ok: false; code: 'outcome_unknown'; message: string }

/**
 * Runs a tool's steps over HTTP (DESIGN.md §1 "executor (http)"): renders each step, checks its
 * destination, sends it, and judges the last answer against `verify`. A read that fails on the
 * network is retried once; a write whose answer was lost is `outcome_unknown`, never retried.
 */
export async function executeHttp(
  tool: ToolSpec,
  scope: TemplateScope,
  send: SendRequest,
  signal: AbortSignal,
): Promise<ExecutionOutcome> {
  const last = tool.steps[tool.steps.length - 1]
  if (!last) return { ok: false, code: 'outcome_not_verified', message: 'The tool has no steps.' }
  const rendered = renderRequest(last.request, scope)
  const denied = destinationDenied(rendered.url, tool.siteHost)
  if (denied) return { ok: false, code: 'destination_denied', message: denied }
  let response: SiteResponse
  try {
    response = await sendOnce(rendered, send, signal, !tool.mutating)
  } catch (error) {
    const text = describe(error)
    if (tool.mutating && !NOT_SENT.test(text))
      return {
        ok: false,
        code: 'outcome_unknown',
        message: `The write may have landed; its answer was lost (${text}).`,
      }
    return { ok: false, code: 'network_error', message: `The site could not be reached: ${text}.` }
  }
  return judgeResponse(response, tool.verify)
}

async function sendOnce(
  req: RenderedRequest,
  send: SendRequest,
  signal: AbortSignal,
  retry: boolean,
): Promise<SiteResponse> {
  try {
    return await send(req, signal)
  } catch (error) {
    if (!retry || signal.aborted) throw error
    return send(req, signal)
  }
}

/** Why a URL may not be sent for a tool of `siteHost`, or null (DESIGN.md §5 outbound checks). */
export function destinationDenied(url: string, siteHost: string): string | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return `"${url}" is not a URL.`
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return `${parsed.protocol} is not allowed.`
  if (parsed.host !== siteHost) return `${parsed.host} is outside the tool's site ${siteHost}.`
  return null
}

function describe(error: unknown): string {
  const e = error as { code?: string; cause?: { code?: string }; message?: string }
  return [e.code, e.cause?.code, e.message].filter(Boolean).join(' ') || String(error)
}
