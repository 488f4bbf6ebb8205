import type { Trace, Exchange } from '../../shared/trace'
import { isHtmlDocument, parseJsonBody, parseJsonRequest } from './classify'
import { graphqlOfExchange } from './graphql'
import { mutationVerdict } from './naming'
import { intentVerbClass } from './intentVerb'
import { isPageReadIntent, scorePageReads, scoreRenderedData } from './documentTarget'
import { rankTargets, scoreExchanges } from './selectTarget'
import type { ScoredExchange } from './targetSignals'
import type { TypedValue } from './typedValues'

/**
 * Every candidate target of a trace, best first: fetch/XHR JSON answers scored by
 * the intent's evidence, pages a page-read intent may mean, and pages whose server-rendered data
 * holds the records; {@link rankTargets} decides between the kinds.
 */
export function rankCandidates(
  trace: Trace,
  eligible: Exchange[],
  typed: TypedValue[],
  committedAt: number | null,
  intent: string,
): ScoredExchange[] {
  const json = scoreExchanges(eligible, typed, committedAt, {
    actions: trace.actions,
    exchanges: trace.exchanges,
    intent,
  })
  const docs = eligible.filter(isHtmlDocument)
  const pageReads = isPageReadIntent(intent)
    ? scorePageReads(docs, trace.actions, typed, intent, trace.startUrl)
    : []
  const rendered = scoreRenderedData(docs, typed, committedAt)
  const ranked = rankTargets(json, pageReads, rendered)
  return ranked.length ? ranked : lastRead(trace, eligible, intent)
}

/** The weight of the last-read fallback: a candidate to review, never a confident one. */
const LAST_READ_WEIGHT = 0.05

/**
 * A HAR of a read that names no value and whose requests name none of the intent's words ("list
 * the files in a folder", "list the posts of one category"): what the page read last is what
 * the person was shown last, so it is offered as a low-confidence candidate instead of none. A
 * read is a fetch/XHR or a page that answered data or HTML and changes nothing (a GET, or a POST
 * that reads: DokuWiki's `call=index`). Recordings with actions have better evidence (what was
 * clicked and typed) and never fall back.
 */
function lastRead(trace: Trace, eligible: Exchange[], intent: string): ScoredExchange[] {
  const cls = intentVerbClass(intent)
  if (trace.actions.length || (cls !== 'read' && cls !== 'search')) return []
  const reads = eligible.filter(
    (e) =>
      ['fetch', 'xhr', 'document'].includes(e.resourceType) &&
      e.status >= 200 &&
      e.status < 300 &&
      !mutationVerdict(e, graphqlOfExchange(e, parseJsonRequest(e))).mutating &&
      (parseJsonBody(e) !== undefined || isHtmlDocument(e)),
  )
  const last = reads[reads.length - 1]
  if (!last) return []
  const html = parseJsonBody(last) === undefined
  return [
    {
      exchange: last,
      score: LAST_READ_WEIGHT,
      rank: LAST_READ_WEIGHT,
      signals: [
        {
          name: 'last_read',
          weight: LAST_READ_WEIGHT,
          detail: 'nothing in the trace names the intent: the last data or page the page read',
        },
      ],
      exactMatches: [],
      prefixOnly: false,
      ...(html ? { document: { result: { kind: 'document' as const, page: true } } } : {}),
    },
  ]
}
