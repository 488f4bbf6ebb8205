import { safeUrl } from './classify'

/**
 * The site part of a tool name: the host's main label (`www.example.co.uk` → `example`);
 * loopback and IP hosts are `local`.
 */
export function siteLabel(host: string): string {
  const hostname = host.replace(/:\d+$/, '')
  if (/^(localhost|\d+\.\d+\.\d+\.\d+|\[.*\])$/.test(hostname)) return 'local'
  const labels = hostname.split('.').filter((l) => l !== 'www')
  const main =
    labels.length >= 3 && labels.at(-2)!.length <= 3
      ? labels.at(-3)!
      : (labels.at(-2) ?? labels[0]!)
  return snake(main)
}

/**
 * The `<site>__<verb_object>` tool name of DESIGN.md §4: the verb is the HTTP method, the object
 * the last meaningful path segment (`POST /api/search` → `post_search`).
 */
export function toolName(method: string, url: string): string {
  const parsed = safeUrl(url)
  const segments = (parsed?.pathname ?? '/')
    .split('/')
    .filter((s) => s && !/^(api|v\d+|\d+|[0-9a-f-]{16,})$/i.test(s))
  const object = segments.length
    ? snake(segments[segments.length - 1]!.replace(/\.\w+$/, ''))
    : 'root'
  return `${siteLabel(parsed?.host ?? '')}__${method.toLowerCase()}_${object}`
}

/**
 * Whether a tool may change state on the site (issue 3 "Mutations"): GET/HEAD never; a POST that
 * searches or reads (by its path or a query-like key) does not; anything else, or unsure, does.
 */
export function isMutating(method: string, url: string, typedKeys: string[]): boolean {
  const m = method.toUpperCase()
  if (m === 'GET' || m === 'HEAD') return false
  if (m !== 'POST') return true
  const path = safeUrl(url)?.pathname ?? ''
  if (/(search|query|find|lookup|list|filter|suggest|autocomplete|read|get|graphql)/i.test(path))
    return false
  return !typedKeys.some((k) => /^(q|query|search|term|keywords?|text)$/i.test(k))
}

function snake(s: string): string {
  return (
    s
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      .replace(/[^A-Za-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .toLowerCase() || 'site'
  )
}
