import * as cheerio from 'cheerio'
import type { EvidenceSignal } from '../../shared/toolSpec'
import { mimeTypeOf, SECRET_PLACEHOLDER, type Exchange } from '../../shared/trace'
import { isWriteMethod } from './classify'
import { httpUrl } from '../../shared/urls'
import { requestValues, type RequestValue } from './requestValues'

/**
 * Field names of a one-time code (RFC 6238 TOTP, an SMS or e-mail code): `otp`, `totp`, `mfa`,
 * `2fa`, `twofa` (Redmine's `twofa_code`), `two_factor`, `one_time_code`, `verification_code`,
 * `auth_code`, `security_code`, `otp_attempt` (GitLab), `mfa_code`.
 */
const CODE_FIELD =
  /(^|[^a-z])(otp|totp|mfa|2fa|twofa|two_?factor|second_?factor|one_?time|verification_?code|auth(entication)?_?code|security_?code)/i
/** What a person types from an authenticator app: 6 to 8 digits (RFC 4226 §5.3). */
const CODE_VALUE = /^\d{6,8}$/
/** Paths of a second-factor page (`/login/otp`, `/account/twofa/confirm`, `/2fa`, `/mfa`). */
const CODE_PAGE = /(^|[^a-z])(otp|totp|mfa|2fa|twofa|two-?factor|second-?factor)([^a-z]|$)/i

/** Weights on the scale of selectTarget's evidence weights. */
const W = { sendsCode: 0.2, asksCode: -0.3 }

/** True when a request field carries a one-time code (typed in clear, or redacted). */
export function isOneTimeCode(v: RequestValue): boolean {
  if (!CODE_FIELD.test(v.key) || typeof v.value === 'boolean' || v.value === null) return false
  const text = String(v.value)
  return CODE_VALUE.test(text) || text.includes(SECRET_PLACEHOLDER)
}

/** The body or query field of a write that sends a one-time code, or null. */
export function oneTimeCodeField(exchange: Exchange): RequestValue | null {
  if (!isWriteMethod(exchange.method)) return null
  return requestValues(exchange).find(isOneTimeCode) ?? null
}

/**
 * True when a request's answer asks for a second factor: a redirect to a second-factor page
 * (`/account/twofa/confirm`), or an HTML page with a one-time-code field (`autocomplete=
 * "one-time-code"`, HTML §4.10.18.7.1, or a field named like one).
 */
function asksSecondFactor(exchange: Exchange): boolean {
  if (exchange.status >= 300 && exchange.status < 400) {
    const location = exchange.responseHeaders.location ?? ''
    return CODE_PAGE.test(httpUrl(location)?.pathname ?? location.split(/[?#]/)[0]!)
  }
  const body = exchange.responseBody
  if (!body || body.encoding !== 'utf8' || !mimeTypeOf(exchange.responseHeaders).includes('html'))
    return false
  if (!/one-time-code|otp|2fa|twofa|mfa|factor/i.test(body.text)) return false
  const $ = cheerio.load(body.text)
  return (
    $('input').filter(
      (_, el) =>
        $(el).attr('autocomplete') === 'one-time-code' || CODE_FIELD.test($(el).attr('name') ?? ''),
    ).length > 0
  )
}

/**
 * Evidence that a sign-in goes on past this request or ends with it: a post that sends a one-time
 * code completes a sign-in the site asked a second factor for; a post whose answer asks for one (a
 * redirect to the code page) is
 * only the first factor, so the tool's target is the code's post after it.
 */
export function secondFactorSignals(exchange: Exchange): EvidenceSignal[] {
  const out: EvidenceSignal[] = []
  const code = oneTimeCodeField(exchange)
  if (code)
    out.push({
      name: 'sends_second_factor',
      weight: W.sendsCode,
      detail: `sends the one-time code (${code.location} ${code.path}) the sign-in asked for`,
    })
  if (isWriteMethod(exchange.method) && asksSecondFactor(exchange))
    out.push({
      name: 'asks_second_factor',
      weight: W.asksCode,
      detail: 'its answer asks for a second factor: the sign-in goes on after it',
    })
  return out
}

/**
 * The first factor of a sign-in that `target` completes with a one-time code: the latest earlier
 * write to the same host that sent a password (a redacted secret, or a password field) and whose
 * answer asked for the second factor. Null when `target` sends no code or none is found.
 */
export function firstFactorOf(exchanges: Exchange[], target: Exchange): Exchange | null {
  if (!oneTimeCodeField(target)) return null
  const host = httpUrl(target.url)?.host
  const earlier = exchanges.filter((e) => e.seq < target.seq).reverse()
  return (
    earlier.find(
      (e) =>
        httpUrl(e.url)?.host === host &&
        isWriteMethod(e.method) &&
        sendsPassword(e) &&
        asksSecondFactor(e),
    ) ?? null
  )
}

function sendsPassword(exchange: Exchange): boolean {
  return requestValues(exchange).some(
    (v) =>
      /^(pass(word)?|passwd|pwd)$|password/i.test(v.key) ||
      (typeof v.value === 'string' && v.value.includes(SECRET_PLACEHOLDER) && !isOneTimeCode(v)),
  )
}
