// The in-band error shapes of a verify rule matched against an answer: the engine fails a run
// on a match, and the compiler drops a shape its recorded success already matches.
import type { ErrorShape } from '../../shared/toolSpec'
import { valueAt } from '../../shared/jsonPath'
import { safeJson } from '../../shared/safeJson'

/** Site messages are quoted into run errors; a page of text is no message. */
const MAX_MESSAGE = 300

/** An in-band error shape an answer matched, with the site's own code and message. */
export interface ErrorShapeMatch {
  shape: ErrorShape
  /** The site's code (`badtoken`, `-1`), when it gave one. */
  siteCode: string | null
  /** The site's message (`Invalid CSRF token.`), else the shape's `meaning`, else null. */
  siteMessage: string | null
}

/**
 * The first of `shapes` an answer `body` matches (the semantics of `ErrorShape`), or null. The
 * body is read as JSON when it parses, else as text for the whole-answer shapes (`path: ''`:
 * WordPress admin-ajax's bare `0` / `-1`); an empty body (a 204) matches nothing.
 */
export function matchErrorShape(body: string, shapes: ErrorShape[]): ErrorShapeMatch | null {
  const text = body.trim()
  if (!text || !shapes.length) return null
  // Not JSON: only the whole-answer shapes can match the text.
  const json = safeJson(text)
  const parsed = json !== undefined
  for (const shape of shapes) {
    const value = shape.path
      ? parsed
        ? valueAt(json, shape.path)
        : undefined
      : parsed
        ? json
        : text
    if (value === undefined || !matches(value, shape)) continue
    const siteCode = shape.code ? wordOf(valueAt(json, shape.code)) : codeOf(value)
    const said = shape.message
      ? wordOf(valueAt(json, shape.message))
      : messageOf(value, parsed ? json : undefined)
    return { shape, siteCode, siteMessage: said?.slice(0, MAX_MESSAGE) ?? shape.meaning ?? null }
  }
  return null
}

function matches(value: unknown, shape: ErrorShape): boolean {
  if (shape.equals || shape.pattern) {
    const scalar = scalarText(value)
    if (scalar === null) return false
    if (shape.equals?.some((e) => scalar === String(e))) return true
    return shape.pattern !== undefined && new RegExp(shape.pattern, 'i').test(scalar)
  }
  // Present and not empty: `"error": null`, `false`, `""`, `[]` or `{}` on a success is no error.
  if (value === null || value === false || value === '' || value === 0) return false
  if (Array.isArray(value)) return value.length > 0
  if (typeof value === 'object') return Object.keys(value).length > 0
  return true
}

const CODE_KEYS = ['code', 'error_code', 'errorCode', 'type', 'name']
const MESSAGE_KEYS = [
  'info',
  'message',
  'msg',
  'error_description',
  'description',
  'detail',
  'text',
]

/** The site's code: the error value itself when it is a word or number, else its `code`. */
function codeOf(value: unknown): string | null {
  if (typeof value === 'string' || typeof value === 'number') return String(value)
  if (!isRecord(value)) return null
  for (const key of CODE_KEYS) {
    const code = wordOf(value[key])
    if (code) return code
  }
  return null
}

/**
 * The site's message: a message field of the error object, else of the whole answer
 * (`{"success":false,"data":"…"}`, `{"status":"error","message":"…"}`, `errors[0].message`).
 */
function messageOf(value: unknown, json: unknown): string | null {
  for (const node of [value, json]) {
    if (!isRecord(node)) continue
    for (const key of MESSAGE_KEYS) {
      const text = wordOf(node[key])
      if (text) return text
    }
    for (const key of ['error', 'data', 'errors']) {
      const inner = node[key]
      if (typeof inner === 'string' && inner) return inner
      const first = Array.isArray(inner) ? inner[0] : inner
      if (node !== value && first === value) continue
      if (typeof first === 'string' && first) return first
      if (!isRecord(first)) continue
      for (const k of MESSAGE_KEYS) {
        const text = wordOf(first[k])
        if (text) return text
      }
    }
  }
  return null
}

/** A JSON scalar as text, for comparing with a shape's `equals` or `pattern`. */
function scalarText(value: unknown): string | null {
  if (typeof value === 'string') return value.trim()
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (value === null) return 'null'
  return null
}

/** A code or message: a non-empty string or a number (never `null`, `true` or `false`). */
function wordOf(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() || null
  return typeof value === 'number' ? String(value) : null
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
