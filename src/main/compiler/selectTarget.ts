import type { Alternative, EvidenceSignal } from '../../shared/toolSpec'
import type { Exchange } from '../../shared/trace'
import { parseJsonBody, safeUrl } from './classify'
import { matchTyped, requestValues, type RequestValue } from './requestValues'
import type { TypedValue } from './typedValues'

/** A candidate target exchange with its evidence. */
export interface ScoredExchange {
  exchange: Exchange
  /** 0..1: the sum of the signal weights. */
  score: number
  signals: EvidenceSignal[]
  /** Request values equal to a typed value: these become required slots. */
  exactMatches: Array<{ typed: TypedValue; value: RequestValue }>
  prefixOnly: boolean
}

/** Evidence weights (sum 1.0): the typed value in the request is the strongest proof of intent. */
const W = { typed: 0.4, prefix: 0.1, json: 0.15, afterCommit: 0.15, records: 0.15, echoes: 0.15 }

/**
 * Scores the exchanges that may be targets (issue 2 "Compiler v1"): the typed values appear in
 * its request; its answer holds records (what the page showed) that mention the typed value; it
 * came after the person committed the form; it is a fetch/XHR with a JSON answer. Returns the
 * candidates best first; ties go to the later request (a repeated search: the one the page shows).
 */
export function scoreExchanges(
  exchanges: Exchange[],
  typed: TypedValue[],
  committedAt: number | null,
): ScoredExchange[] {
  const scored = exchanges.map((exchange) => scoreOne(exchange, typed, committedAt))
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || b.exchange.seq - a.exchange.seq)
}

function scoreOne(
  exchange: Exchange,
  typed: TypedValue[],
  committedAt: number | null,
): ScoredExchange {
  const signals: EvidenceSignal[] = []
  const values = requestValues(exchange)
  const exactMatches: ScoredExchange['exactMatches'] = []
  let prefixes = 0
  for (const t of typed) {
    const exact = values.find((v) => matchTyped(v.value, t.value) === 'exact')
    if (exact) exactMatches.push({ typed: t, value: exact })
    else if (values.some((v) => matchTyped(v.value, t.value) === 'prefix')) prefixes++
  }
  if (exactMatches.length) {
    const share = exactMatches.length / typed.length
    signals.push({
      name: 'typed_value_in_request',
      weight: round(W.typed * share),
      detail: exactMatches
        .map((m) => `"${m.typed.value}" is ${m.value.location}.${m.value.path}`)
        .join('; '),
    })
  } else if (prefixes) {
    signals.push({
      name: 'typed_prefix_in_request',
      weight: W.prefix,
      detail: 'carries only a prefix of what was typed (a typeahead request)',
    })
  }
  const json = parseJsonBody(exchange)
  if (json !== undefined && ['fetch', 'xhr'].includes(exchange.resourceType)) {
    signals.push({
      name: 'json_answer',
      weight: W.json,
      detail: `${exchange.resourceType} answered JSON`,
    })
  }
  if (committedAt !== null && exchange.startedAt >= committedAt - 50) {
    signals.push({
      name: 'after_submit',
      weight: W.afterCommit,
      detail: 'sent after the person submitted',
    })
  }
  const records = largestRecordList(json)
  if (records) {
    signals.push({
      name: 'answer_has_records',
      weight: W.records,
      detail: `answer holds ${records.count} records at ${records.path || '(root)'}`,
    })
  }
  const text =
    exchange.responseBody?.encoding === 'utf8' ? exchange.responseBody.text.toLowerCase() : ''
  const echoed = typed.filter((t) => text.includes(t.value.toLowerCase()))
  if (json !== undefined && typed.length && echoed.length) {
    signals.push({
      name: 'answer_mentions_typed_value',
      weight: round((W.echoes * echoed.length) / typed.length),
      detail: `answer mentions ${echoed.map((t) => `"${t.value}"`).join(', ')}`,
    })
  }
  // Without the typed value in the request, other signals alone do not make a target.
  const hasIntentEvidence = typed.length === 0 || exactMatches.length > 0 || prefixes > 0
  const score = hasIntentEvidence ? round(signals.reduce((sum, s) => sum + s.weight, 0)) : 0
  return {
    exchange,
    score,
    signals,
    exactMatches,
    prefixOnly: !exactMatches.length && prefixes > 0,
  }
}

/** The biggest array of objects in a JSON answer (its path, with `[]` for nesting), or null. */
export function largestRecordList(
  json: unknown,
  path = '',
  depth = 0,
): { path: string; count: number } | null {
  if (depth > 4 || json === null || typeof json !== 'object') return null
  if (Array.isArray(json)) {
    const objects = json.filter((v) => v !== null && typeof v === 'object' && !Array.isArray(v))
    return objects.length ? { path, count: objects.length } : null
  }
  let best: { path: string; count: number } | null = null
  for (const [key, value] of Object.entries(json)) {
    const found = largestRecordList(value, path ? `${path}.${key}` : key, depth + 1)
    if (found && (!best || found.count > best.count)) best = found
  }
  return best
}

/** Explains why each runner-up lost to the chosen target. */
export function alternativesOf(chosen: ScoredExchange, others: ScoredExchange[]): Alternative[] {
  const chosenKey = endpointKey(chosen.exchange)
  return others.slice(0, 8).map((s) => {
    const url = s.exchange.url
    let reason = `lower evidence score (${s.score} < ${chosen.score})`
    if (s.prefixOnly)
      reason = 'carries only a prefix of what was typed: a typeahead/suggest request'
    else if (endpointKey(s.exchange) === chosenKey)
      reason = 'the same endpoint sent earlier; the later answer is the one the page shows'
    else if (!s.signals.some((x) => x.name === 'answer_has_records'))
      reason = 'its answer holds no records (a count or status endpoint)'
    return { exchangeId: s.exchange.id, method: s.exchange.method, url, score: s.score, reason }
  })
}

function endpointKey(exchange: Exchange): string {
  const url = safeUrl(exchange.url)
  return `${exchange.method} ${url?.host}${url?.pathname}`
}

const round = (n: number) => Math.round(n * 1000) / 1000
