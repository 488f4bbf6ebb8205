/**
 * How the corpus compares requests with answer keys: by method, URL path (a string or a RegExp)
 * and, for action-style APIs, the fields that name the operation (in the query, a form body, or a
 * JSON body by key or JSON path).
 */
import type { RequestTemplate, ToolSpec } from '../../src/shared/toolSpec'
import type { Exchange } from '../../src/shared/trace'
import { textAt } from '../../src/shared/jsonPath'
import type { RequestKey } from './types'

/** Stands for a value only known at run time (a step's extract, a login value, a secret). */
const WILD = '__sitecall_wild__'

/** The field's value in a URL's query or a form, multipart or JSON body; null when absent. */
function fieldValue(url: URL, body: string | null, field: string): string | null {
  const q = url.searchParams.get(field)
  if (q !== null) return q
  if (!body) return null
  const multipart = new RegExp(`name="${field}"\\r?\\n\\r?\\n([^\\r\\n]*)`).exec(body)
  if (multipart) return multipart[1]!
  try {
    const json = JSON.parse(body) as Record<string, unknown>
    // A JSON path (`params[0]`): the operation of an RPC call that names it in its arguments.
    const v = /[.[]/.test(field) ? textAt(json, field) : json[field]
    return typeof v === 'string' ? v : null
  } catch {
    return new URLSearchParams(body).get(field)
  }
}

const decode = (s: string): string => {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}

/** A path matches a string key segment by segment (a run-time segment matches any), a RegExp whole. */
function pathMatches(path: string, want: string | RegExp): boolean {
  if (typeof want === 'string') {
    const mine = path.split('/')
    const theirs = want.split('/')
    return (
      mine.length === theirs.length &&
      mine.every((seg, i) => seg.includes(WILD) || seg === theirs[i] || decode(seg) === theirs[i])
    )
  }
  const whole = new RegExp(`^(?:${want.source})$`, want.flags)
  const tries = path.includes(WILD) ? ['1', 'x'].map((g) => path.split(WILD).join(g)) : [path]
  return tries.some((p) => whole.test(p) || whole.test(decode(p)))
}

function matches(method: string, url: URL, body: string | null, key: RequestKey): boolean {
  if (method.toUpperCase() !== key.method.toUpperCase()) return false
  if (!pathMatches(url.pathname, key.path)) return false
  if (!key.operation) return true
  const operations = Array.isArray(key.operation) ? key.operation : [key.operation]
  // A value read at run time (from a page a step opened) matches, as a run-time path segment does.
  return operations.every((op) => {
    const value = fieldValue(url, body, op.field)
    return value === op.value || (value?.includes(WILD) ?? false)
  })
}

/** Does a recorded exchange match a key? */
export function exchangeMatches(e: Exchange, key: RequestKey): boolean {
  const body = e.requestBody?.encoding === 'utf8' ? e.requestBody.text : null
  return matches(e.method, new URL(e.url), body, key)
}

/**
 * Does a compiled step match a key? The template is filled with the tool's input defaults (what
 * the person gave); every other placeholder matches anything.
 */
export function stepMatches(tool: ToolSpec, request: RequestTemplate, key: RequestKey): boolean {
  const fill = (text: string): string =>
    text.replace(/\{\{\s*([^}]+?)\s*\}\}/g, (_, name: string) => {
      const slot = /^input\.(p\d+)$/.exec(name)?.[1]
      if (!slot) return WILD
      const prop = Object.values(tool.inputs.properties ?? {}).find((p) => p['x-slot'] === slot)
      return prop?.default === undefined ? WILD : encodeURIComponent(String(prop.default))
    })
  let url: URL
  try {
    url = new URL(fill(request.url))
  } catch {
    return false
  }
  return matches(request.method, url, filledBody(request.body, fill), key)
}

function filledBody(body: RequestTemplate['body'], fill: (t: string) => string): string | null {
  if (!body) return null
  if (body.kind === 'text') return fill(body.template)
  if (body.kind === 'json') return fill(JSON.stringify(body.template))
  if (body.kind === 'binary') return null
  const form = new URLSearchParams()
  // A multipart body's text fields read like a form's; its files carry no operation.
  const fields =
    body.kind === 'multipart'
      ? body.template.flatMap((p) => ('value' in p ? [[p.name, p.value] as const] : []))
      : Object.entries(body.template)
  for (const [k, v] of fields) form.append(k, decode(fill(v)))
  return form.toString()
}

/**
 * A run's result as one searchable string: a string as it is; an object (a page read as
 * `{title, text, links}`, a parsed answer) as its keys and string and number values, one a line,
 * so a word search sees `batch1` on its own (in JSON text it would follow a literal `\n`).
 */
export function resultText(result: unknown): string {
  if (typeof result === 'string') return result
  const parts: string[] = []
  const walk = (value: unknown): void => {
    if (typeof value === 'string' || typeof value === 'number') parts.push(String(value))
    else if (Array.isArray(value)) value.forEach(walk)
    else if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) {
        parts.push(k)
        walk(v)
      }
  }
  walk(result)
  return parts.join('\n')
}
