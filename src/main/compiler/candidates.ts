import type { Trace, Exchange } from '../../shared/trace'
import { isHtmlDocument } from './classify'
import { isPageReadIntent, scorePageReads, scoreRenderedData } from './documentTarget'
import { rankTargets, scoreExchanges, type ScoredExchange } from './selectTarget'
import type { TypedValue } from './typedValues'

/**
 * Every candidate target of a trace, best first (issue 3): fetch/XHR JSON answers scored by
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
  return rankTargets(json, pageReads, rendered)
}
