import type { JsonSchema } from '../../shared/toolSpec'

/** The JSON Schema type of a JSON value: integers are told apart from other numbers. */
function jsonType(
  value: unknown,
): 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null' {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value as 'object' | 'string' | 'boolean'
}

/**
 * Infers a JSON Schema (2020-12 subset) from one observed value. Objects list every key as
 * required; array items are the merge of all elements (keys present in every element stay
 * required). `maxDepth` bounds the work on deep documents; deeper values get `{}` (any).
 */
export function inferSchema(value: unknown, maxDepth = 8): JsonSchema {
  if (maxDepth <= 0) return {}
  const type = jsonType(value)
  if (type === 'object') {
    const obj = value as Record<string, unknown>
    const properties: Record<string, JsonSchema> = {}
    for (const [key, v] of Object.entries(obj)) properties[key] = inferSchema(v, maxDepth - 1)
    return { type, properties, required: Object.keys(obj) }
  }
  if (type === 'array') {
    const items = (value as unknown[]).map((v) => inferSchema(v, maxDepth - 1))
    return items.length ? { type, items: items.reduce(mergeSchemas) } : { type, items: {} }
  }
  return { type }
}

/**
 * Merges two schemas of values seen in the same place: object keys are unioned, `required` is the
 * intersection; different types become a type list; an integer merged with a number is a number.
 */
function mergeSchemas(a: JsonSchema, b: JsonSchema): JsonSchema {
  if (!a.type) return b
  if (!b.type) return a
  if (a.type === 'object' && b.type === 'object') {
    const properties: Record<string, JsonSchema> = { ...a.properties }
    for (const [key, s] of Object.entries(b.properties ?? {}))
      properties[key] = properties[key] ? mergeSchemas(properties[key]!, s) : s
    const required = (a.required ?? []).filter((k) => (b.required ?? []).includes(k))
    return { type: 'object', properties, required }
  }
  if (a.type === 'array' && b.type === 'array')
    return { type: 'array', items: mergeSchemas(a.items ?? {}, b.items ?? {}) }
  if (a.type === b.type) return a
  const numeric = new Set([a.type, b.type])
  if (numeric.size === 2 && numeric.has('integer') && numeric.has('number'))
    return { type: 'number' }
  const types = [...new Set([...[a.type].flat(), ...[b.type].flat()])] as string[]
  return { type: types }
}
