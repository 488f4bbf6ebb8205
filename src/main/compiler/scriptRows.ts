/**
 * Ids picked by click where the list is code: an answer that carries its rows as script calls
 * (Roundcube's `{"exec":"this.add_message_row(13,{\"subject\":\"Welcome…\"},…);…"}`), the person
 * picked one row by what it shows (a subject), and the write sends the row's id (`_uid=13`). The
 * tool reads the list again and takes the id from the call whose arguments hold the caller's
 * value, through the path key `@calls` (src/shared/scriptCalls.ts). Pure.
 */
import { fold, type PathPart } from '../../shared/jsonPath'
import { CALLS_KEY, scriptCalls } from '../../shared/scriptCalls'
import type { Exchange } from '../../shared/trace'
import { parseJsonBody } from './classify'
import type { PersonValue } from './personValues'

/** How deep in a JSON answer strings of code are looked for. */
const MAX_DEPTH = 4
/** Shortest person's value that may name a row. */
const MIN_VALUE = 3
/** Verbs a row-adding function's name starts with, dropped to name the rows (`message_row`). */
const ROW_VERB = /^(add|append|insert|push|set|show|render|draw|update|new)_?(?=[a-z])/i

/** A row found in a script answer: where its list is, the field that names it and its id. */
export interface CallRecord {
  exchange: Exchange
  /** The path to the function's calls (`exec.@calls.add_message_row`). */
  listPath: PathPart[]
  /** What the rows are called (`message_row`). */
  list: string
  /** The key that holds the person's value, and its path in a call's arguments. */
  field: string
  fieldPath: string[]
  /** The position of the id among the call's arguments (`0`). */
  idField: string
  person: PersonValue
}

/**
 * The row of an earlier answer (of `earlier`, latest first) made by a script call whose
 * arguments hold a person's value (strong ones first) as a string, in exactly one of the
 * function's calls (two calls at least: a list), and whose positional argument equals `id`, an
 * argument that differs in every call (the rows' ids, not a constant). Null when none.
 */
export function findCallRecord(
  id: string | number,
  earlier: Exchange[],
  people: PersonValue[],
): CallRecord | null {
  const ordered = [...people.filter((p) => p.strong), ...people.filter((p) => !p.strong)].filter(
    (p) => p.value.trim().length >= MIN_VALUE,
  )
  if (!ordered.length) return null
  for (const exchange of earlier) {
    const json = parseJsonBody(exchange)
    if (json === undefined) continue
    for (const { path, text } of codeStrings(json, [], 0)) {
      const calls = scriptCalls(text)
      if (!calls) continue
      for (const [fn, rows] of Object.entries(calls)) {
        if (rows.length < 2) continue
        for (const person of ordered) {
          const wanted = fold(person.value)
          const holders = rows.flatMap((args) => {
            const fieldPath = fieldPathOf(args, wanted)
            return fieldPath ? [{ args, fieldPath }] : []
          })
          if (holders.length !== 1) continue
          const { args, fieldPath } = holders[0]!
          const at = args.findIndex(
            (a) => (typeof a === 'number' || typeof a === 'string') && String(a) === String(id),
          )
          if (at < 0 || new Set(rows.map((r) => String(r[at]))).size !== rows.length) continue
          if (fieldPath.length === 1) continue
          return {
            exchange,
            listPath: [...path, { kind: 'key', key: CALLS_KEY }, { kind: 'key', key: fn }],
            list: fn.replace(ROW_VERB, '') || fn,
            field: fieldPath.at(-1)!,
            fieldPath,
            idField: String(at),
            person,
          }
        }
      }
    }
  }
  return null
}

/** Where in a call's arguments a string equals `wanted` (folded): `[1, "subject"]`, or null. */
function fieldPathOf(args: unknown[], wanted: string): string[] | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    if (typeof arg === 'string' && fold(arg) === wanted) return [String(i)]
    if (arg === null || typeof arg !== 'object' || Array.isArray(arg)) continue
    for (const [key, value] of Object.entries(arg))
      if (typeof value === 'string' && fold(value) === wanted) return [String(i), key]
  }
  return null
}

/** String leaves of a JSON value that may be code (they call something), with their paths. */
function codeStrings(
  node: unknown,
  path: PathPart[],
  depth: number,
): Array<{ path: PathPart[]; text: string }> {
  if (typeof node === 'string') return node.includes('(') ? [{ path, text: node }] : []
  if (depth >= MAX_DEPTH || node === null || typeof node !== 'object') return []
  if (Array.isArray(node))
    return node.flatMap((item, index) =>
      codeStrings(item, [...path, { kind: 'index', index }], depth + 1),
    )
  return Object.entries(node).flatMap(([key, child]) =>
    codeStrings(child, [...path, { kind: 'key', key }], depth + 1),
  )
}
