import { setOwn } from '../../shared/safeKeys'

/**
 * The `select` body field of interface.md "A. Site tool calls": keeps only the named parts of a result.
 * Dots walk keys, `[]` maps over a list, a final brace group keeps several keys
 * (`data[].{toolName,slug}`). Paths that match nothing are returned in `missing`.
 */
export function applySelect(
  value: unknown,
  paths: string[],
): { value: unknown; missing: string[] } {
  const missing: string[] = []
  let out: unknown = undefined
  for (const path of paths) {
    const picked = pick(value, tokenize(path))
    if (picked === undefined) missing.push(path)
    else out = merge(out, picked)
  }
  return { value: out ?? {}, missing }
}

type Token = string | { list: true } | { keys: string[] }

function tokenize(path: string): Token[] {
  const brace = /\.?\{([^}]*)\}$/.exec(path)
  const head = brace ? path.slice(0, brace.index) : path
  const tokens: Token[] = []
  for (const part of head.split('.').filter(Boolean)) {
    const name = part.replace(/(\[\])+$/, '')
    if (name) tokens.push(name)
    for (let i = 0; i < (part.length - name.length) / 2; i++) tokens.push({ list: true })
  }
  if (brace)
    tokens.push({
      keys: brace[1]!
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean),
    })
  return tokens
}

function pick(value: unknown, tokens: Token[]): unknown {
  if (!tokens.length) return value
  const [token, ...rest] = tokens
  if (typeof token === 'string') {
    if (!isObject(value) || !Object.hasOwn(value, token)) return undefined
    const inner = pick(value[token], rest)
    return inner === undefined ? undefined : { [token]: inner }
  }
  if ('list' in token!) {
    if (!Array.isArray(value)) return undefined
    const items = value.map((item) => pick(item, rest))
    return items.length && items.every((i) => i === undefined)
      ? undefined
      : items.map((i) => i ?? null)
  }
  if (!isObject(value)) return undefined
  const kept = Object.fromEntries(
    token!.keys.filter((k) => Object.hasOwn(value, k)).map((k) => [k, value[k]]),
  )
  return Object.keys(kept).length ? kept : undefined
}

function merge(a: unknown, b: unknown): unknown {
  if (a === undefined) return b
  if (Array.isArray(a) && Array.isArray(b)) return a.map((item, i) => merge(item, b[i]))
  if (isObject(a) && isObject(b)) {
    const out: Record<string, unknown> = { ...a }
    for (const [k, v] of Object.entries(b))
      setOwn(out, k, Object.hasOwn(out, k) ? merge(out[k], v) : v)
    return out
  }
  return b
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}
