import type { Exchange } from '../../shared/trace'
import { parseJsonRequest } from './classify'
import { httpUrl } from '../../shared/urls'
import { graphqlOfExchange } from './graphql'
import { isRpcSubOperation, operationOf } from './operation'
import { requestValues, type RequestValue } from './requestValues'

/** Where a request value sits: `query:page`, `body:variables.first`. */
export const valueKey = (v: Pick<RequestValue, 'location' | 'path'>) => `${v.location}:${v.path}`

/**
 * The endpoint an exchange calls: method, host, path, and for GraphQL the operation name (one
 * `/graphql` URL serves many operations, each its own endpoint).
 */
export function endpointKey(exchange: Exchange): string {
  const url = httpUrl(exchange.url)
  const op = graphqlOfExchange(exchange, parseJsonRequest(exchange))
  // An action API is one endpoint per operation (`admin-ajax.php` `action=heartbeat` is not
  // `action=inline-save`): the operation field belongs to the endpoint's identity.
  const action = op ? null : operationOf(exchange)
  // So is a JSON-RPC call's command parameter (`editqueue` `GroupResume` is not `GroupPause`).
  const command = requestValues(exchange)
    .filter((v) => isRpcSubOperation(v, exchange))
    .map((v) => `&${String(v.value)}`)
    .join('')
  return `${exchange.method} ${url?.host}${url?.pathname}${op ? `#${op.operationName ?? op.persistedHash ?? ''}` : ''}${action ? `?${action}` : ''}${command}`
}

/** Every observed call of the target's endpoint among `exchanges` (the target included), in order. */
export function observationsOf(target: Exchange, exchanges: Exchange[]): Exchange[] {
  const key = endpointKey(target)
  const same = exchanges.filter((e) => e === target || endpointKey(e) === key)
  return same.sort((a, b) => a.seq - b.seq)
}

/** What several calls of one endpoint tell about each request value. */
export interface Observed {
  /** Every observed value at this place, in call order (missing calls left out). */
  values: Array<RequestValue['value']>
  /** True when the calls disagree, or some call lacks the value. */
  varies: boolean
}

/**
 * Compares the request values of several calls of one endpoint: what varies becomes a slot, what
 * stays is constant. Keys: {@link valueKey}.
 */
export function compareObservations(observations: Exchange[]): Map<string, Observed> {
  const seen = new Map<string, Observed>()
  const counts = new Map<string, number>()
  for (const exchange of observations) {
    for (const v of requestValues(exchange)) {
      const key = valueKey(v)
      const entry = seen.get(key) ?? { values: [], varies: false }
      if (entry.values.length && entry.values[0] !== v.value) entry.varies = true
      entry.values.push(v.value)
      seen.set(key, entry)
      counts.set(key, (counts.get(key) ?? 0) + 1)
    }
  }
  for (const [key, entry] of seen) if (counts.get(key)! < observations.length) entry.varies = true
  return seen
}

/** A slot's JSON type as far as the observed values show it. */
export type ScalarType = 'string' | 'integer' | 'number' | 'boolean'

/**
 * The type of a slot from its observed values. JSON values keep their JSON type (an integer
 * seen with a fraction is a number); text values (query strings, form fields) are integers when
 * every one is a plain decimal integer (no leading zero: `007` and zip codes stay text), numbers
 * when every one is decimal, booleans when every one is `true`/`false`.
 */
export function inferScalarType(values: Array<RequestValue['value']>, text: boolean): ScalarType {
  const present = values.filter((v) => v !== null)
  if (!present.length) return 'string'
  if (!text) {
    if (present.every((v) => typeof v === 'boolean')) return 'boolean'
    if (present.every((v) => typeof v === 'number'))
      return present.every((v) => Number.isInteger(v)) ? 'integer' : 'number'
    return 'string'
  }
  const strings = present.map(String)
  if (strings.every((s) => /^(0|-?[1-9]\d{0,14})$/.test(s))) return 'integer'
  if (strings.every((s) => /^-?(0|[1-9]\d{0,14})(\.\d+)?$/.test(s))) return 'number'
  if (strings.every((s) => s === 'true' || s === 'false')) return 'boolean'
  return 'string'
}

/** Converts an observed value to the slot's type (`"2"` → 2 for an integer slot). */
export function coerce(value: RequestValue['value'], type: ScalarType): RequestValue['value'] {
  if (value === null) return null
  if (type === 'integer' || type === 'number') return Number(value)
  if (type === 'boolean') return value === true || value === 'true'
  return String(value)
}

/**
 * Values made fresh by the page for each request (a UUID, a timestamp near the request's time,
 * a long random token): varying is expected, so they are not inputs.
 */
export function looksGenerated(value: RequestValue['value'], at: number): boolean {
  if (value === null || typeof value === 'boolean') return false
  const text = String(value)
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text)) return true
  if (/^\d{13}$/.test(text)) return Math.abs(Number(text) - at) < 86_400_000
  if (/^\d{10}$/.test(text)) return Math.abs(Number(text) * 1000 - at) < 86_400_000
  if (clockInValue(text, at, 86_400_000)) return true
  return /^[A-Za-z0-9_-]{24,}$/.test(text) && /\d/.test(text) && /[A-Za-z]/.test(text)
}

/** Where a value carries the clock in milliseconds inside other characters (see {@link clockInValue}). */
export interface ClockInValue {
  /** The text before the clock (`loading`), maybe empty. */
  prefix: string
  /** The digits after it (a random tail the page appended), maybe empty. */
  suffix: string
}

/**
 * A value a page built on its clock at the moment of sending with more around it: a word and
 * the time in ms (Roundcube's `_unlock=loading1795962730488`), or the time in ms and random
 * digits (phpMyAdmin's `_nocache=1795963291238254858`); the 13 digits after the prefix are a
 * Unix time in ms within `withinMs` of `at` (ms). Null for anything else, the bare forms
 * (`1795962730488`) included: those are read by their own rules. A fresh value per request,
 * never an input nor a constant (a cache-buster is no slot).
 */
export function clockInValue(text: string, at: number, withinMs: number): ClockInValue | null {
  const parts = /^([A-Za-z_-]{0,24})(\d{13})(\d{0,9})$/.exec(text)
  if (!parts || (!parts[1] && !parts[3])) return null
  if (Math.abs(Number(parts[2]) - at) >= withinMs) return null
  return { prefix: parts[1]!, suffix: parts[3]! }
}
