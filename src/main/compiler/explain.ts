import type { CompileExplanation } from '../../shared/appApi'
import type { Trace } from '../../shared/trace'
import { isHtmlDocument } from './classify'
import { isPageReadIntent } from './documentTarget'
import { matchTyped, requestValues } from './requestValues'
import { TARGET_THRESHOLD } from './selectTarget'
import type { ScoredExchange } from './targetSignals'
import type { TypedValue } from './typedValues'
import { decodeOrKeep, pathOrText } from '../../shared/urls'

/**
 * Explains why no tool was compiled (never a guessed tool). `missing` names
 * what the trace lacks, specifically: for each typed value, whether no request carried it, or
 * only requests that can never be targets did (and which), or only ones whose answers hold no
 * records; for a page read, that no page was opened. `considered` lists every exchange with why
 * it was not chosen (at most 100).
 */
export function explainMissing(
  trace: Trace,
  intent: string,
  typed: TypedValue[],
  scored: ScoredExchange[],
  considered: CompileExplanation['considered'],
  committedAt: number | null,
): CompileExplanation {
  const missing: string[] = []
  const rejected = new Map(considered.map((c) => [c.exchangeId, c.rejectedBecause]))
  if (!trace.exchanges.length) missing.push('the trace holds no requests: was the page loaded?')
  if (
    isPageReadIntent(intent) &&
    !trace.exchanges.some((e) => isHtmlDocument(e) && !rejected.has(e.id))
  )
    missing.push(
      'an HTML page of the site opened during the recording: navigate to the page to read',
    )
  if (!typed.length) {
    missing.push('nothing was typed or chosen: type the value the tool should take')
  } else {
    // Values the intent names (a HAR without actions) were never typed: no submit to look for.
    const recorded = typed.some((t) => !t.fromIntent)
    if (recorded && committedAt === null)
      missing.push('a submit: press Enter or click the search/submit button after typing')
    else if (
      recorded &&
      committedAt !== null &&
      !trace.exchanges.some((e) => e.startedAt >= committedAt - 50)
    )
      missing.push('any request after the submit: wait for the results before stopping')
    for (const t of typed) missing.push(whereTyped(trace, t, rejected))
  }
  const scoredIds = new Set(scored.map((s) => s.exchange.id))
  for (const s of scored)
    considered.push({
      exchangeId: s.exchange.id,
      method: s.exchange.method,
      url: s.exchange.url,
      rejectedBecause: `scored ${s.score}, below ${TARGET_THRESHOLD}: ${s.signals.map((x) => x.name).join(', ') || 'no signals'}`,
    })
  for (const e of trace.exchanges) {
    if (rejected.has(e.id) || scoredIds.has(e.id)) continue
    considered.push({
      exchangeId: e.id,
      method: e.method,
      url: e.url,
      rejectedBecause: typed.length
        ? 'carries none of the typed values'
        : 'carries nothing of the intent',
    })
  }
  const best = scored[0]?.score
  const reason =
    best === undefined
      ? 'No request in the trace carries the evidence of the intent.'
      : `The best request scored ${best}, below ${TARGET_THRESHOLD}: not enough evidence to pick it.`
  return { reason, missing, considered: considered.slice(0, 100) }
}

/** Where a typed value went: nowhere, only into requests that cannot be tools, or elsewhere. */
function whereTyped(trace: Trace, t: TypedValue, rejected: Map<string, string>): string {
  const carriers = trace.exchanges.filter(
    (e) =>
      requestValues(e).some((v) => matchTyped(v.value, t.value) === 'exact') ||
      decodeOrKeep(e.url).includes(`/${t.value}`),
  )
  const field = t.fromIntent ? 'the intent' : (t.name ?? t.fieldName ?? 'a field')
  if (!carriers.length)
    return `a fetch/XHR answering JSON (or a page) whose request carries "${t.value}" (typed into ${field}): no request carried it; submit and wait for the results`
  const refused = carriers.filter((e) => rejected.has(e.id))
  if (refused.length === carriers.length)
    return `a request carrying "${t.value}" that can be a tool: it went only to ${refused
      .slice(0, 3)
      .map((e) => `${e.method} ${pathOrText(e.url)} (${rejected.get(e.id)})`)
      .join(', ')}`
  return `an answer with the records for "${t.value}": ${carriers
    .filter((e) => !rejected.has(e.id))
    .slice(0, 3)
    .map((e) => `${e.method} ${pathOrText(e.url)}`)
    .join(', ')} carried it but answered no records the page showed`
}
