import { safeUrl } from './safeJson'

/**
 * The grammar of a `link` extractor's path (ToolSpec `ExtractorSource`): `param?k=v&k2=v2`, the
 * query parameter `param` of the first `<a href>` whose query holds every `k=v` pair after the
 * `?`. Names and literal values are percent-encoded as in a URL query (RFC 3986 §3.4); a value
 * may be a whole placeholder (`{{input.p0}}`) that the run's scope fills. Shared by the compiler
 * that writes the path and the engine that reads it.
 */
export interface LinkQuery {
  param: string
  match: Array<{ key: string; value: { literal: string } | { placeholder: string } }>
}

const WHOLE_PLACEHOLDER = /^\{\{\s*([a-zA-Z0-9_.:-]+)\s*\}\}$/

/**
 * The `key=text` pairs of the query after the first `?` of a URL or URL template, as written
 * (neither decoded, so a caller decodes as it may fail); none without a `?`.
 */
export function queryPairs(url: string): Array<{ rawKey: string; text: string }> {
  const at = url.indexOf('?')
  if (at < 0) return []
  return url
    .slice(at + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=')
      return { rawKey: eq < 0 ? pair : pair.slice(0, eq), text: eq < 0 ? '' : pair.slice(eq + 1) }
    })
}

/** Writes a link path: `param` and the pairs (`text` is a literal or a `{{placeholder}}`). */
export function formatLinkQuery(param: string, match: Array<[key: string, text: string]>): string {
  const pairs = match.map(
    ([key, text]) =>
      `${encodeURIComponent(key)}=${WHOLE_PLACEHOLDER.test(text) ? text : encodeURIComponent(text)}`,
  )
  return `${encodeURIComponent(param)}?${pairs.join('&')}`
}

/** Reads a link path; null when it has no `?` or a part is not valid percent-encoding. */
export function parseLinkQuery(path: string): LinkQuery | null {
  const at = path.indexOf('?')
  if (at < 0) return null
  try {
    const match = queryPairs(path).map(({ rawKey, text }) => {
      const whole = WHOLE_PLACEHOLDER.exec(text)
      return {
        key: decodeURIComponent(rawKey),
        value: whole ? { placeholder: whole[1]! } : { literal: decodeURIComponent(text) },
      }
    })
    return { param: decodeURIComponent(path.slice(0, at)), match }
  } catch {
    // A part is not valid percent-encoding (URIError): not a link path.
    return null
  }
}

/**
 * The value of the link query's parameter in the first of `hrefs` (as a page holds them,
 * relative or absolute) whose query holds every pair, placeholders read from `scope` (a number
 * compares as its decimal text); undefined when no link matches or a placeholder has no value.
 */
export function linkQueryValue(
  hrefs: string[],
  query: LinkQuery,
  scope: Readonly<Record<string, unknown>>,
): string | undefined {
  const wanted: Array<[string, string]> = []
  for (const { key, value } of query.match) {
    const text = 'literal' in value ? value.literal : scope[value.placeholder]
    if (typeof text !== 'string' && typeof text !== 'number') return undefined
    wanted.push([key, String(text)])
  }
  for (const href of hrefs) {
    const params = safeUrl(href, 'http://link.invalid/')?.searchParams
    if (!params) continue
    if (wanted.every(([key, value]) => params.getAll(key).includes(value))) {
      const found = params.get(query.param)
      if (found !== null) return found
    }
  }
  return undefined
}
