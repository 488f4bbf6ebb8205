import type { Action, Exchange } from '../../shared/trace'
import { pathSegments } from './requestValues'
import { normalValue } from './valueSpelling'

export { normalValue }

/** Extensions that ask for a format of the record the segment names (`/old-rota.json`). */
const FORMAT_SUFFIX = /\.(json|xml|html?|txt|md|csv|ya?ml|rss|atom)$/i

/**
 * The format extension after a path segment's value (`.json` of `old-rota.json`), or '' when it
 * has none or nothing before it.
 */
export function formatSuffix(segment: string): string {
  const found = FORMAT_SUFFIX.exec(segment)
  return found && found.index > 0 ? found[0] : ''
}

/** The index of the first path segment that spells `value` in any encoding, or -1. */
export function segmentCarrying(segments: string[], value: string): number {
  const want = normalValue(value)
  if (want.length < 2) return -1
  return segments.findIndex((s) => normalValue(s) === want)
}

/** Roles of the elements a person picks an item by (a row, a link, an option): their names are values. */
const PICK_ROLES = new Set([
  'link',
  'option',
  'row',
  'cell',
  'gridcell',
  'treeitem',
  'menuitem',
  'listitem',
  'tab',
])

/**
 * The names of the items the person picked by clicking (a folder's link, a page in a list, a
 * suggestion): what a request's path then names. Buttons are left out: their names are commands.
 */
export function pickedNames(
  actions: Action[],
): Array<{ value: string; at: number; pageUrl: string }> {
  const out: Array<{ value: string; at: number; pageUrl: string }> = []
  for (const a of actions) {
    if (a.kind !== 'click' || !a.role || !PICK_ROLES.has(a.role)) continue
    const name = (a.name ?? '').trim()
    if (name.length >= 2 && name.length <= 80)
      out.push({ value: name, at: a.at, pageUrl: a.pageUrl })
  }
  return out
}

/** The path of every request of the trace, split into decoded segments, for {@link hasSiblings}. */
export function tracePaths(exchanges: Exchange[]): string[][] {
  const seen = new Set<string>()
  const out: string[][] = []
  for (const e of exchanges) {
    // Assets live beside pages (`/-/static/app.js`): only requests for data or pages count.
    if (!['document', 'xhr', 'fetch', 'other'].includes(e.resourceType)) continue
    const path = e.url.split(/[?#]/)[0]!
    if (seen.has(path)) continue
    seen.add(path)
    out.push(pathSegments(e.url))
  }
  return out
}

const API_ROOT =
  /^(api|rest|v\d+(\.\d+)?|json|graphql|ajax|data|services?|_api|wp-json|public|internal)$/i

/**
 * True when segment `index` of `segments` varies across the trace: the path up to it was
 * requested on its own (a folder, then a file in it), or another request has the same prefix and
 * another segment there (`/pages/A` and `/pages/B`), and it is not right under an API root
 * (`/api/products`). Then a plain word there is a value, not a route word.
 */
export function hasSiblings(segments: string[], index: number, paths: string[][]): boolean {
  const prefix = segments.slice(0, index)
  // Right under an API root (`/api/<resource>`) the segment names a resource, not a value.
  if (prefix.every((s) => API_ROOT.test(s))) return false
  const same = (p: string[]) => prefix.every((s, i) => p[i] === s)
  return paths.some(
    (p) =>
      (p.length === index && same(p)) ||
      (p.length > index && same(p) && normalValue(p[index]!) !== normalValue(segments[index]!)),
  )
}
