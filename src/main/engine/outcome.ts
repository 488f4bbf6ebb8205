import type { RunFailureCode } from '../../shared/errors'
import type { ResultShape, VerifyRule } from '../../shared/toolSpec'
import { extractEmbedded } from '../compiler/embeddedData'
import {
  isAcknowledgement,
  locationMatches,
  pageShowsValue,
  titleMatches,
} from '../verify/answerChecks'
import { classifyInBand, inBandError, pageErrorText } from './inBand'
import { readPage, type PageBarrier } from './pageView'
import { isPageAnswer, mediaType } from '../../shared/trace'
import { ownValue } from '../../shared/safeKeys'
import { safeUrl } from '../../shared/safeJson'

/** What the executor got back from the site for the target request. */
export interface SiteResponse {
  status: number
  headers: Record<string, string>
  body: string
  /** `body`'s UTF-8 bytes as received, when the executor kept them (valid UTF-8 only). */
  bytes?: Buffer
  /** Each `Set-Cookie` line apart (joined headers lose their boundaries: Expires has commas). */
  setCookies?: string[]
}

export type Outcome =
  | {
      ok: true
      result: unknown
      /**
       * The answer's JSON text when `result` is that whole answer, parsed once to be judged: the
       * run stores and answers these bytes instead of serializing the result again.
       */
      text?: string
      /** `text`'s UTF-8 bytes as the site sent them, when known. */
      bytes?: Buffer
    }
  | {
      ok: false
      code: RunFailureCode
      message: string
      signIn?: boolean
      /** The sign-in link made where the run ran (a team server's device); absent: made here. */
      signInUrl?: string
    }

/** The site's own wait after a 429 when it names none (interface.md "Limits": 60 seconds). */
const DEFAULT_RATE_LIMIT_WAIT_S = 60

/**
 * What a write that answers no data returns: the HTTP status, the redirect's
 * target (absolute), the text of a `text/plain` answer, the title of an HTML one, or the JSON
 * the site sent anyway.
 */
export interface Acknowledgement {
  status: number
  location?: string
  text?: string
  title?: string
  data?: unknown
}

/** A text acknowledgement is kept whole up to this many characters. */
const MAX_ACK_TEXT = 2000

/**
 * Judges a site's answer against the tool's declared outcome (interface.md "Why a run failed"; docs/architecture.md
 * §5 "Verified means verified": a 2xx alone is never a success). Order: HTTP status signals,
 * then the site's in-band errors (`verify.errorShapes`: a 200 that says `badtoken` fails with
 * the site's message), then the status range, then pages where data used to be (sign-in, bot
 * check, other HTML), then the JSON shape.
 * A document tool (`shape.kind === 'document'`: a page read, server-rendered data)
 * turns its HTML answer into `{data?, title, text, links}` (links resolved against `pageUrl`,
 * the URL the request went to) and judges that object instead.
 * An acknowledgement rule (`isAcknowledgement`: a write answering `204`, `text/plain "OK"`, an
 * HTML page or a redirect) is judged by status, media type and the redirect's Location path, and
 * returns an `Acknowledgement`; its body is never parsed as JSON when empty.
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
  const inBand = verify.errorShapes ? inBandError(response.body, verify.errorShapes) : null
  if (inBand) {
    const code = inBand.siteCode ? ` (${inBand.siteCode})` : ''
    const said = inBand.siteMessage ? `: ${inBand.siteMessage}` : ''
    return fail(
      inBand.code,
      sentence(`The site answered HTTP ${status} with an error${code}${said}`),
      inBand.code === 'session_or_permission',
    )
  }
  const mime = mediaType(response.headers['content-type'])
  const html =
    mime.includes('html') ||
    isPageAnswer(mime, response.body) ||
    /^\s*<(!doctype|html)/i.test(response.body)
  const ack = isAcknowledgement(verify, shape)
  if (status < verify.status[0] || status > verify.status[1]) {
    // A form answered with a page where it used to redirect: the page says why (a sign-in form,
    // DokuWiki's "Security Token did not match"); the write did not happen.
    if (ack && html && status < 300) return judgeFormAgain(response.body, verify, status, pageUrl)
    return fail(
      'upstream_error',
      `The site answered HTTP ${status}, outside ${verify.status.join('–')}.`,
    )
  }
  if (shape?.kind === 'document') return judgeDocument(response.body, html, verify, shape, pageUrl)
  if (shape?.kind === 'text') return judgeText(response.body, mime, html, verify)
  if (ack) return judgeAcknowledgement(response, verify, mime, html, pageUrl)
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
  const judged = judgeJson(json, verify)
  if (!judged.ok) return loginWallIn(json) ?? judged
  return response.bytes
    ? { ...judged, text: response.body, bytes: response.bytes }
    : { ...judged, text: response.body }
}

/**
 * A write's acknowledgement: a 3xx must go where the recorded one went (RFC 9110 §15.4: the
 * Location names the page that shows the result; `verify.redirect.path`, `*` for one segment); an
 * HTML page must not be a sign-in page, bot check or second-factor prompt, and only an HTML rule
 * takes one; another type must be the recorded one (status-only rules take any but a page).
 * A redirect to a sign-in page is caught before (httpExecutor's `signInRedirect`).
 */
function judgeAcknowledgement(
  response: SiteResponse,
  verify: VerifyRule,
  mime: string,
  html: boolean,
  pageUrl: string,
): Outcome {
  const result: Acknowledgement = { status: response.status }
  const location = response.headers.location
  if (response.status >= 300 && response.status < 400) {
    const target = location ? resolveUrl(location, pageUrl) : null
    if (verify.redirect && !target)
      return fail(
        'outcome_not_verified',
        `The site answered HTTP ${response.status} without a Location; it used to redirect to ${verify.redirect.path}.`,
      )
    if (verify.redirect && target && !locationMatches(verify.redirect.path, target.pathname))
      return fail(
        'outcome_not_verified',
        `The site redirected to ${target.pathname}, not to ${verify.redirect.path} as when recorded.`,
      )
    if (target) result.location = target.href
    return { ok: true, result }
  }
  const body = response.body
  if (html) {
    const { view, barrier } = readPage(body, pageUrl || 'http://localhost/')
    const blocked = barrierOutcome(barrier)
    if (blocked) return blocked
    // A page where the write used to answer nothing (204) or text is another answer: an error or
    // maintenance page rather than the acknowledgement.
    if (!verify.mimeType.includes('html'))
      return fail(
        'schema_or_auth_drift',
        `The site answered an HTML page "${view.title}" where it used to answer ${verify.mimeType === '*' ? 'no page' : verify.mimeType}: record the flow again.`,
      )
    const other = otherPage(verify, view.title, body)
    if (other) return other
    result.title = view.title
    return { ok: true, result }
  }
  if (verify.mimeType !== '*' && mime && mime !== verify.mimeType)
    return fail(
      'schema_or_auth_drift',
      `The site answered ${mime} where it used to answer ${verify.mimeType}: record the flow again.`,
    )
  // 204 No Content and 205 have no body (RFC 9110 §15.3.5, §15.3.6); any empty body is not JSON.
  if (!body.trim()) return { ok: true, result }
  try {
    result.data = JSON.parse(body)
  } catch {
    result.text = body.trim().slice(0, MAX_ACK_TEXT)
  }
  return { ok: true, result }
}

/**
 * Data in a text format (ToolSpec result `text`: an export): the same media type as recorded and
 * a body; the result is the whole text with its type. A page where the data was is no export.
 */
function judgeText(body: string, mime: string, html: boolean, verify: VerifyRule): Outcome {
  if (html && !verify.mimeType.includes('html')) {
    const { barrier } = readPage(body, 'http://localhost/')
    const blocked = barrierOutcome(barrier)
    if (blocked) return blocked
    return fail(
      'schema_or_auth_drift',
      `The site answered a page where ${verify.mimeType} data used to be.`,
    )
  }
  if (mime && verify.mimeType !== '*' && mime !== verify.mimeType)
    return fail(
      'schema_or_auth_drift',
      `The site answered ${mime} where it used to answer ${verify.mimeType}: record the flow again.`,
    )
  if (!body.trim()) return fail('outcome_not_verified', 'The site answered an empty body.')
  return { ok: true, result: { text: body, mimeType: mime || verify.mimeType } }
}

/** A quoted value in a message is cut here. */
const MAX_QUOTED = 80

/**
 * The read-back of a write acknowledged by a redirect ("a read that shows the
 * change"; `verify.redirect.shows`): the page at the Location (`pageUrl`), read after the write,
 * must be a 2xx page that is no sign-in page or other barrier and shows every one of `values`
 * (the run's inputs, `pageShowsValue`), as the recorded page showed what the person wrote. The
 * result is the acknowledgement with the page's title.
 */
export function judgeShown(
  ack: Acknowledgement,
  page: SiteResponse,
  values: string[],
  pageUrl: string,
): Outcome {
  const where = resolveUrl(pageUrl, '')?.pathname ?? pageUrl
  if (page.status === 401 || page.status === 403)
    return fail(
      'session_or_permission',
      `The site acknowledged the write but answered HTTP ${page.status} for ${where}: sign in or check permissions.`,
      true,
    )
  if (page.status < 200 || page.status >= 300)
    return fail(
      'outcome_not_verified',
      `The site acknowledged the write, but the page it redirected to (${where}) answered HTTP ${page.status}.`,
    )
  const { view, barrier } = readPage(page.body, pageUrl)
  const blocked = barrierOutcome(barrier)
  if (blocked) return blocked
  const missing = values.find((value) => !pageShowsValue(page.body, value))
  if (missing !== undefined) {
    const quoted = missing.length > MAX_QUOTED ? `${missing.slice(0, MAX_QUOTED)}…` : missing
    return fail(
      'outcome_not_verified',
      `The site redirected to ${where}, but that page does not show "${quoted}": the write is not verified.`,
    )
  }
  return { ok: true, result: { ...ack, title: view.title } }
}

/**
 * The page a form post answered instead of its recorded redirect: a sign-in form or other
 * barrier maps to its code; an error the page shows is quoted (a bad or expired token →
 * `session_or_permission`, a missing page → `not_found`); else the write is not verified.
 */
function judgeFormAgain(
  html: string,
  verify: VerifyRule,
  status: number,
  pageUrl: string,
): Outcome {
  const { view, barrier } = readPage(html, pageUrl || 'http://localhost/')
  const blocked = barrierOutcome(barrier)
  if (blocked) return blocked
  const error = pageErrorText(html)
  const expected = verify.redirect
    ? `a redirect to ${verify.redirect.path}`
    : verify.status.join('–')
  if (!error)
    return fail(
      'outcome_not_verified',
      `The site answered HTTP ${status} with the page "${view.title}" instead of ${expected}.`,
    )
  const code = classifyInBand(null, error)
  return fail(
    code === 'upstream_error' ? 'outcome_not_verified' : code,
    sentence(
      `The site answered HTTP ${status} with the page "${view.title}" instead of ${expected}: ${error}`,
    ),
    code === 'session_or_permission',
  )
}

/** Ends a message that quotes the site with one full stop, not two. */
function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`
}

/**
 * A write's answer page whose title is not the recorded one (`verify.title`): the site showed
 * another page (the form again, an error), so the write is not verified; an error the page shows
 * is quoted and decides the code (a bad token → `session_or_permission`, a missing page →
 * `not_found`). Null when the title matches or the rule names none.
 */
function otherPage(verify: VerifyRule, title: string, html: string): Outcome | null {
  if (verify.title === undefined || titleMatches(verify.title, title)) return null
  const error = pageErrorText(html)
  const code = error ? classifyInBand(null, error) : 'upstream_error'
  return fail(
    code === 'upstream_error' ? 'outcome_not_verified' : code,
    sentence(
      `The site answered the page "${title}", not "${verify.title}" as when recorded${error ? `: ${error}` : ''}`,
    ),
    code === 'session_or_permission',
  )
}

/** The failure a page barrier means (a bot check, a second factor, a sign-in page), or null. */
function barrierOutcome(
  barrier: PageBarrier,
  instead: 'answer' | 'page' = 'answer',
): Outcome | null {
  if (barrier === 'challenge')
    return fail('challenge', 'The site showed a bot check; rerun interactively.')
  if (barrier === 'mfa_required')
    return fail('mfa_required', 'The site asked for a second factor.', true)
  if (barrier === 'sign_in')
    return fail(
      'session_or_permission',
      `The site showed a sign-in page instead of the ${instead}.`,
      true,
    )
  return null
}

function resolveUrl(href: string, base: string): URL | null {
  return safeUrl(href, base || 'http://localhost/') ?? null
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
  const blocked = barrierOutcome(barrier, 'page')
  if (blocked) return blocked
  const other = otherPage(verify, view.title, body)
  if (other) return other
  const result: Record<string, unknown> = {}
  if (shape.data) {
    const data = extractEmbedded(body, shape.data)
    if (data !== undefined) result.data = data
  }
  if (shape.page) Object.assign(result, view)
  return judgeJson(result, verify)
}

/** Fields where JSON APIs say why they refused (JSON-RPC `error`, REST `message`, `detail`…). */
const ERROR_FIELD =
  /^(error|errors|message|msg|detail|reason|error_?description|error_?message|fault_?string|status_?message)$/i

/** The error texts a JSON answer holds in its error fields, two levels deep. */
function errorTexts(node: unknown, depth = 2): string[] {
  if (typeof node === 'string') return [node]
  if (!node || typeof node !== 'object' || depth < 0) return []
  if (Array.isArray(node)) return node.slice(0, 3).flatMap((n) => errorTexts(n, depth - 1))
  const texts: string[] = []
  for (const [key, value] of Object.entries(node as Record<string, unknown>))
    if (ERROR_FIELD.test(key) || key === 'code') texts.push(...errorTexts(value, depth - 1))
  return texts
}

/**
 * The failure of a JSON answer that refuses for want of a session (interface.md "Why a run failed":
 * `session_or_permission`), read from its error fields (`{"error":{"message":"Not
 * authenticated"}}`, `{"detail":"Authentication credentials were not provided."}`) by
 * `classifyInBand`'s words; null when it says nothing of a login. Where data was expected this is
 * a login wall, not drift: the site answers it when no login (or an expired one) was sent.
 */
export function loginWallIn(json: unknown): Extract<Outcome, { ok: false }> | null {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return null
  const said = errorTexts(json).find((t) => classifyInBand(null, t) === 'session_or_permission')
  if (!said) return null
  const quoted = said.length > MAX_QUOTED ? `${said.slice(0, MAX_QUOTED)}…` : said
  return {
    ok: false,
    code: 'session_or_permission',
    message: `The site refused for want of a login ("${quoted}"): sign in, then call again.`,
    signIn: true,
  }
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

/**
 * True when every value at `path` (dots, `[]` = each list item) exists with JSON type `type`.
 * Inside a list item a field that is present but `null` holds too: the records of one list fill
 * different fields (Jupyter's folder listing: a file's `mimetype` and `size`, a folder's null),
 * so the recorded items' types promise the field, not that every record fills it.
 */
export function holds(value: unknown, path: string, type: string): boolean {
  return holdsAt(value, partsOf(path), 0, type, false)
}

function holdsAt(v: unknown, parts: string[], i: number, type: string, inList: boolean): boolean {
  if (i === parts.length) return hasType(v, type) || (inList && v === null)
  const part = parts[i]!
  if (part === '[]') {
    if (!Array.isArray(v)) return false
    for (const item of v) if (!holdsAt(item, parts, i + 1, type, true)) return false
    return true
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v) || !Object.hasOwn(v, part))
    return false
  return holdsAt(ownValue(v, part), parts, i + 1, type, inList)
}

/** Split verify paths by path text: a tool's few paths are split once, not on every run. */
const splitPaths = new Map<string, string[]>()
/** Past this many paths the cache starts over (paths come from tool specs; this bounds it). */
const MAX_SPLIT_PATHS = 10_000

function partsOf(path: string): string[] {
  let parts = splitPaths.get(path)
  if (!parts) {
    parts = path
      .split('.')
      .flatMap((p) => (p.endsWith('[]') ? [p.slice(0, -2), '[]'] : [p]))
      .filter(Boolean)
    if (splitPaths.size >= MAX_SPLIT_PATHS) splitPaths.clear()
    splitPaths.set(path, parts)
  }
  return parts
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
