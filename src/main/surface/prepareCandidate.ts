import type { CompileExplanation } from '../../shared/appApi'
import { ServiceError } from '../../shared/errors'
import type { ToolSpec } from '../../shared/toolSpec'
import { compileTrace } from '../compiler'
import type { Store } from '../store/store'

export interface PrepareInput {
  traceId: string
  /** The exchange to compile exactly (the target request). */
  exchangeId: string
  /** Overrides the trace's intent. */
  intent?: string
  /** Observed exchanges the target depends on (the manual dependency choice). */
  dependencyExchangeIds?: string[]
}

export interface PrepareResult {
  traceId: string
  candidate: ToolSpec | null
  explanation: CompileExplanation | null
}

export interface PrepareDeps {
  store: Pick<Store, 'traces' | 'tools'>
  clock: () => number
  uuid: () => string
}

/**
 * Manual compile (spec B `POST /v1/tools/prepare`): compiles exactly
 * the chosen exchange of a stored trace and saves the candidate under a name unique on its site.
 * Errors: 404 `not_found` for an unknown trace; 422 `invalid_input` for an exchange or
 * dependency id the trace does not hold (the message says how many exchanges it has).
 */
export function prepareCandidate(deps: PrepareDeps, input: PrepareInput): PrepareResult {
  const trace = deps.store.traces.get(input.traceId)
  if (!trace) throw new ServiceError('not_found', `No trace ${input.traceId}.`)
  const ids = new Set(trace.exchanges.map((e) => e.id))
  const unknown = [input.exchangeId, ...(input.dependencyExchangeIds ?? [])].filter(
    (id) => !ids.has(id),
  )
  if (unknown.length) {
    const first = trace.exchanges[0]?.id
    const last = trace.exchanges[trace.exchanges.length - 1]?.id
    throw new ServiceError(
      'invalid_input',
      `Trace ${trace.id} has no request ${unknown.join(', ')}: it holds ${trace.exchanges.length} ` +
        `exchanges${first ? ` (${first} to ${last})` : ''}.`,
      { traceId: trace.id, unknownIds: unknown, exchangeCount: trace.exchanges.length },
      422,
    )
  }
  const compiled = compileTrace(trace, {
    toolId: deps.uuid(),
    now: deps.clock(),
    ...(input.intent ? { intent: input.intent } : {}),
    targetExchangeId: input.exchangeId,
    ...(input.dependencyExchangeIds?.length
      ? { dependencyExchangeIds: input.dependencyExchangeIds }
      : {}),
  })
  if (!compiled.ok) return { traceId: trace.id, candidate: null, explanation: compiled.explanation }
  const name = deps.store.tools.uniqueName(compiled.candidate.siteHost, compiled.candidate.name)
  const candidate: ToolSpec = {
    ...compiled.candidate,
    name,
    capabilityId: `${compiled.candidate.siteHost}/${name}`,
  }
  deps.store.tools.save(candidate)
  return { traceId: trace.id, candidate, explanation: null }
}
