import { load } from 'cheerio'
import type { RunFailureCode } from '../../shared/errors'
import type { ErrorShape } from '../../shared/toolSpec'
import { matchErrorShape } from '../verify/errorShapes'

/** An error the site answered inside a successful status, with the failure it means. */
export interface InBandError {
  code: Extract<
    RunFailureCode,
    'session_or_permission' | 'not_found' | 'rate_limited' | 'upstream_error'
  >
  /** The site's own error code (`badtoken`, `-1`), when it gave one. */
  siteCode: string | null
  /** The site's own message (`Invalid CSRF token.`), when it gave one. */
  siteMessage: string | null
}

/** Page messages are quoted into run errors; a page of text is no message. */
const MAX_MESSAGE = 300

/**
 * The first of `shapes` the answer `body` matches (action APIs answer errors as
 * HTTP 200; the matching is `matchErrorShape`), or null, with the failure it means: the shape's
 * own, else told from the site's code and message (`classifyInBand`).
 */
export function inBandError(body: string, shapes: ErrorShape[]): InBandError | null {
  const found = matchErrorShape(body, shapes)
  if (!found) return null
  return {
    code: found.shape.failure ?? classifyInBand(found.siteCode, found.siteMessage),
    siteCode: found.siteCode,
    siteMessage: found.siteMessage,
  }
}

const RATE = /rate.?limit|too many requests|throttl/i
// MediaWiki: badtoken, notloggedin, assertuserfailed, permissiondenied, readapidenied, blocked;
// WordPress: rest_cookie_invalid_nonce, rest_forbidden; Rails/Django: CSRF, authenticity token.
// JSON-RPC apps (Deluge: "Not authenticated"), REST "authentication required".
const SESSION =
  /token|csrf|xsrf|nonce|log(?:ged)?.?in|sign(?:ed)?.?in|session|unauthori[sz]ed|un-?authenticated|not.?authenticated|authentication.?(?:required|failed|needed)|\bcredentials\b|forbidden|permission|denied|not.?allowed|assert\w*failed|blocked/i
// MediaWiki: missingtitle, nosuchpageid, nosuchrevid, nosuchuser; REST-ish: not_found.
const NOT_FOUND =
  /not.?found|no.?such|missing.?(?:title|page|file|item|record|post|user|revision)|does ?n[o']?t exist|nonexistent/i

/**
 * The failure code of an in-band error (interface.md "Why a run failed"): a bad or expired token, a
 * missing login or permission → `session_or_permission`; a missing page or record → `not_found`;
 * a rate limit → `rate_limited`; anything else → `upstream_error`. The site's code decides when
 * it says something; its message only when the code does not.
 */
export function classifyInBand(code: string | null, message: string | null): InBandError['code'] {
  for (const text of [code, message]) {
    if (!text) continue
    if (RATE.test(text)) return 'rate_limited'
    if (SESSION.test(text)) return 'session_or_permission'
    if (NOT_FOUND.test(text)) return 'not_found'
  }
  return 'upstream_error'
}

/** Error messages shown on a page (Rails `#errorExplanation`, WordPress `.notice-error`…). */
const PAGE_ERROR =
  '.error, .errorbox, .alert-danger, .alert-error, .notice-error, .flash-error, .flash.error, #errorExplanation, #login_error, .errorlist, [role="alert"]'

/**
 * The error a form page shows when the form was answered with the form again instead of the
 * redirect it gave when recorded (DokuWiki: "Security Token did not match. Possible CSRF
 * attack."), or null when the page shows none.
 */
export function pageErrorText(html: string): string | null {
  const $ = load(html)
  for (const el of $(PAGE_ERROR).toArray()) {
    const text = $(el).text().replace(/\s+/g, ' ').trim()
    if (text) return text.slice(0, MAX_MESSAGE)
  }
  return null
}
