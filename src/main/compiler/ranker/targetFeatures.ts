/**
 * The features of a candidate target for the learned ranker: every evidence signal
 * the compiler's rules gave it (summed by name: a signal is a feature, its hand weight its raw
 * value), plus facts of where the request stands in the trace that no single rule reads (is it
 * the last call of its endpoint, how often the page repeated it, does it write as the intent
 * asks, what its status says). The fitted weights then decide how much each counts. Pure.
 */
import { load } from 'cheerio'
import type { Exchange } from '../../../shared/trace'
import { parseJsonBody, parseJsonRequest } from '../classify'
import { graphqlOfExchange } from '../graphql'
import { intentVerbClass, isWriteClass } from '../intentVerb'
import { mutationVerdict } from '../naming'
import { endpointKey } from '../observations'
import type { ScoredExchange } from '../targetSignals'

/** What the features of the candidates of one trace read beside each candidate. */
export interface FeatureContext {
  intent: string
  /** Every exchange of the trace, in order. */
  exchanges: Exchange[]
}

/**
 * Facts of a candidate that are not signals of the rules, each 0..1. Named `fact_*` so they
 * never collide with a signal name.
 */
const FACTS: Record<string, (c: ScoredExchange, trace: TraceFacts) => number> = {
  fact_last_of_endpoint: (c, t) =>
    t.lastOfEndpoint.get(endpointKey(c.exchange)) === c.exchange ? 1 : 0,
  fact_repeated: (c, t) => Math.min(1, ((t.identical.get(identity(c.exchange)) ?? 1) - 1) / 4),
  fact_writes: (c) => (writes(c.exchange) ? 1 : 0),
  fact_write_agrees: (c, t) => (writes(c.exchange) === t.asksWrite ? 1 : 0),
  fact_status_redirect: (c) => (c.exchange.status >= 300 && c.exchange.status < 400 ? 1 : 0),
  fact_status_error: (c) => (c.exchange.status >= 400 ? 1 : 0),
  fact_late: (c, t) => (t.count > 1 ? t.position.get(c.exchange)! / (t.count - 1) : 1),
  fact_page_read: (c) => (c.document?.result.page && !c.document.data ? 1 : 0),
  fact_rendered_data: (c) => (c.document?.data !== undefined ? 1 : 0),
  fact_document: (c) => (c.exchange.resourceType === 'document' ? 1 : 0),
  // An answer that holds nothing (`{}`, `[]`, `null`) shows nothing a read could return.
  fact_empty_answer: (c) => (isEmptyJson(parseJsonBody(c.exchange)) ? 1 : 0),
  // A page the server filled with its content reads as content; an app shell (scripts, little
  // text) only hosts the data its scripts fetch.
  fact_page_text: (c) => (c.document ? Math.min(1, visibleText(c.exchange).length / 2000) : 0),
  // A page that renders records in a table (a report, a listing) shows a list a read may return.
  fact_page_table_rows: (c) => (c.document ? Math.min(1, tableRows(c.exchange) / 20) : 0),
}

/** Rows of the largest table of an HTML answer. */
function tableRows(exchange: Exchange): number {
  const $ = load(exchange.responseBody?.encoding === 'utf8' ? exchange.responseBody.text : '')
  let most = 0
  $('table').each((_, table) => {
    most = Math.max(most, $(table).find('tr').length)
  })
  return most
}

/** The visible text of an HTML answer (no scripts, styles or markup), memoised per exchange. */
const texts = new WeakMap<Exchange, string>()
function visibleText(exchange: Exchange): string {
  let text = texts.get(exchange)
  if (text === undefined) {
    const $ = load(exchange.responseBody?.encoding === 'utf8' ? exchange.responseBody.text : '')
    $('script, style, noscript, template').remove()
    text = $('body').text().replace(/\s+/g, ' ').trim()
    texts.set(exchange, text)
  }
  return text
}

function isEmptyJson(json: unknown): boolean {
  if (json === null) return true
  if (Array.isArray(json)) return json.length === 0
  return typeof json === 'object' && Object.keys(json as object).length === 0
}

/** What the facts read of the whole trace, gathered once. */
interface TraceFacts {
  asksWrite: boolean
  lastOfEndpoint: Map<string, Exchange>
  identical: Map<string, number>
  position: Map<Exchange, number>
  count: number
}

/** Method, URL and body: two calls with the same identity are one request sent again. */
function identity(e: Exchange): string {
  return `${e.method} ${e.url} ${e.requestBody?.text ?? ''}`
}

function writes(e: Exchange): boolean {
  return mutationVerdict(e, graphqlOfExchange(e, parseJsonRequest(e))).mutating
}

function traceFacts(context: FeatureContext): TraceFacts {
  const lastOfEndpoint = new Map<string, Exchange>()
  const identical = new Map<string, number>()
  const position = new Map<Exchange, number>()
  context.exchanges.forEach((e, i) => {
    lastOfEndpoint.set(endpointKey(e), e)
    identical.set(identity(e), (identical.get(identity(e)) ?? 0) + 1)
    position.set(e, i)
  })
  return {
    asksWrite: isWriteClass(intentVerbClass(context.intent)),
    lastOfEndpoint,
    identical,
    position,
    count: context.exchanges.length,
  }
}

/**
 * The raw features of each candidate, by name: the sum of each signal's weights, then the facts.
 * A name missing from a candidate's record is 0.
 */
export function targetFeatures(
  candidates: ScoredExchange[],
  context: FeatureContext,
): Array<Record<string, number>> {
  const trace = traceFacts(context)
  return candidates.map((c) => {
    const out: Record<string, number> = {}
    for (const s of c.signals) out[`signal_${s.name}`] = (out[`signal_${s.name}`] ?? 0) + s.weight
    for (const [name, fact] of Object.entries(FACTS)) {
      const value = fact(c, trace)
      if (value) out[name] = value
    }
    return out
  })
}

/** A feature vector in the order of `names`, each raw value divided by its scale. */
export function vectorOf(
  raw: Record<string, number>,
  names: readonly string[],
  scales: Readonly<Record<string, number>>,
): number[] {
  return names.map((name) => (raw[name] ?? 0) / (scales[name] || 1))
}
