import type { Alternative } from '../../shared/toolSpec'
import type { Action, Exchange } from '../../shared/trace'
import { httpUrl } from '../../shared/urls'
import { endpointKey } from './observations'
import { preferOpenedRecord } from './recordRead'
import type { PageContext } from './shownProbes'
import {
  pageEvidence,
  roundScore,
  scoreExchange,
  WEIGHTS,
  type ScoredExchange,
} from './targetSignals'
import type { TypedValue } from './typedValues'

/** The lowest score that makes a candidate: the same bar as compileTrace's MIN_TARGET_SCORE. */
export const TARGET_THRESHOLD = 0.5

/**
 * Scores the exchanges that may be targets: the typed values appear in its request (or, with
 * nothing typed, the intent's words); its answer holds records that mention the typed value; the
 * page showed that answer
 * (later clicks name a record, later loads fetch a URL it holds); it came after the person
 * committed the form; it is a fetch/XHR with a JSON answer. A suggest endpoint and a count-only
 * answer weigh against (the signals are in `targetSignals`). Returns the candidates best first;
 * ties go to the later request (of a repeated search, the page shows the last answer).
 */
export function scoreExchanges(
  exchanges: Exchange[],
  typed: TypedValue[],
  committedAt: number | null,
  context?: PageContext,
): ScoredExchange[] {
  const page = pageEvidence(context, committedAt)
  const scored = exchanges.map((exchange) => scoreExchange(exchange, typed, committedAt, page))
  if (context) penalizeMovedOn(scored, context.actions)
  if (context?.intent) preferOpenedRecord(scored, context.intent, page.words)
  return sortScored(scored.filter((s) => s.score > 0))
}

/**
 * The evidence of one exchange the person named as the target (manual compile), scored like any
 * candidate but kept even when it carries nothing of the intent (score 0): the person's choice is
 * the evidence, marked by a `chosen_by_hand` signal (weight 0).
 */
export function scoreChosen(
  exchange: Exchange,
  typed: TypedValue[],
  committedAt: number | null,
  context: PageContext,
): ScoredExchange {
  const page = pageEvidence(context, committedAt)
  return withHandSignal(scoreExchange(exchange, typed, committedAt, page))
}

/** The candidate with the `chosen_by_hand` signal added (a copy: rankings stay as they were). */
export function withHandSignal(scored: ScoredExchange): ScoredExchange {
  return {
    ...scored,
    signals: [
      ...scored.signals,
      {
        name: 'chosen_by_hand',
        weight: 0,
        detail: `the person chose this request as the target (evidence score ${scored.score})`,
      },
    ],
  }
}

/**
 * A candidate the person moved on from: after its answer they clicked or navigated to another
 * page, where a later request names the intent's words and this one names none (the search that
 * led to the page whose related tools the intent asks for).
 */
function penalizeMovedOn(scored: ScoredExchange[], actions: Action[]): void {
  const named = scored.filter((s) => s.score > 0 && (s.intentHits ?? 0) > 0)
  if (!named.length) return
  for (const s of scored) {
    if (s.score <= 0 || (s.intentHits ?? 0) > 0) continue
    const later = named.find(
      (n) =>
        n.exchange.startedAt > s.exchange.startedAt &&
        actions.some(
          (a) =>
            (a.kind === 'click' || a.kind === 'navigate') &&
            a.at > s.exchange.startedAt &&
            a.at <= n.exchange.startedAt,
        ),
    )
    if (!later) continue
    s.signals.push({
      name: 'person_moved_on',
      weight: WEIGHTS.movedOn,
      detail: `after this answer the person opened another page, where ${later.exchange.method} ${httpUrl(later.exchange.url)?.pathname} names the intent's words`,
    })
    s.score = roundScore(Math.max(0.01, s.score + WEIGHTS.movedOn))
    s.rank = roundScore(Math.max(0.01, (s.rank ?? s.score) + WEIGHTS.movedOn))
  }
}

/** Best first; equal scores: the later request first. */
export function sortScored(scored: ScoredExchange[]): ScoredExchange[] {
  return scored.sort(
    (a, b) => (b.rank ?? b.score) - (a.rank ?? a.score) || b.exchange.seq - a.exchange.seq,
  )
}

/**
 * Orders every candidate: a page read wins when the intent reads a page and a page
 * was reached; else a fetch/XHR whose answer holds records; else a page whose server-rendered
 * data holds them; else the best of what is left. The first item is the target.
 */
export function rankTargets(
  json: ScoredExchange[],
  pageReads: ScoredExchange[],
  rendered: ScoredExchange[],
): ScoredExchange[] {
  const ordered = orderKinds(json, pageReads, rendered)
  const seen = new Set<Exchange>()
  return ordered.filter((s) => !seen.has(s.exchange) && !!seen.add(s.exchange))
}

function orderKinds(
  json: ScoredExchange[],
  pageReads: ScoredExchange[],
  rendered: ScoredExchange[],
): ScoredExchange[] {
  const qualifies = (s: ScoredExchange | undefined) => !!s && s.score >= TARGET_THRESHOLD
  const hasRecords = (s: ScoredExchange | undefined) =>
    !!s?.signals.some((x) => x.name === 'answer_has_records')
  if (qualifies(pageReads[0])) return [...pageReads, ...json, ...rendered]
  if (qualifies(json[0]) && (hasRecords(json[0]) || !qualifies(rendered[0])))
    return [...json, ...rendered, ...pageReads]
  if (qualifies(rendered[0])) return [...rendered, ...json, ...pageReads]
  return sortScored([...json, ...rendered, ...pageReads])
}

/**
 * Explains why each runner-up (up to 8) lost to the chosen target. With `byHand` (manual compile:
 * the person named the target), a runner-up may have more evidence than the target; the
 * comparison then says so instead of calling it weaker.
 */
export function alternativesOf(
  chosen: ScoredExchange,
  others: ScoredExchange[],
  byHand = false,
): Alternative[] {
  const chosenKey = endpointKey(chosen.exchange)
  const kept = byHand ? '; the request chosen by hand was kept' : ''
  return others.slice(0, 8).map((s) => {
    const has = (name: string) => s.signals.some((x) => x.name === name)
    const { more, less } = compareScores(s.score, chosen.score)
    let reason = less
      ? `lower evidence score ${less}${kept}`
      : `as much evidence (${s.score} = ${chosen.score}), ranked after the target${kept}`
    if (s.prefixOnly)
      reason = 'carries only a prefix of what was typed: a typeahead/suggest request'
    else if (has('suggest_endpoint'))
      reason =
        'a typeahead/suggest endpoint: it answered suggestions, not the records the page showed'
    else if (endpointKey(s.exchange) === chosenKey)
      reason =
        s.exchange.seq < chosen.exchange.seq
          ? 'the same endpoint sent earlier; the later answer is the one the page shows'
          : more
            ? `the same endpoint sent later with more evidence ${more}${kept}`
            : less
              ? `the same endpoint sent later with less evidence ${less}${kept}`
              : `the same endpoint sent later with as much evidence (${s.score} = ${chosen.score})${kept}`
    // Only a target named by hand can have less evidence than a runner-up: say so, plainly.
    else if (more) reason = `more evidence ${more}, but the request chosen by hand was kept`
    else if (has('count_only_answer'))
      reason = 'its answer is a count (a count endpoint next to the list the page showed)'
    else if (s.document && !chosen.document)
      reason = 'the page embeds data too, but a fetch/XHR carried the records the page showed'
    else if (!s.document && chosen.document?.result.page && !chosen.document.data)
      reason = 'the intent reads a page: the page itself is the target'
    else if (!s.document && !has('answer_has_records'))
      reason = 'its answer holds no records (a count or status endpoint)'
    else if (chosen.document?.data && !s.document)
      reason = 'its answer lacks the records the page rendered'
    return {
      exchangeId: s.exchange.id,
      method: s.exchange.method,
      url: s.exchange.url,
      score: s.score,
      reason,
      signals: s.signals.map((x) => x.name),
    }
  })
}

/** `(a > b)` when the runner-up scored more, `(a < b)` when less; neither when equal. */
function compareScores(score: number, chosen: number): { more?: string; less?: string } {
  if (score > chosen) return { more: `(${score} > ${chosen})` }
  if (score < chosen) return { less: `(${score} < ${chosen})` }
  return {}
}
