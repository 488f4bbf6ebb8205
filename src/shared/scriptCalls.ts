/**
 * Records an answer carries as the arguments of script calls: Roundcube answers its message list
 * as a JSON field holding code, `this.add_message_row(13,{"subject":"Welcome…"},{…},false);`, one
 * call per row; older AJAX apps and JSONP answers do the same. Read as data, the calls of one
 * function are a list of rows, each row the list of its arguments. Pure, no Node: the compiler
 * finds a picked row here and the engine reads it again through the path key `@calls`
 * (`jsonPath.ts`).
 */

import { safeJson } from './safeJson'

/** The path key that reads a string as its script calls (`exec.@calls.add_message_row`). */
export const CALLS_KEY = '@calls'

/** Longest script read for calls, in characters: an answer, not a library. */
const MAX_SCRIPT = 2_000_000

/** A statement's start: `name(`, `this.name(`, `rcmail.list.name(`. */
const CALL_START = /(?:^|[;\n{}])\s*(?:[A-Za-z_$][\w$]*\s*\.\s*)*([A-Za-z_$][\w$]*)\(/g
/** What may follow a call that is a statement of its own: `;`, a line's end, a block's end. */
const STATEMENT_END = /^[ \t]*(?:[;\n\r}]|$)/

/**
 * The calls `text` makes whose arguments are all JSON values, grouped by the called function's
 * name in the order they appear: `{add_message_row: [[13, {...}, {...}, false], ...]}`. A call is
 * a statement of its own (`name(` with no space, ending at `;`, a line's end or a block's end);
 * one with any argument that is not JSON (a function, a variable, a single-quoted string) is
 * left out. Null when the text makes no such call or is too long to be an answer.
 */
export function scriptCalls(text: string): Record<string, unknown[][]> | null {
  if (text.length > MAX_SCRIPT || !text.includes('(')) return null
  const out: Record<string, unknown[][]> = Object.create(null)
  let found = false
  CALL_START.lastIndex = 0
  for (let m = CALL_START.exec(text); m; m = CALL_START.exec(text)) {
    const open = m.index + m[0].length - 1
    const close = matchingParen(text, open)
    if (close < 0) break
    CALL_START.lastIndex = close + 1
    // Prose that only looks like a call ("Messages (3) marked") goes on after its parenthesis.
    if (!STATEMENT_END.test(text.slice(close + 1, close + 40))) continue
    const args = argumentsOf(text.slice(open + 1, close))
    if (!args) continue
    const name = m[1]!
    ;(out[name] ??= []).push(args)
    found = true
  }
  return found ? out : null
}

/** The index of the `)` that closes the `(` at `open`, skipping quoted strings; -1 when none. */
function matchingParen(text: string, open: number): number {
  let depth = 0
  for (let i = open; i < text.length; i++) {
    const c = text[i]
    if (c === '"' || c === "'" || c === '`') {
      i = stringEnd(text, i)
      if (i < 0) return -1
    } else if (c === '(') depth++
    else if (c === ')' && --depth === 0) return i
  }
  return -1
}

/** The index of the quote that closes the string opened at `start` (escapes skipped), or -1. */
function stringEnd(text: string, start: number): number {
  const quote = text[start]
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++
    else if (text[i] === quote) return i
  }
  return -1
}

/** The arguments as JSON values, or null when any is not JSON (RFC 8259). */
function argumentsOf(inner: string): unknown[] | null {
  const parsed = safeJson(`[${inner}]`)
  return Array.isArray(parsed) ? parsed : null
}
