import type { Body, Exchange } from '../../shared/trace'
import { headerValue, SECRET_PLACEHOLDER, mediaType } from '../../shared/trace'
import { encodeBody } from './encodeBody'
import { safeJson } from '../../shared/safeJson'
import { decodeOrKeep } from '../../shared/urls'

export { SECRET_PLACEHOLDER }

/**
 * Keys that carry a password or one-time code in practically every API, redacted even when the
 * page's field had another name (a script may post `{password}` from `<input name="pw">`). Kept
 * to exact names: a loose pattern would also eat `passengers` or `passport` and break the tool.
 */
const WELL_KNOWN_SECRET_KEY =
  /^(passwd|password|pwd|new_?password|current_?password|old_?password|password_?confirm(ation)?|otp|totp|one_?time_?code|mfa_?code|2fa_?code|twofa_?code)$/i

function makeIsSecretKey(fieldNames: Iterable<string>): (key: string) => boolean {
  const names = new Set<string>()
  for (const name of fieldNames) if (name) names.add(name.toLowerCase())
  return (key) => names.has(key.toLowerCase()) || WELL_KNOWN_SECRET_KEY.test(key)
}

function decodeFormComponent(raw: string): string {
  return decodeOrKeep(raw.replace(/\+/g, ' '))
}

/** Rewrites only the values of secret keys so every other byte of the body stays as sent. */
function redactFormEncoded(text: string, isSecret: (key: string) => boolean): string {
  let changed = false
  const parts = text.split('&').map((part) => {
    const eq = part.indexOf('=')
    if (eq < 0) return part
    const rawKey = part.slice(0, eq)
    // An empty password field was left blank ("keep my password"): nothing to hide, and the
    // placeholder would turn it into a change of password when replayed.
    if (!isSecret(decodeFormComponent(rawKey)) || eq === part.length - 1) return part
    changed = true
    return `${rawKey}=${encodeURIComponent(SECRET_PLACEHOLDER)}`
  })
  return changed ? parts.join('&') : text
}

function redactJsonValue(value: unknown, isSecret: (key: string) => boolean): boolean {
  let changed = false
  if (Array.isArray(value)) {
    for (const item of value) changed = redactJsonValue(item, isSecret) || changed
  } else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>
    for (const key of Object.keys(record)) {
      const child = record[key]
      if (
        isSecret(key) &&
        ((typeof child === 'string' && child !== '') || typeof child === 'number')
      ) {
        record[key] = SECRET_PLACEHOLDER
        changed = true
      } else {
        changed = redactJsonValue(child, isSecret) || changed
      }
    }
  }
  return changed
}

function redactJson(text: string, isSecret: (key: string) => boolean): string {
  const parsed = safeJson(text)
  if (parsed === undefined) return text
  return redactJsonValue(parsed, isSecret) ? JSON.stringify(parsed) : text
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

function redactMultipart(
  body: Body,
  boundary: string,
  contentType: string,
  isSecret: (key: string) => boolean,
): Body {
  // latin1 maps bytes 1:1 to chars, so file parts in the same form survive the round trip.
  const bytes = Buffer.from(body.text, body.encoding === 'base64' ? 'base64' : 'utf8')
  const source = bytes.toString('latin1')
  const part = new RegExp(
    `(Content-Disposition:\\s*form-data;[^\\r\\n]*?\\bname="([^"]*)"[^\\r\\n]*\\r\\n(?:[^\\r\\n]+\\r\\n)*\\r\\n)([\\s\\S]*?)(\\r\\n--${escapeRegExp(boundary)})`,
    'gi',
  )
  let changed = false
  const redacted = source.replace(
    part,
    (whole, head: string, name: string, value: string, tail: string) => {
      if (!isSecret(name) || /filename=/i.test(head) || value === '') return whole
      changed = true
      return `${head}${SECRET_PLACEHOLDER}${tail}`
    },
  )
  return changed ? (encodeBody(Buffer.from(redacted, 'latin1'), contentType) ?? body) : body
}

function redactUrl(url: string, isSecret: (key: string) => boolean): string {
  const q = url.indexOf('?')
  if (q < 0) return url
  const hash = url.indexOf('#', q)
  const end = hash < 0 ? url.length : hash
  const query = url.slice(q + 1, end)
  const redacted = redactFormEncoded(query, isSecret)
  return redacted === query ? url : `${url.slice(0, q + 1)}${redacted}${url.slice(end)}`
}

/**
 * Replaces the values of secret fields in an exchange's request URL query and request body with
 * {@link SECRET_PLACEHOLDER}. A field is secret when its name is one of `secretFieldNames` (the
 * `fieldName`s of actions flagged `secret`) or a well-known password/OTP key; an empty value stays
 * empty (a blank "new password" field means no change). Handles
 * form-urlencoded, multipart/form-data and JSON bodies; everything else is returned untouched.
 *
 * This is best effort by design: a page script may rename, hash, encrypt or nest the value under
 * a key we cannot recognise, so a secret can still reach a trace through a custom request body.
 * What is guaranteed is narrower: the recorder's actions never carry a secret field's value.
 *
 * @returns the same exchange object when nothing changed, else a shallow copy.
 */
export function redactSecrets(exchange: Exchange, secretFieldNames: Iterable<string>): Exchange {
  const isSecret = makeIsSecretKey(secretFieldNames)
  const url = redactUrl(exchange.url, isSecret)
  let requestBody = exchange.requestBody
  if (requestBody) {
    const contentType = headerValue(exchange.requestHeaders, 'content-type') ?? ''
    const mime = mediaType(contentType)
    if (mime === 'multipart/form-data') {
      const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1]
      if (boundary) requestBody = redactMultipart(requestBody, boundary, contentType, isSecret)
    } else if (requestBody.encoding === 'utf8') {
      let text = requestBody.text
      if (mime === 'application/x-www-form-urlencoded') text = redactFormEncoded(text, isSecret)
      else if (mime === 'application/json' || mime.endsWith('+json') || /^\s*[{[]/.test(text)) {
        text = redactJson(text, isSecret)
      }
      if (text !== requestBody.text) requestBody = { text, encoding: 'utf8' }
    }
  }
  if (url === exchange.url && requestBody === exchange.requestBody) return exchange
  return { ...exchange, url, requestBody }
}

/**
 * Typed secrets shorter than this are not searched for: a 1-3 character value would blank
 * unrelated words and numbers. Their fields are still redacted by name (`redactSecrets`).
 */
const MIN_TYPED_SECRET_CHARS = 4

/** Where a URL or a form body is written, the placeholder is always percent-encoded. */
const ENCODED = encodeURIComponent(SECRET_PLACEHOLDER)

/** A typed secret as it may be written in a request, with what replaces it there. */
interface Spelling {
  text: string
  placeholder: string
}

/**
 * The ways a page writes a typed value into a request: as typed (a header, a raw body), as a
 * JSON string's content (quotes and backslashes escaped; non-ASCII as typed or as `\uXXXX`),
 * percent-encoded (`encodeURIComponent`, RFC 3986 §2.1) and form-encoded (WHATWG URL
 * `application/x-www-form-urlencoded`: space as `+`). Each spelling is replaced by the
 * placeholder written the same way, so the request keeps its syntax.
 */
function spellings(value: string): Spelling[] {
  const raw = SECRET_PLACEHOLDER
  const encoded = ENCODED
  const json = JSON.stringify(value).slice(1, -1)
  const asciiJson = json.replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
  const percent = encodeURIComponent(value)
  const form = new URLSearchParams({ v: value }).toString().slice(2)
  const all: Spelling[] = [
    { text: value, placeholder: raw },
    { text: json, placeholder: raw },
    { text: asciiJson, placeholder: raw },
    { text: percent, placeholder: encoded },
    { text: percent.replace(/%20/g, '+'), placeholder: encoded },
    { text: form, placeholder: encoded },
  ]
  const seen = new Set<string>()
  // Longest first: an escaped spelling contains the shorter ones' characters.
  return all
    .filter((s) => s.text.length >= MIN_TYPED_SECRET_CHARS && !seen.has(s.text) && seen.add(s.text))
    .sort((a, b) => b.text.length - a.text.length)
}

const WORD_CHAR = /[A-Za-z0-9]/

/**
 * `text` with every whole occurrence of a spelling replaced: one not touching a letter or
 * digit on either side, so a password that is also part of a longer token (`hunter2` inside
 * `hunter22`) leaves that token alone. `encoded`: the text is a URL or a form body.
 */
function replaceSpellings(text: string, all: Spelling[], encoded = false): string {
  let out = text
  for (const spelling of all) {
    const needle = spelling.text
    const placeholder = encoded ? ENCODED : spelling.placeholder
    if (!out.includes(needle)) continue
    let result = ''
    let from = 0
    for (let at = out.indexOf(needle); at >= 0; at = out.indexOf(needle, at + 1)) {
      const before = at > 0 ? out[at - 1]! : ''
      const after = out[at + needle.length] ?? ''
      const whole =
        !(WORD_CHAR.test(before) && WORD_CHAR.test(needle[0]!)) &&
        !(WORD_CHAR.test(after) && WORD_CHAR.test(needle.at(-1)!))
      if (!whole || at < from) continue
      result += out.slice(from, at) + placeholder
      from = at + needle.length
    }
    out = result + out.slice(from)
  }
  return out
}

/** A body with the spellings replaced; base64 bodies are searched byte for byte (latin1). */
function replaceInBody(body: Body, all: Spelling[], contentType: string): Body {
  if (body.encoding === 'utf8') {
    const form = mediaType(contentType) === 'application/x-www-form-urlencoded'
    const text = replaceSpellings(body.text, all, form)
    return text === body.text ? body : { text, encoding: 'utf8' }
  }
  // latin1 maps bytes 1:1 to chars, so the value's UTF-8 bytes are found inside any binary part.
  const asBytes = (s: string) => Buffer.from(s, 'utf8').toString('latin1')
  const bytes = all.map((s) => ({ text: asBytes(s.text), placeholder: asBytes(s.placeholder) }))
  const source = Buffer.from(body.text, 'base64').toString('latin1')
  const replaced = replaceSpellings(source, bytes)
  if (replaced === source) return body
  return encodeBody(Buffer.from(replaced, 'latin1'), contentType) ?? body
}

/**
 * Blanks the exact values the person typed into password and one-time-code fields
 * (`typedSecrets`, held in memory only while recording) wherever a request carries them: the URL
 * (path and query), every request header and the request body, in each spelling a page may use
 * (see `spellings`), and the exchange's page URL. So a password the page sends as a positional
 * JSON-RPC parameter (`{"method":"auth.login","params":["…"]}`) or under a field name nobody
 * could guess (`pass=`, `pw1=`) is replaced by {@link SECRET_PLACEHOLDER} too (docs/architecture.md "Rules that cut across"
 * "Typed secrets stay secret"). Values shorter than {@link MIN_TYPED_SECRET_CHARS} are skipped.
 * A value the page hashed, encrypted or base64-encoded cannot be recognised and stays; the values
 * of `Authorization` and `Cookie` are sealed by the store anyway (`traceCredentials.ts`).
 *
 * @returns the same exchange object when nothing changed, else a shallow copy.
 */
export function redactTypedSecrets(exchange: Exchange, typedSecrets: Iterable<string>): Exchange {
  const all = [...new Set(typedSecrets)].flatMap(spellings)
  if (!all.length) return exchange
  const url = replaceSpellings(exchange.url, all, true)
  const pageUrl = replaceSpellings(exchange.pageUrl, all, true)
  let headersChanged = false
  const requestHeaders: Record<string, string> = {}
  for (const [name, value] of Object.entries(exchange.requestHeaders)) {
    requestHeaders[name] = replaceSpellings(value, all)
    if (requestHeaders[name] !== value) headersChanged = true
  }
  const contentType = headerValue(exchange.requestHeaders, 'content-type') ?? ''
  const requestBody = exchange.requestBody
    ? replaceInBody(exchange.requestBody, all, contentType)
    : null
  if (
    url === exchange.url &&
    pageUrl === exchange.pageUrl &&
    !headersChanged &&
    requestBody === exchange.requestBody
  )
    return exchange
  return {
    ...exchange,
    url,
    pageUrl,
    requestHeaders: headersChanged ? requestHeaders : exchange.requestHeaders,
    requestBody,
  }
}

/** An action's value and page URL with the typed secrets blanked (see `redactTypedSecrets`). */
export function redactTypedSecretsInAction<T extends { value: string | null; pageUrl: string }>(
  action: T,
  typedSecrets: Iterable<string>,
): T {
  const all = [...new Set(typedSecrets)].flatMap(spellings)
  if (!all.length) return action
  const value = action.value === null ? null : replaceSpellings(action.value, all)
  const pageUrl = replaceSpellings(action.pageUrl, all, true)
  return value === action.value && pageUrl === action.pageUrl
    ? action
    : { ...action, value, pageUrl }
}
