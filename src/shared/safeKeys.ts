/**
 * Property names that must never come from a person, a program or a site when code walks or
 * writes an object by name. Reading `node['__proto__']` reaches `Object.prototype`, and writing
 * through it changes every object of the process (prototype pollution, CWE-1321); `constructor`
 * and `prototype` lead to the same place one step later (`x.constructor.prototype`). Pure, no Node.
 */

const UNSAFE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'prototype', 'constructor'])

/** True for `__proto__`, `prototype` and `constructor`: names no walker may follow or write. */
export function isUnsafeKey(key: string): boolean {
  return UNSAFE_KEYS.has(key)
}

/**
 * The first segment of a dot or bracket path (`a.b`, `a[0]`, `a["b"]`, `[?f==v]`) that is an
 * unsafe key, or null when there is none. Splits on every path punctuation mark, so a key hidden
 * in quotes or a lookup's field is found too.
 */
export function unsafeSegment(path: string): string | null {
  for (const segment of path.split(/[.[\]"'?=\s]+/)) if (isUnsafeKey(segment)) return segment
  return null
}

/**
 * `node[key]` when `node` is an object or a list that holds `key` as its own property; undefined
 * otherwise (inherited names such as `toString` or `__proto__` are never followed).
 */
export function ownValue(node: unknown, key: string | number): unknown {
  if (node === null || typeof node !== 'object') return undefined
  const name = String(key)
  return Object.hasOwn(node, name) && !isUnsafeKey(name)
    ? (node as Record<string, unknown>)[name]
    : undefined
}

/**
 * Sets `key` on `target` as its own enumerable property, whatever the key: unlike `target[key] =`,
 * a key `__proto__` from a site's JSON stays data and never replaces the target's prototype.
 */
export function setOwn(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  })
}
