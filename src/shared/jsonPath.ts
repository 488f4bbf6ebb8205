/**
 * The JSON-path grammar of tools: extractor paths, the result
 * filter's list and fields, and `[]` lists as verify rules and `select` write them. Pure, no Node.
 *
 * Grammar (a superset of the dot paths tools always had, so stored tools read as before):
 *
 *     path   := part? (('.' part) | bracket)*
 *     part   := key characters up to '.' or '['     a key; on a list, a number indexes it
 *     bracket:= '[' digits ']'                      a list item by position (`flows[6]`)
 *             | '[' ']'                             every item of a list (`items[].id`)
 *             | '[' json-string ']'                 a key with dots or brackets (`["a.b"]`)
 *             | '[?' field '==' value ']'           the first item whose `field` equals `value`
 *                                                  (of a list, or of an object's values: a map
 *                                                  of records keyed by their ids)
 *             | '~'                                 the key the value before it sits under
 *                                                  (`torrents[?name==x]~`: the id of the record)
 *     field  := key ('.' key)*
 *
 * The key `@calls` on a string reads it as the script calls it makes, grouped by function
 * (`exec.@calls.add_message_row[?1.subject=={{input.p0}}].0`: `scriptCalls.ts`).
 *     value  := '{{' name '}}' | json-string | bare characters up to ']'
 *
 * `[?name=={{input.p0}}]` selects by the run's input (an id looked up by the name
 * the person picked, never by its position in the list): the placeholder is resolved from the
 * run's scope when the path is read, never spliced into the text (a name with `]` or `.` in it
 * stays one value). An item matches when its field (a string or number, as text) equals the
 * value exactly; when none does, the first equal ignoring case and runs of spaces matches
 * (people type "Run nightly import" for the label "run nightly import").
 */

import { isUnsafeKey } from './safeKeys'
import { CALLS_KEY, scriptCalls } from './scriptCalls'
import { safeJson } from './safeJson'

/** One step of a parsed path. */
export type PathPart =
  | { kind: 'key'; key: string }
  | { kind: 'index'; index: number }
  | { kind: 'each' }
  | { kind: 'where'; field: string[]; value: WhereValue }
  | { kind: 'keyOf' }

/** What a `[?field==value]` compares with: a literal, or a placeholder of the run's scope. */
type WhereValue = { literal: string } | { placeholder: string }

/** Values placeholders name (`input.p0` → `"run nightly import"`), as the engine's scope holds. */
export type PathScope = Readonly<Record<string, unknown>>

/**
 * Parses a path; null when it is not one (an unclosed bracket, `[?` without `==`) or when a key
 * or a lookup's field is `__proto__`, `prototype` or `constructor` (see `safeKeys.ts`): no path
 * of a tool may lead a reader or a writer into an object's prototype.
 */
export function parsePath(path: string): PathPart[] | null {
  const parts = readParts(path)
  if (!parts) return null
  for (const part of parts)
    if (
      (part.kind === 'key' && isUnsafeKey(part.key)) ||
      (part.kind === 'where' && part.field.some(isUnsafeKey))
    )
      return null
  return parts
}

function readParts(path: string): PathPart[] | null {
  const parts: PathPart[] = []
  let i = 0
  while (i < path.length) {
    const c = path[i]!
    if (c === '.') {
      i++
      continue
    }
    if (c === '~') {
      parts.push({ kind: 'keyOf' })
      i++
      continue
    }
    if (c !== '[') {
      let end = i
      while (end < path.length && path[end] !== '.' && path[end] !== '[' && path[end] !== '~') end++
      parts.push({ kind: 'key', key: path.slice(i, end) })
      i = end
      continue
    }
    const read = readBracket(path, i)
    if (!read) return null
    parts.push(read.part)
    i = read.end
  }
  return parts
}

/** Writes parts back as a path; `formatPath(parsePath(p))` reads as `p` does. */
export function formatPath(parts: PathPart[]): string {
  let out = ''
  for (const part of parts) {
    if (part.kind === 'index') out += `[${part.index}]`
    else if (part.kind === 'each') out += '[]'
    else if (part.kind === 'where') out += `[?${part.field.join('.')}==${formatValue(part.value)}]`
    else if (part.kind === 'keyOf') out += '~'
    else if (!part.key || /[.[\]~]/.test(part.key)) out += `[${JSON.stringify(part.key)}]`
    else out += out ? `.${part.key}` : part.key
  }
  return out
}

/** `[?field=={{name}}]` as text, for compilers that write lookups. */
export function wherePart(field: string[], placeholder: string): PathPart {
  return { kind: 'where', field, value: { placeholder } }
}

/** The placeholder names a path's `[?…]` parts read from the scope (`input.p0`). */
export function pathPlaceholders(path: string): string[] {
  const out: string[] = []
  for (const part of parsePath(path) ?? [])
    if (part.kind === 'where' && 'placeholder' in part.value) out.push(part.value.placeholder)
  return out
}

/**
 * Every value at `path` in `json` (`[]` expands to each item, in order); empty when the path
 * leads nowhere or is not a path. `scope` resolves `[?…=={{name}}]` placeholders.
 */
export function valuesAt(
  json: unknown,
  path: string | PathPart[],
  scope: PathScope = {},
): unknown[] {
  const parts = typeof path === 'string' ? parsePath(path) : path
  if (!parts) return []
  let current: Reached[] = [{ value: json }]
  for (const part of parts) {
    const next: Reached[] = []
    for (const reached of current) step(reached, part, scope, next)
    current = next
    if (!current.length) break
  }
  return current.map((r) => r.value)
}

/** A value a path reached, with the key or index it was reached under (for `~`). */
interface Reached {
  value: unknown
  key?: string | number
}

/** The first value at `path` (see {@link valuesAt}), or undefined. */
export function valueAt(json: unknown, path: string | PathPart[], scope: PathScope = {}): unknown {
  return valuesAt(json, path, scope)[0]
}

/**
 * The text of the leaf at `path`: a string as is, a number in JSON form; undefined for anything
 * else (an object, a list, `null`, a path that leads nowhere). What extractors put in scope.
 */
export function textAt(
  json: unknown,
  path: string | PathPart[],
  scope: PathScope = {},
): string | undefined {
  const value = valueAt(json, path, scope)
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined
}

/**
 * `json` with the list at `listPath` ('' = `json` itself) cut to the items where one of `fields`
 * (paths inside an item) holds a string containing `term`, ignoring case (the
 * page's own search, redone on its data). An empty term keeps every item; a path that holds no
 * list leaves `json` as it is. Never changes `json` in place.
 */
export function filterList(
  json: unknown,
  listPath: string,
  fields: string[],
  term: string,
): unknown {
  const needle = fold(term)
  const parts = parsePath(listPath)
  if (!needle || !parts || parts.some((p) => p.kind !== 'key' && p.kind !== 'index')) return json
  if (!Array.isArray(valueAt(json, parts))) return json
  const keep = (item: unknown) =>
    fields.some((field) =>
      valuesAt(item, field).some((v) => typeof v === 'string' && fold(v).includes(needle)),
    )
  const replace = (value: unknown, at: number): unknown => {
    if (at === parts.length) return Array.isArray(value) ? value.filter(keep) : value
    const part = parts[at]!
    const key = part.kind === 'index' ? part.index : (part as { key: string }).key
    if (Array.isArray(value)) {
      const index = typeof key === 'number' ? key : /^\d+$/.test(key) ? Number(key) : -1
      if (index < 0 || index >= value.length) return value
      const copy = [...value]
      copy[index] = replace(value[index], at + 1)
      return copy
    }
    if (!isRecord(value) || !Object.hasOwn(value, String(key))) return value
    return { ...value, [key]: replace(value[String(key)], at + 1) }
  }
  return replace(json, 0)
}

/** Lower case with runs of white space as one space, trimmed: how people's words compare. */
export function fold(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase()
}

function step(reached: Reached, part: PathPart, scope: PathScope, out: Reached[]): void {
  const { value } = reached
  switch (part.kind) {
    case 'key':
      if (typeof value === 'string' && part.key === CALLS_KEY) {
        const calls = scriptCalls(value)
        if (calls) out.push({ value: calls, key: part.key })
      } else if (Array.isArray(value)) {
        // Dot paths index lists with numbers (`flows.1.label`), as stored tools write them.
        if (/^\d+$/.test(part.key) && Number(part.key) < value.length)
          out.push({ value: value[Number(part.key)], key: Number(part.key) })
      } else if (isRecord(value) && Object.hasOwn(value, part.key))
        out.push({ value: value[part.key], key: part.key })
      return
    case 'index':
      if (Array.isArray(value)) {
        if (part.index < value.length) out.push({ value: value[part.index], key: part.index })
      } else if (isRecord(value) && Object.hasOwn(value, String(part.index)))
        out.push({ value: value[String(part.index)], key: String(part.index) })
      return
    case 'each':
      if (Array.isArray(value)) value.forEach((item, i) => out.push({ value: item, key: i }))
      return
    case 'keyOf':
      if (reached.key !== undefined) out.push({ value: String(reached.key) })
      return
    case 'where': {
      const entries: Array<[string | number, unknown]> = Array.isArray(value)
        ? value.map((item, i) => [i, item])
        : isRecord(value)
          ? Object.entries(value)
          : []
      if (!entries.length) return
      const wanted = whereText(part.value, scope)
      if (wanted === undefined) return
      const fieldOf = (item: unknown) => textAt(item, part.field.map(asKey))
      const exact = entries.find(([, item]) => fieldOf(item) === wanted)
      const found =
        exact ??
        entries.find(([, item]) => {
          const text = fieldOf(item)
          return text !== undefined && fold(text) === fold(wanted)
        })
      if (found !== undefined) out.push({ value: found[1], key: found[0] })
      return
    }
  }
}

function asKey(key: string): PathPart {
  return { kind: 'key', key }
}

function whereText(value: WhereValue, scope: PathScope): string | undefined {
  if ('literal' in value) return value.literal
  const resolved = scope[value.placeholder]
  if (typeof resolved === 'string') return resolved
  if (typeof resolved === 'number' || typeof resolved === 'boolean') return String(resolved)
  return undefined
}

function formatValue(value: WhereValue): string {
  if ('placeholder' in value) return `{{${value.placeholder}}}`
  return /^[^\]"{}]+$/.test(value.literal) && value.literal.trim() === value.literal
    ? value.literal
    : JSON.stringify(value.literal)
}

/** One `[...]` starting at `at`: the part and the index after its `]`, or null. */
function readBracket(path: string, at: number): { part: PathPart; end: number } | null {
  const rest = path.slice(at)
  if (rest.startsWith('[]')) return { part: { kind: 'each' }, end: at + 2 }
  const index = /^\[(\d+)\]/.exec(rest)
  if (index) return { part: { kind: 'index', index: Number(index[1]) }, end: at + index[0].length }
  if (rest.startsWith('["')) {
    const key = readString(path, at + 1)
    if (!key || path[key.end] !== ']') return null
    return { part: { kind: 'key', key: key.value }, end: key.end + 1 }
  }
  if (!rest.startsWith('[?')) return null
  const eq = path.indexOf('==', at + 2)
  if (eq < 0) return null
  const field = path.slice(at + 2, eq).trim()
  if (!field || /[[\]]/.test(field)) return null
  let i = eq + 2
  while (path[i] === ' ') i++
  let value: WhereValue
  if (path.startsWith('{{', i)) {
    const close = path.indexOf('}}', i)
    if (close < 0) return null
    value = { placeholder: path.slice(i + 2, close).trim() }
    i = close + 2
  } else if (path[i] === '"') {
    const text = readString(path, i)
    if (!text) return null
    value = { literal: text.value }
    i = text.end
  } else {
    const close = path.indexOf(']', i)
    if (close < 0) return null
    value = { literal: path.slice(i, close).trim() }
    i = close
  }
  while (path[i] === ' ') i++
  if (path[i] !== ']') return null
  return { part: { kind: 'where', field: field.split('.'), value }, end: i + 1 }
}

/** A JSON string literal starting at `at` (RFC 8259 §7): its value and the index after it. */
function readString(path: string, at: number): { value: string; end: number } | null {
  for (let i = at + 1; i < path.length; i++) {
    if (path[i] === '\\') {
      i++
      continue
    }
    if (path[i] !== '"') continue
    const value = safeJson(path.slice(at, i + 1))
    return value === undefined ? null : { value: value as string, end: i + 1 }
  }
  return null
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
