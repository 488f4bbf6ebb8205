/**
 * What the answer keys of Prometheus do by hand, as a person with curl would: read the JSON API,
 * and read a run's answer (JSON or a server-rendered page).
 */
import type { AppInstance } from '../types'

/** Throws `problem` when it is not null (replayByHand reuses the checks this way). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}

/** A run's result as JSON: the value itself, or a string parsed as JSON (null when it is not). */
export function jsonOf(result: unknown): unknown {
  if (typeof result !== 'string') return result ?? null
  try {
    return JSON.parse(result) as unknown
  } catch {
    return null
  }
}

/** A run's result as text (a page's HTML, or the JSON written out), HTML quotes unescaped. */
export function textOf(result: unknown): string {
  const raw = typeof result === 'string' ? result : JSON.stringify(result ?? '')
  return raw
    .replace(/&#34;|&quot;/g, '"')
    .replace(/&#43;/g, '+')
    .replace(/&amp;/g, '&')
}

/** `GET path` on the app, answered 200 with JSON; throws otherwise. */
export async function getJson(app: AppInstance, path: string): Promise<unknown> {
  const res = await app.fetch(path)
  const text = await res.text()
  if (res.status !== 200)
    throw new Error(`GET ${path} answered ${res.status}: ${text.slice(0, 200)}`)
  return JSON.parse(text) as unknown
}

/** `GET path` on the app, answered 200; its body as text. Throws otherwise. */
export async function getText(app: AppInstance, path: string): Promise<string> {
  const res = await app.fetch(path)
  const text = await res.text()
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`)
  return text
}

/** One series of a query answer: its labels, and its value(s) as `[unix seconds, "text"]`. */
export interface ResultSeries {
  metric: Record<string, string>
  value?: [number, string]
  values?: Array<[number, string]>
}

/**
 * The series of an API answer `{status, data: {resultType, result}}` when its type is `type`
 * (`vector` for /api/v1/query, `matrix` for /api/v1/query_range); null when it is not one.
 */
export function seriesIn(result: unknown, type: 'vector' | 'matrix'): ResultSeries[] | null {
  const json = jsonOf(result) as {
    status?: string
    data?: { resultType?: string; result?: ResultSeries[] }
  } | null
  if (json?.status !== 'success' || json.data?.resultType !== type) return null
  return Array.isArray(json.data.result) ? json.data.result : null
}
