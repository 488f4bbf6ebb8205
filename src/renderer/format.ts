import { safeUrl } from '../shared/safeJson'

/** A timestamp (ms since the epoch or ISO 8601) as local date and time. */
export function formatTime(value: number | string | null): string {
  if (value === null) return '—'
  return new Date(value).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
}

/** Path and query of a URL, for tables where the host is the same on every row. */
export function pathOf(url: string): string {
  const parsed = safeUrl(url)
  return parsed ? parsed.pathname + parsed.search : url
}

/** JSON indented by two spaces for display; `undefined` shown as the word. */
export function json(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? 'undefined'
}

const OUTLINE_FIELDS = 6

/**
 * A run result in one line, read before the JSON: `12 items`, or per top-level field of an
 * object `data: 12 items · count: 14` (at most six fields; nested objects as `{…}`).
 */
export function outlineResult(value: unknown): string {
  const one = (v: unknown): string => {
    if (Array.isArray(v)) return `${v.length} ${v.length === 1 ? 'item' : 'items'}`
    if (v !== null && typeof v === 'object') return '{…}'
    const text = JSON.stringify(v) ?? 'undefined'
    return text.length > 40 ? `${text.slice(0, 39)}…` : text
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return one(value)
  const entries = Object.entries(value)
  const shown = entries.slice(0, OUTLINE_FIELDS).map(([k, v]) => `${k}: ${one(v)}`)
  if (entries.length > OUTLINE_FIELDS) shown.push(`${entries.length - OUTLINE_FIELDS} more fields`)
  return shown.join(' · ') || 'empty object'
}

/**
 * Milliseconds left as `m:ss` (`14:59`), or `h:mm:ss` past an hour; 0 or less is `0:00`. The
 * inbox counts a requirement's 15 minutes down with it (interface.md "Limits").
 */
export function formatTimeLeft(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000))
  const h = Math.floor(total / 3600)
  const m = Math.floor((total % 3600) / 60)
  const s = String(total % 60).padStart(2, '0')
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`
}

/** A past moment relative to `now` (both ms): `just now`, `5 min ago`, `3 h ago`, else the date. */
export function formatAgo(then: number | string | null, now: number): string {
  if (then === null) return 'never'
  const at = typeof then === 'number' ? then : Date.parse(then)
  const minutes = Math.floor((now - at) / 60_000)
  if (minutes < 1) return 'just now'
  if (minutes < 60) return `${minutes} min ago`
  if (minutes < 24 * 60) return `${Math.floor(minutes / 60)} h ago`
  return formatTime(at)
}

// ECMA-48 SGR sequences (ESC [ … m): colour codes a server or a terminal tool left in a message.
const ANSI_SGR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g')

/** `text` without terminal colour codes, for messages shown in the page. */
export function plainText(text: string): string {
  return text.replace(ANSI_SGR, '')
}
