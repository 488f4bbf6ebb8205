/**
 * Helpers the answer keys share: reading the app by hand, pulling tokens out of its pages the way
 * a person with curl and grep would, and wording a failed check in one line.
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance } from '../types'

/** GETs `path` (signed in with `session` when given) and returns status and body text. */
export async function readPage(
  app: AppInstance,
  path: string,
  session?: StorageState,
): Promise<{ status: number; text: string }> {
  const res = await app.fetch(path, session ? { session } : {})
  return { status: res.status, text: await res.text() }
}

/** The first capture group of `pattern` in `text`; throws naming `what` when it is not there. */
export function grab(text: string, pattern: RegExp, what: string): string {
  const match = pattern.exec(text)
  if (!match?.[1]) throw new Error(`no ${what} in the page`)
  return match[1]
}

/**
 * The tool's result as text, whatever shape the engine gave it: a string as is; an object or
 * array as its keys and leaf values, one per line, so a page held in a field reads unescaped.
 */
export function resultText(result: unknown): string {
  if (typeof result === 'string') return result
  if (result === null || result === undefined) return ''
  if (typeof result !== 'object') return String(result)
  const lines: string[] = []
  const walk = (value: unknown): void => {
    if (value === null || value === undefined) return
    if (typeof value !== 'object') lines.push(String(value))
    else if (Array.isArray(value)) value.forEach(walk)
    else
      for (const [key, inner] of Object.entries(value)) {
        lines.push(key)
        walk(inner)
      }
  }
  walk(result)
  return lines.join('\n')
}

/** WordPress escapes titles in HTML (`&#8217;`, `&amp;`); compare on a plain-ASCII title. */
export function mentions(text: string, phrase: string): boolean {
  return text.toLowerCase().includes(phrase.toLowerCase())
}

/** Throws `message` when `problem` (a check's answer) is not null: replayByHand's last step. */
export function mustPass(problem: string | null): void {
  if (problem !== null) throw new Error(problem)
}

/** The body of an `application/x-www-form-urlencoded` POST. */
export function form(fields: Record<string, string>): {
  method: 'POST'
  body: string
  headers: Record<string, string>
} {
  return {
    method: 'POST',
    body: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  }
}
