import type { CompileExplanation } from '../../shared/appApi'
import type { ToolSpec } from '../../shared/toolSpec'
import type { Trace } from '../../shared/trace'
import { parseJsonBody, rejectionReason, safeUrl } from './classify'
import { inferSchema } from './inferSchema'
import { isMutating, toolName } from './naming'
import { alternativesOf, scoreExchanges } from './selectTarget'
import { planSlots } from './slots'
import { commitTime, typedValues } from './typedValues'
import { deriveVerifyRule } from './verifyRule'

export interface CompileOptions {
  /** UUID for the new tool. */
  toolId: string
  /** Milliseconds since the Unix epoch: stamps `createdAt` and the version. */
  now: number
  /** Overrides the trace's intent (the spec's search or prepare intent). */
  intent?: string
  /** Compile exactly this exchange (manual compile); its evidence is still reported. */
  targetExchangeId?: string
  /** Observed exchanges the target depends on (manual compile); each becomes a dependency step. */
  dependencyExchangeIds?: string[]
}

export type CompileResult =
  { ok: true; candidate: ToolSpec } | { ok: false; explanation: CompileExplanation }

/** The lowest evidence score that makes a candidate; below it the answer is an explanation. */
export const MIN_TARGET_SCORE = 0.5

/**
 * Compiles a trace into a candidate tool, deterministically and without a language model
 * (issue 2 "Compiler v1"). Pure: trace in, ToolSpec or explanation out; no I/O.
 * Never guesses: when no exchange carries the intent's evidence it explains what is missing.
 */
export function compileTrace(trace: Trace, options: CompileOptions): CompileResult {
  const intent = options.intent ?? trace.intent
  const start = safeUrl(trace.startUrl)
  const siteHosts = new Set(
    [start?.host, ...trace.actions.map((a) => safeUrl(a.pageUrl)?.host)].filter(
      Boolean,
    ) as string[],
  )
  const considered: CompileExplanation['considered'] = []
  const eligible = trace.exchanges.filter((e) => {
    const why = rejectionReason(e, siteHosts)
    if (why)
      considered.push({ exchangeId: e.id, method: e.method, url: e.url, rejectedBecause: why })
    return !why || e.id === options.targetExchangeId
  })
  const typed = typedValues(trace.actions)
  const scored = scoreExchanges(eligible, typed, commitTime(trace.actions))
  const chosen = options.targetExchangeId
    ? scored.find((s) => s.exchange.id === options.targetExchangeId)
    : scored[0]
  if (!chosen || (!options.targetExchangeId && chosen.score < MIN_TARGET_SCORE)) {
    return {
      ok: false,
      explanation: explain(
        trace,
        typed.map((t) => t.value),
        eligible,
        considered,
        chosen?.score,
      ),
    }
  }
  const { exchange } = chosen
  const answer = parseJsonBody(exchange)
  const output = inferSchema(answer)
  const plan = planSlots(exchange, chosen.exactMatches)
  const name = toolName(exchange.method, exchange.url)
  const site = safeUrl(exchange.url)!
  return {
    ok: true,
    candidate: {
      id: options.toolId,
      siteHost: site.host,
      name,
      capabilityId: `${site.host}/${name}`,
      intent,
      description: `${intent} — ${exchange.method} ${site.pathname}`,
      version: versionOf(options.now),
      mutating: isMutating(
        exchange.method,
        exchange.url,
        chosen.exactMatches.map((m) => m.value.key),
      ),
      status: 'candidate',
      inputs: plan.inputs,
      steps: [{ id: 'target', request: plan.request, extract: [] }],
      output,
      verify: deriveVerifyRule(output, answer),
      via: 'http',
      evidence: {
        traceId: trace.id,
        targetExchangeId: exchange.id,
        exchangeIds: [exchange.id],
        score: chosen.score,
        signals: chosen.signals,
        alternatives: alternativesOf(
          chosen,
          scored.filter((s) => s !== chosen),
        ),
      },
      createdAt: options.now,
      updatedAt: options.now,
    },
  }
}

function explain(
  trace: Trace,
  typed: string[],
  eligible: Trace['exchanges'],
  considered: CompileExplanation['considered'],
  bestScore: number | undefined,
): CompileExplanation {
  const missing: string[] = []
  if (!trace.exchanges.length) missing.push('the trace holds no requests: was the page loaded?')
  if (!typed.length)
    missing.push('nothing was typed or chosen: type the value the tool should take')
  else
    missing.push(
      `a fetch/XHR answering JSON whose request carries ${typed.map((t) => `"${t}"`).join(', ')}`,
    )
  for (const e of eligible) {
    if (!considered.some((c) => c.exchangeId === e.id))
      considered.push({
        exchangeId: e.id,
        method: e.method,
        url: e.url,
        rejectedBecause: 'carries none of the typed values',
      })
  }
  const reason =
    bestScore === undefined
      ? 'No request in the trace carries the evidence of the intent.'
      : `The best request scored ${bestScore}, below ${MIN_TARGET_SCORE}: not enough evidence to pick it.`
  return { reason, missing, considered: considered.slice(0, 100) }
}

/** Tool versions are dates (spec "Versioning" 3): `YYYY.MM.DD`. */
function versionOf(now: number): string {
  return new Date(now).toISOString().slice(0, 10).replace(/-/g, '.')
}
