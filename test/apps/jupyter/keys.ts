import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance } from '../types'
import { cookieValue } from './session'

/** The path of a file or folder in the Contents API (each segment URL-encoded, as the UI does). */
export function contentsPath(name: string): string {
  return `/api/contents/${name.split('/').map(encodeURIComponent).join('/')}`
}

/**
 * Headers of a Contents API write: JSON, and the `_xsrf` cookie echoed in `X-XSRFToken`, which is
 * what Tornado's double-submit check compares (a write without it answers 403).
 */
export function writeHeaders(session: StorageState): Record<string, string> {
  return { 'content-type': 'application/json', 'x-xsrftoken': cookieValue(session, '_xsrf') }
}

/** The HTTP status of a metadata-only read of `name` (200 when it exists, 404 when not). */
export async function contentsStatus(
  app: AppInstance,
  session: StorageState,
  name: string,
): Promise<number> {
  const res = await app.fetch(`${contentsPath(name)}?content=0`, { session })
  await res.arrayBuffer()
  return res.status
}

/** Reads a JSON answer, throwing with the status when the app did not answer `expected`. */
export async function expectJson(res: Response, expected: number, what: string): Promise<unknown> {
  const text = await res.text()
  if (res.status !== expected) throw new Error(`${what}: expected ${expected}, got ${res.status}`)
  return text ? (JSON.parse(text) as unknown) : null
}

/** Throws `problem` when it is a string (what a key's check returned), else does nothing. */
export function assertCheck(problem: string | null): void {
  if (problem) throw new Error(problem)
}

/** A run's result as text, whatever shape the engine gave it (parsed JSON, text, bytes). */
export function resultText(result: unknown): string {
  return typeof result === 'string' ? result : JSON.stringify(result ?? null)
}

/** The `i`-th value a tool was called with, as a string (every input here is a name). */
export function usedName(used: Array<string | number | boolean>, i: number): string {
  const value = used[i]
  if (typeof value !== 'string') throw new Error(`input ${i} was not called with a string`)
  return value
}
