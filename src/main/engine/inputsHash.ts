import { createHash } from 'node:crypto'

/** JSON with object keys sorted, so equal inputs hash equally whatever their key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`
  return JSON.stringify(value) ?? 'null'
}

/**
 * sha256 (hex) of the canonical JSON of an operation's inputs: what an Idempotency-Key or an
 * operation key is compared on (interface.md "Resources": the same key with other input is a conflict).
 */
export function hashInputs(inputs: unknown): string {
  return createHash('sha256').update(canonicalJson(inputs)).digest('hex')
}
