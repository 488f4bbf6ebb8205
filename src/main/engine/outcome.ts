import type { RunFailureCode } from '../../shared/errors'
import type { ResultShape, VerifyRule } from '../../shared/toolSpec'
import { extractEmbedded } from '../compiler/embeddedData'
import { readPage } from './pageView'

/** What the executor got back from the site for the target request. */
export interface SiteResponse {
  status: number
  headers: Record<string, string>
  body: string
  /** Each `Set-Cookie` line apart (joined headers lose their boundaries: Expires has commas). */
  setCookies?: string[]
}

export type Outcome =
  | { ok: true; result: unknown }
  | { ok: false; code: RunFailureCode; message: string; signIn?: boolean }

/** The site's own wait after a 429 when it names none (spec "Limits": 60 seconds). */
export const DEFAULT_RATE_LIMIT_WAIT_S = 60

/**
 * Judges a site's answer against the tool's declared outcome (spec "Why a run failed"; DESIGN.md
 * §5 "Verified means verified": a 2xx alone is never a success). Order: HTTP status signals,
 * then pages where data used to be (sign-in, bot check, other HTML), then the JSON shape.
 * A document tool (`shape.kind === 'document'`, issue 3 "Page reads", "Server-rendered data")
 * turns its HTML answer into `{data?, title, text, links}` (links resolved against `pageUrl`,
 * the URL the request went to) and judges that object instead.
 */
export function judgeResponse(
  response: SiteResponse,
  verify: VerifyRule,
  shape?: ResultShape,
  pageUrl = '',
): Outcome {
  const { status } = response
  // A CDN's bot check answers 403 or 503 with an interstitial (Cloudflare marks it with
  // `cf-mitigated: challenge`): a browser passes it, so it is no missing login.
  if (
    (status === 403 || status === 503) &&
    (response.headers['cf-mitigated'] === 'challenge' ||
      readPage(response.body, pageUrl || 'http://localhost/').barrier === 'challenge')
  )
    return fail('challenge', 'The site showed a bot check; rerun interactively.')
  if (status === 401 || status === 403)
    return fail(
      'session_or_permission',
      `The site answered HTTP ${status}: sign in or check permissions.`,
      true,
    )
  if (status === 429) {
    const wait = retryAfterSeconds(response.headers['retry-after']) ?? DEFAULT_RATE_LIMIT_WAIT_S
    return fail('rate_limited', `The site is rate limiting: wait ${wait} s before calling again.`)
  }
  if (status === 404 || status === 410)
    return fail('not_found', `The site answered HTTP ${status} for these inputs.`)
  if (status >= 500) return fail('upstream_error', `The site failed with HTTP ${status}.`)
  if (status < verify.status[0] || status > verify.status[1])
    return fail(
      'upstream_error',
      `The site answered HTTP ${status}, outside ${verify.status.join('–')}.`,
    )
  const mime = (response.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
  const html = mime.includes('html') || /^\s*<(!doctype|html)/i.test(response.body)
  if (shape?.kind === 'document') return judgeDocument(response.body, html, verify, shape, pageUrl)
  if (html) return judgePage(response.body)
  let json: unknown
  try {
    json = JSON.parse(response.body)
  } catch {
    if (!response.body.trim())
      return fail('outcome_not_verified', 'The site answered an empty body.')
    return fail(
      'schema_or_auth_drift',
      `The site answered ${mime || 'something'} that is not JSON where data used to be.`,
    )
  }
  return judgeJson(json, verify)
}

function judgePage(html: string): Outcome {
  if (/captcha|cf-challenge|are you a robot|verify you are human|challenge-platform/i.test(html))
    return fail('challenge', 'The site showed a bot check; rerun interactively.')
  if (
    /one-time code|two-factor|2fa|verification code|authenticator/i.test(html) &&
    /<input/i.test(html)
  )
    return fail('mfa_required', 'The site asked for a second factor.', true)
  if (/type=["']?password|<title>[^<]*(sign|log)\s?in/i.test(html))
    return fail('session_or_permission', 'The site showed a sign-in page instead of data.', true)
  return fail(
    'schema_or_auth_drift',
    'The site answered an HTML page where data used to be: record the flow again.',
  )
}

/**
 * A document tool's answer: a page that blocks (bot check, second factor, sign-in form) maps to
 * its failure code; any other page becomes the result object, judged by the verify rule.
 */
function judgeDocument(
  body: string,
  html: boolean,
  verify: VerifyRule,
  shape: Extract<ResultShape, { kind: 'document' }>,
  pageUrl: string,
): Outcome {
  if (!html)
    return fail(
      'schema_or_auth_drift',
      'The site answered something other than a page: record the flow again.',
    )
  const { view, barrier } = readPage(body, pageUrl)
  if (barrier === 'challenge')
    return fail('challenge', 'The site showed a bot check; rerun interactively.')
  if (barrier === 'mfa_required')
    return fail('mfa_required', 'The site asked for a second factor.', true)
  if (barrier === 'sign_in')
    return fail(
      'session_or_permission',
      'The site showed a sign-in page instead of the page.',
      true,
    )
  const result: Record<string, unknown> = {}
  if (shape.data) {
    const data = extractEmbedded(body, shape.data)
    if (data !== undefined) result.data = data
  }
  if (shape.page) Object.assign(result, view)
  return judgeJson(result, verify)
}

function judgeJson(json: unknown, verify: VerifyRule): Outcome {
  const empty =
    json === null ||
    json === '' ||
    (Array.isArray(json) && !json.length) ||
    (typeof json === 'object' && !Array.isArray(json) && !Object.keys(json).length)
  if (empty && verify.required.length)
    return fail('outcome_not_verified', 'The site answered an empty result.')
  const topLevel = verify.required.filter((r) => !r.path.includes('.') && !r.path.includes('['))
  const failures = verify.required.filter((r) => !holds(json, r.path, r.type))
  if (!failures.length) return { ok: true, result: json }
  if (topLevel.length && topLevel.every((r) => failures.includes(r)))
    return fail(
      'schema_or_auth_drift',
      `The answer has another shape: none of ${topLevel.map((r) => r.path).join(', ')} is there.`,
    )
  return fail(
    'outcome_not_verified',
    `Promised fields missing or of another type: ${failures.map((f) => `${f.path} (${f.type})`).join(', ')}.`,
  )
}

/** True when every value at `path` (dots, `[]` = each list item) exists with JSON type `type`. */
export function holds(value: unknown, path: string, type: string): boolean {
  const parts = path
    .split('.')
    .flatMap((p) => (p.endsWith('[]') ? [p.slice(0, -2), '[]'] : [p]))
    .filter(Boolean)
  const walk = (v: unknown, i: number): boolean => {
    if (i === parts.length) return hasType(v, type)
    const part = parts[i]!
    if (part === '[]') return Array.isArray(v) && v.every((item) => walk(item, i + 1))
    if (v === null || typeof v !== 'object' || Array.isArray(v) || !(part in v)) return false
    return walk((v as Record<string, unknown>)[part], i + 1)
  }
  return walk(value, 0)
}

function hasType(v: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(v)
    case 'number':
      return typeof v === 'number'
    case 'array':
      return Array.isArray(v)
    case 'object':
      return v !== null && typeof v === 'object' && !Array.isArray(v)
    case 'null':
      return v === null
    default:
      return typeof v === type
  }
}

/** Seconds from a Retry-After header: delta-seconds or an HTTP-date (RFC 9110 §10.2.3). */
export function retryAfterSeconds(header: string | undefined, now = Date.now()): number | null {
  if (!header) return null
  if (/^\d+$/.test(header.trim())) return Number(header.trim())
  const date = Date.parse(header)
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000))
}

function fail(code: RunFailureCode, message: string, signIn = false): Outcome {
  return { ok: false, code, message, ...(signIn ? { signIn } : {}) }
}
