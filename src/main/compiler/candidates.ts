import type { Action, Exchange, Trace } from '../../shared/trace'
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
  return ranked.length ? ranked : lastRead(trace, eligible, intent, typed)
}

/** The weight of the last-read fallback: a candidate to review, never a confident one. */
const LAST_READ_WEIGHT = 0.05

/**
 * A read that names no value and whose requests name none of the intent's words ("list the files
 * in a folder", "list the mount points"): what the page read last is what the person was shown
 * last, so it is offered as a low-confidence candidate instead of none. A read is a fetch/XHR or
 * a page that answered data or HTML and changes nothing (a GET, or a POST that reads: DokuWiki's
 * `call=index`). In a HAR (no actions) that is the last read of the trace. In a recording where
 * nothing was typed or chosen it is the answer to the person's last step
 * ({@link answerToLastStep}): background polls keep running after the person has what they came
 * for, so "last" there would be a poll.
 */
function lastRead(
  trace: Trace,
  eligible: Exchange[],
  intent: string,
  typed: TypedValue[],
): ScoredExchange[] {
  const cls = intentVerbClass(intent)
  if (cls !== 'read' && cls !== 'search') return []
  // A recording where the person typed or chose a value that no request carried is explained,
  // never guessed at, and a recorded search where nothing was typed searched for nothing: the
  // fallback is for reads where there was nothing to type.
  if (trace.actions.length && (typed.length || cls === 'search')) return []
  const reads = eligible.filter(
    (e) =>
      ['fetch', 'xhr', 'document'].includes(e.resourceType) &&
      e.status >= 200 &&
      e.status < 300 &&
      !mutationVerdict(e, graphqlOfExchange(e, parseJsonRequest(e))).mutating &&
      (parseJsonBody(e) !== undefined || isHtmlDocument(e)),
  )
  const last = trace.actions.length ? answerToLastStep(trace.actions, reads) : reads.at(-1)
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

/**
 * The read that answered the person's last step (a click, key or choice): the last page loaded
 * after it (what the person was looking at when they stopped), else the first data read after it (the
 * answer to that step, before any later poll), else the last read before it; none without a step.
 * `reads` in trace order; times in ms since the epoch, as the recorder stamps both.
 */
function answerToLastStep(actions: Action[], reads: Exchange[]): Exchange | undefined {
  // A navigation is stamped when the page has loaded, after its request began: the step is the
  // person's click (or key, or choice) that caused it. A recording of page loads alone, with no
  // step, shows nothing the person asked for.
  const last = actions.filter((a) => a.kind !== 'navigate' && a.kind !== 'fill').at(-1)
  if (!last) return undefined
  const after = reads.filter((e) => e.startedAt >= last.at)
  const pages = after.filter((e) => e.resourceType === 'document')
  return pages.at(-1) ?? after[0] ?? reads.at(-1)
}
