import { fold, formatPath, type PathPart } from '../../shared/jsonPath'
import type { EvidenceSignal, SlotSchema, ToolSpec } from '../../shared/toolSpec'
import type { Exchange, Trace } from '../../shared/trace'
import { parseJsonBody } from './classify'
import { httpUrl } from '../../shared/urls'
import { intentValues } from './intentValues'
import { intentVerbClass } from './intentVerb'
import { intentWords } from './intentWords'
import { personValues, type PersonValue } from './personValues'
import { singular } from './valueSpelling'

/** A search the page did in the browser on data one request had loaded. */
export interface PageSearch {
  /** The request whose answer the page searched: the tool's target. */
  exchangeId: string
  /** The term as the person typed, quoted or named it. */
  term: string
  /** Typed or quoted (not only a phrase of the intent). */
  strong: boolean
  /** The list searched (JSON path, '' for an answer that is the list) and the fields holding it. */
  path: string
  fields: string[]
  /** How many of the list's records hold the term, of how many. */
  matches: number
  total: number
}

/** Words that say the intent searches, wherever they stand ("wiki search Recipe"). */
const SEARCH_WORDS =
  /\b(search(es|ed|ing)?|find|look(ing)? (up|for)|filter|mentions?|mentioning|contain(s|ing)?|matching|named|called)\b/i
/** Lists nested deeper than this in an answer are not searched for the term. */
const MAX_DEPTH = 4

/**
 * Finds a search the page did on data it had loaded ("some apps load their
 * data once and filter it in the browser: no request carries the typed term"): the intent
 * searches (its verb, or a search word anywhere), a term the person typed, quoted or named in
 * the intent travels in no request of the trace, and an earlier JSON answer holds a list of
 * records some of which contain the term in a string field (TiddlyWiki's
 * `/recipes/default/tiddlers.json`, Node-RED's `GET /flows`). Typed and quoted terms are tried
 * first; among the intent's own phrases the longest, then the last, wins; among lists one whose
 * request's path names a word of the intent (NZBGet's `/jsonrpc/history` for "search my history",
 * not the log that also mentions the title), then the one with most matching records, then the
 * latest. Null when the search went to the server (a typed
 * term, or an intent phrase, is a value of some request) or no list holds the term. Pure.
 */
export function findPageSearch(trace: Trace, intent: string): PageSearch | null {
  if (intentVerbClass(intent) !== 'search' && !SEARCH_WORDS.test(intent)) return null
  const host = httpUrl(trace.startUrl)?.host
  const answers = trace.exchanges.filter(
    (e) =>
      e.method === 'GET' &&
      e.status >= 200 &&
      e.status < 300 &&
      (!host || httpUrl(e.url)?.host === host) &&
      parseJsonBody(e) !== undefined,
  )
  if (!answers.length) return null
  const sent = trace.exchanges.map(sentText)
  // As a whole value, not inside a word: TiddlyWiki's path `/recipes/` carries no "Recipe".
  const carried = (term: string) => {
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escape(fold(term))}(?![\\p{L}\\p{N}])`, 'u')
    return sent.some((text) => pattern.test(text))
  }
  const terms = personValues(trace, intent).filter((v) => v.source !== 'clicked')
  // A value of the intent that a request carries: the search went to the server.
  if (terms.some((t) => t.strong && carried(t.value))) return null
  if (!terms.some((t) => t.strong) && intentValues(intent, trace.exchanges).length) return null
  const words = intentWords(intent)
  const named = (e: Exchange) =>
    (httpUrl(e.url)?.pathname ?? '')
      .toLowerCase()
      .split(/[^a-z]+/)
      .some((w) => w.length > 2 && words.includes(singular(w)))
  let weak: { search: PageSearch; words: number } | null = null
  for (const term of terms) {
    if (carried(term.value)) continue
    const search = bestList(answers, term, named)
    if (!search) continue
    if (term.strong) return search
    const words = term.value.split(/\s+/).length
    if (!weak || words >= weak.words) weak = { search, words }
  }
  return weak?.search ?? null
}

/**
 * The compiled tool as a page search (see {@link findPageSearch}): its target is the searched
 * request (compiled as if chosen by hand), and its result keeps the list's records that hold a
 * new input, the term (`x-in: answer`, optional: left out, every record comes back; its example
 * is the recorded term). The hand-choice signal gives way to a `page_search` one, and the score
 * and confidence are at least 0.7 for a typed or quoted term, 0.5 for a phrase of the intent
 * (the request was chosen by this rule, not by the ranking its score came from).
 */
export function asPageSearch(tool: ToolSpec, search: PageSearch): ToolSpec {
  const used = Object.values(tool.inputs.properties).map((p) =>
    Number(/^p(\d+)$/.exec(p['x-slot'])?.[1] ?? -1),
  )
  const slot = `p${Math.max(-1, ...used) + 1}`
  let name = 'query'
  for (let i = 2; name in tool.inputs.properties; i++) name = `query_${i}`
  const input: SlotSchema = {
    'x-slot': slot,
    'x-in': 'answer',
    'x-path': 'result.filter',
    type: 'string',
    description: `Keeps the records whose ${search.fields.join(' or ')} contains this text (any case), as the page's own search does; left out, every record.`,
    examples: [search.term],
  }
  const signal: EvidenceSignal = {
    name: 'page_search',
    weight: 0,
    detail: `the page searched this answer for "${search.term}" (sent in no request): ${search.matches} of ${search.total} records of ${search.path || 'the list'} hold it in ${search.fields.join(', ')}`,
  }
  const floor = search.strong ? 0.7 : 0.5
  return {
    ...tool,
    inputs: { ...tool.inputs, properties: { ...tool.inputs.properties, [name]: input } },
    result: {
      kind: 'json',
      filter: { path: search.path, fields: search.fields, input: slot },
    },
    evidence: {
      ...tool.evidence,
      score: Math.max(tool.evidence.score, floor),
      confidence: Math.max(tool.evidence.confidence ?? 0, floor),
      signals: [...tool.evidence.signals.filter((s) => s.name !== 'chosen_by_hand'), signal],
      // Their evidence was weighed against a request chosen by hand; say why this one won.
      alternatives: tool.evidence.alternatives.map((a) => ({
        ...a,
        reason: `the page searched the target's answer for "${search.term}", not this one's`,
      })),
    },
  }
}

/** What a request sent, decoded and folded: its URL (`+` as space) and body (raw and decoded). */
function sentText(exchange: Exchange): string {
  const url = exchange.url.replace(/\+/g, ' ')
  let decoded = url
  try {
    decoded = decodeURIComponent(url)
  } catch {
    // a stray % stays as it is
  }
  const body = exchange.requestBody?.encoding === 'utf8' ? exchange.requestBody.text : ''
  let form = body.replace(/\+/g, ' ')
  try {
    form = decodeURIComponent(form)
  } catch {
    // not form-encoded
  }
  return fold(`${decoded} ${body} ${form}`)
}

/** The list of records in one of the answers that most holds `term`, or null. */
function bestList(
  answers: Exchange[],
  term: PersonValue,
  named: (e: Exchange) => boolean,
): PageSearch | null {
  const needle = fold(term.value)
  // A phrase of the intent must start a word ("word" is not in "password"); typed text is
  // searched as the page does, anywhere.
  const holds = term.strong
    ? (text: string) => fold(text).includes(needle)
    : (text: string) => new RegExp(`(?<![\\p{L}\\p{N}])${escape(needle)}`, 'u').test(fold(text))
  let best: PageSearch | null = null
  let bestNamed = false
  for (const exchange of answers) {
    const isNamed = named(exchange)
    if (bestNamed && !isNamed) continue
    for (const { parts, list } of listsOf(parseJsonBody(exchange), [], 0)) {
      const fields = new Set<string>()
      let matches = 0
      for (const item of list) {
        let hit = false
        for (const [key, value] of Object.entries(item))
          if (typeof value === 'string' && holds(value)) {
            fields.add(key)
            hit = true
          }
        if (hit) matches++
      }
      if (!matches) continue
      if (best && matches < best.matches && isNamed === bestNamed) continue
      bestNamed = isNamed
      best = {
        exchangeId: exchange.id,
        term: term.value,
        strong: term.strong,
        path: formatPath(parts),
        fields: [...fields],
        matches,
        total: list.length,
      }
    }
  }
  return best
}

/** Lists of records (arrays whose items are all objects) reached through keys only. */
function listsOf(
  json: unknown,
  parts: PathPart[],
  depth: number,
): Array<{ parts: PathPart[]; list: Array<Record<string, unknown>> }> {
  if (depth > MAX_DEPTH) return []
  if (Array.isArray(json))
    return json.length && json.every(isRecord)
      ? [{ parts, list: json as Array<Record<string, unknown>> }]
      : []
  if (!isRecord(json)) return []
  return Object.entries(json).flatMap(([key, value]) =>
    listsOf(value, [...parts, { kind: 'key', key }], depth + 1),
  )
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
