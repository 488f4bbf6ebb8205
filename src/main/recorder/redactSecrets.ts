import type { Body, Exchange } from '../../shared/trace'
import { headerValue, SECRET_PLACEHOLDER, mediaType } from '../../shared/trace'
import { encodeBody } from './encodeBody'

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
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '))
  } catch {
    return raw
  }
}

/** Rewrites only the values of secret keys so every other byte of the body stays as sent. */
function redactFormEncoded(text: string, isSecret: (key: string) => boolean): string {
  let changed = false
  const parts = text.split('&').map((part) => {
    const eq = part.indexOf('=')
    if (eq < 0) return part
    const rawKey = part.slice(0, eq)
    if (!isSecret(decodeFormComponent(rawKey))) return part
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
      if (isSecret(key) && (typeof child === 'string' || typeof child === 'number')) {
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
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return text
  }
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
    (whole, head: string, name: string, _value, tail: string) => {
      if (!isSecret(name) || /filename=/i.test(head)) return whole
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
 * `fieldName`s of actions flagged `secret`) or a well-known password/OTP key. Handles
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
