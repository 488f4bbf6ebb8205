import { headerValue, type Exchange } from '../../shared/trace'
import { parseJsonRequest } from './classify'
import { httpUrl } from '../../shared/urls'
import { graphqlMutating, type GraphqlOperation } from './graphql'
import { getActsAsAsked, operationOf, WRITE_OPERATION, writesByOperation } from './operation'
import { requestValues } from './requestValues'
import { safeUrl } from '../../shared/safeJson'

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
 * The `<site>__<verb_object>` tool name of docs/architecture.md "The records": the verb is the HTTP method, the object
 * the last meaningful path segment (`POST /api/search` → `post_search`).
 */
export function toolName(method: string, url: string): string {
  const parsed = httpUrl(url)
  const segments = (parsed?.pathname ?? '/')
    .split('/')
    .filter((s) => s && !/^(api|v\d+|\d+|[0-9a-f-]{16,})$/i.test(s))
  const object = segments.length
    ? snake(segments[segments.length - 1]!.replace(/\.\w+$/, ''))
    : 'root'
  return `${siteLabel(parsed?.host ?? '')}__${method.toLowerCase()}_${object}`
}

/**
 * The name of a GraphQL tool: `<site>__<operation>` in snake case
 * (`SearchTools` → `search_tools`); an anonymous operation is named by its kind and first field.
 */
export function graphqlToolName(host: string, op: GraphqlOperation): string {
  const object = op.operationName
    ? snake(op.operationName)
    : `${op.kind ?? 'graphql'}_${snake(op.rootField ?? 'operation')}`
  return `${siteLabel(host)}__${object}`
}

/**
 * The name of a document tool: a page read is `<site>__read_page` (the interface's `read_page`);
 * data the server rendered into a page is `<site>__get_<page>` (the interface's `get_search`).
 */
export function documentToolName(url: string, pageRead: boolean): string {
  const host = httpUrl(url)?.host ?? ''
  return pageRead ? `${siteLabel(host)}__read_page` : toolName('GET', url)
}

/** Path words and body keys that say a POST searches or reads. */
const READ_WORDS = new Set([
  'search',
  'query',
  'filter',
  'list',
  'find',
  'lookup',
  'suggest',
  'autocomplete',
  'typeahead',
  'count',
  'get',
  'fetch',
  'read',
  'browse',
  'explore',
])
const READ_KEYS =
  /^(q|query|search|search_?term|term|keywords?|filters?|facets?|sort|order_?by|page|page_?size|per_?page|limit|offset|cursor)$/i

/** Operation names that read (`call=index`, `action=opensearch`, `do=search`). */
const READ_OPERATION =
  /^(index|opensearch|qsearch|search|query|list|get|view|show|read|fetch|info|parse|lookup|find|suggest|export|preview|medialist|heartbeat)$/

/** Whether a tool may change state on the site, with the reason shown as evidence. */
export interface MutationVerdict {
  mutating: boolean
  detail: string
}

/**
 * Decides whether a tool may change state: GET/HEAD read; a GraphQL query
 * reads and a mutation writes (a persisted query by its name); a POST whose path words or body
 * keys say it searches, filters, lists or looks up reads; every other POST, PUT, PATCH or DELETE
 * writes. With `asksWrite` (the intent asks for a write), a GET whose own words name a write act
 * writes too ({@link getActsAsAsked}). When unsure: writes.
 */
export function mutationVerdict(
  exchange: Exchange,
  graphql: GraphqlOperation | null,
  asksWrite = false,
): MutationVerdict {
  const method = exchange.method.toUpperCase()
  if (writesByOperation(exchange))
    return {
      mutating: true,
      detail: `its operation field says ${operationOf(exchange)}: it writes`,
    }
  if (getActsAsAsked(exchange, asksWrite))
    return {
      mutating: true,
      detail: 'a GET whose path or operation names the write the intent asks for: it writes',
    }
  // A GET the person's write was answered by with a redirect (a GET form that saved, then sent
  // the browser back to the list) acted; only such a GET is a target (`classify.ts`).
  if (asksWrite && method === 'GET' && exchange.status >= 300 && exchange.status < 400)
    return {
      mutating: true,
      detail: 'a GET answered by a redirect where a write was asked: it acted',
    }
  if (method === 'GET' || method === 'HEAD')
    return { mutating: false, detail: `${method} reads (RFC 9110 §9.2.1 safe method)` }
  if (graphql) return graphqlMutating(graphql)
  const action = operationOf(exchange)
  if (action) {
    const words = action.split('&').flatMap((pair) =>
      pair
        .slice(pair.indexOf('=') + 1)
        .toLowerCase()
        .split(/[^a-z]+/),
    )
    if (words.some((w: string) => WRITE_OPERATION.test(w)))
      return { mutating: true, detail: `its operation field says ${action}: it writes` }
    if (words.some((w: string) => READ_WORDS.has(w) || READ_OPERATION.test(w)))
      return { mutating: false, detail: `its operation field says ${action}: it reads` }
  }
  if (method !== 'POST') return { mutating: true, detail: `${method} changes the resource` }
  const key = bodyKeys(parseJsonRequest(exchange), exchange).find((k) => READ_KEYS.test(k))
  if (key) return { mutating: false, detail: `a POST whose body carries "${key}": it searches` }
  // Where a write was asked, a path word is weaker than what the site answered: a form that
  // posts to its own page and is sent back to it (Post/Redirect/Get) saved something, whatever a
  // segment says ("list" in `/lists/team/settings/list_identity`). A filter kept in the session
  // answers so too, so a read asked keeps the path's word.
  if (asksWrite && redirectsToItself(exchange))
    return {
      mutating: true,
      detail: 'a POST answered by a redirect back to its own page (Post/Redirect/Get): it saved',
    }
  const word = pathWords(exchange.url).find((w) => READ_WORDS.has(w))
  if (word) return { mutating: false, detail: `a POST whose path says "${word}": it reads` }
  return { mutating: true, detail: 'a POST that neither searches nor reads: it may write' }
}

/**
 * Where a redirect (RFC 9110 §15.4: a 3xx with `Location`) sent the browser, resolved against
 * the request's URL; undefined for any other answer or a Location that is no URL.
 */
export function redirectedTo(exchange: Exchange): URL | undefined {
  if (exchange.status < 300 || exchange.status > 399) return undefined
  const location = headerValue(exchange.responseHeaders, 'location')
  return location ? safeUrl(location, exchange.url) : undefined
}

/**
 * True when `exchange` was answered by a redirect to its own path: the Post/Redirect/Get of a
 * form saved on its own page.
 */
function redirectsToItself(exchange: Exchange): boolean {
  const to = redirectedTo(exchange)
  const from = httpUrl(exchange.url)
  const path = (u: URL) => u.pathname.replace(/\/+$/, '')
  if (!to || !from || from.host !== to.host || path(from) !== path(to)) return false
  // A search form redirects to itself too, with what it was sent now in the address
  // (`list.php?…&filtersn=Rinaldi`): that one read.
  const target = [...to.searchParams.values()].join('\n').toLowerCase()
  return !requestValues(exchange).some(
    (v) =>
      v.location === 'body' &&
      typeof v.value === 'string' &&
      v.value.trim().length >= 2 &&
      target.includes(v.value.trim().toLowerCase()),
  )
}

/** Lower-case words of the URL path: segments split on `-`, `_`, `.` and camelCase. */
function pathWords(url: string): string[] {
  const path = httpUrl(url)?.pathname ?? ''
  return path
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase())
}

function bodyKeys(json: unknown, exchange: Exchange): string[] {
  if (json && typeof json === 'object' && !Array.isArray(json)) {
    const obj = json as Record<string, unknown>
    const nested = Object.values(obj).flatMap((v) =>
      v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v) : [],
    )
    return [...Object.keys(obj), ...nested]
  }
  if (exchange.requestBody?.encoding === 'utf8' && json === undefined)
    return [...new URLSearchParams(exchange.requestBody.text).keys()]
  return []
}

/** snake_case of a name or path segment (`searchTools` → `search_tools`). */
export function snake(s: string): string {
  return (
    s
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
      .replace(/[^A-Za-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .toLowerCase() || 'site'
  )
}
