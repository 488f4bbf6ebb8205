import type { Exchange } from '../../shared/trace'
import { headerValue } from '../../shared/trace'
import { parseJsonRequest, safeUrl } from './classify'

/** One scalar value of a request, with where it sits. */
export interface RequestValue {
  location: 'body' | 'query'
  /** Dot path in a JSON body, or the query/form parameter name. */
  path: string
  /** The last key of the path: the slot's semantic name. */
  key: string
  value: string | number | boolean | null
  /** True for values of an `application/x-www-form-urlencoded` body. */
  form?: boolean
}

/**
 * Every scalar value a request carries in its URL query, JSON body (leaves, arrays excluded) or
 * form body (RFC 1866 urlencoded), in document order.
 */
export function requestValues(exchange: Exchange): RequestValue[] {
  const out: RequestValue[] = []
  const url = safeUrl(exchange.url)
  url?.searchParams.forEach((value, key) => out.push({ location: 'query', path: key, key, value }))
  const json = parseJsonRequest(exchange)
  if (json !== undefined && json !== null && typeof json === 'object' && !Array.isArray(json)) {
    walk(json as Record<string, unknown>, '', out)
  } else if (
    exchange.requestBody?.encoding === 'utf8' &&
    (headerValue(exchange.requestHeaders, 'content-type') ?? '').includes('x-www-form-urlencoded')
  ) {
    new URLSearchParams(exchange.requestBody.text).forEach((value, key) =>
      out.push({ location: 'body', path: key, key, value, form: true }),
    )
  }
  return out
}

function walk(obj: Record<string, unknown>, prefix: string, out: RequestValue[]): void {
  for (const [key, value] of Object.entries(obj)) {
    const path = prefix ? `${prefix}.${key}` : key
    if (value !== null && typeof value === 'object') {
      if (!Array.isArray(value)) walk(value as Record<string, unknown>, path, out)
      continue
    }
    out.push({ location: 'body', path, key, value: value as string | number | boolean | null })
  }
}

/** How a request value relates to a typed value: the same, a prefix of it (typeahead), or neither. */
export function matchTyped(value: RequestValue['value'], typed: string): 'exact' | 'prefix' | null {
  if (value === null) return null
  const text = String(value)
  if (text === typed || text.trim() === typed.trim()) return 'exact'
  if (text.length > 0 && text.length < typed.length && typed.startsWith(text)) return 'prefix'
  return null
}
