/**
 * What a JSON answer holds, as target scoring reads it: its largest list of records, or a list of
 * bare strings (suggestions), or a bare count.
 */
import type { Exchange } from '../../shared/trace'
import { httpUrl } from '../../shared/urls'

/** The biggest array of objects in a JSON answer (its path, with `[]` for nesting), or null. */
export function largestRecordList(
  json: unknown,
  path = '',
  depth = 0,
): { path: string; count: number } | null {
  if (depth > 4 || json === null || typeof json !== 'object') return null
  if (Array.isArray(json)) {
    const objects = json.filter((v) => v !== null && typeof v === 'object' && !Array.isArray(v))
    return objects.length ? { path, count: objects.length } : null
  }
  let best: { path: string; count: number } | null = null
  for (const [key, value] of Object.entries(json)) {
    const found = largestRecordList(value, path ? `${path}.${key}` : key, depth + 1)
    if (found && (!best || found.count > best.count)) best = found
  }
  return best
}

/** The answer's text, lower-case ('' for a binary body or none). */
export function answerText(exchange: Exchange): string {
  return exchange.responseBody?.encoding === 'utf8' ? exchange.responseBody.text.toLowerCase() : ''
}

/** A typeahead endpoint: named so in its path, or answering bare strings and no records. */
export function isSuggestEndpoint(exchange: Exchange, json: unknown): boolean {
  const path = httpUrl(exchange.url)?.pathname ?? ''
  if (/(suggest|autocomplete|auto-complete|typeahead|complet(e|ion)s?|hints?)(\/|$|\b)/i.test(path))
    return true
  const list = Array.isArray(json)
    ? json
    : json && typeof json === 'object'
      ? Object.values(json).find(Array.isArray)
      : undefined
  // A list of bare strings and no records: what suggestion boxes are fed.
  return (
    Array.isArray(list) &&
    list.length > 0 &&
    list.every((v) => typeof v === 'string') &&
    !largestRecordList(json)
  )
}

/** An answer that is a count (a number, or a small object of numbers, or a count/stats path). */
export function isCountOnly(exchange: Exchange, json: unknown): boolean {
  if (typeof json === 'number') return true
  const path = httpUrl(exchange.url)?.pathname ?? ''
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return false
  if (largestRecordList(json)) return false
  const values = Object.values(json)
  const numbers = values.filter((v) => typeof v === 'number')
  return /(count|total|stats?)(\/|$)/i.test(path) || (numbers.length >= 1 && values.length <= 3)
}
