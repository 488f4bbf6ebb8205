import type { EvidenceSignal, JsonSchema, ResultShape, VerifyRule } from '../../shared/toolSpec'
import type { Exchange } from '../../shared/trace'
import { mimeTypeOf } from '../../shared/trace'
import { isHtmlDocument, isTextData, parseJsonBody, parseJsonRequest } from './classify'
import { httpUrl } from '../../shared/urls'
import { graphqlOfExchange } from './graphql'
import { inferSchema } from './inferSchema'
import { documentToolName, graphqlToolName, mutationVerdict, toolName } from './naming'
import { observationsOf } from './observations'
import type { ScoredExchange } from './targetSignals'
import { planSlots, type SlotPlan } from './slots'
import { deriveDocumentRule, deriveVerifyRule, landingPage, outputForRule } from './verifyRule'

/** The result of a tool that reads data in a text format: the whole text and its media type. */
const TEXT_RESULT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    text: { type: 'string', description: 'The data as the site sent it (CSV, XML, ...).' },
    mimeType: { type: 'string', description: 'Its media type (`text/csv`).' },
  },
  required: ['text', 'mimeType'],
}

/** Everything about the target that makes the tool, besides its steps' dependencies. */
export interface ShapedTarget {
  /** The observed result: the JSON answer, or for a document the embedded data (if any). */
  answer: unknown
  output: JsonSchema
  plan: SlotPlan
  name: string
  mutating: boolean
  verify: VerifyRule
  /** Set for document targets; JSON tools leave it out. */
  result?: ResultShape
  /** Evidence of how the tool was shaped (weight 0: they explain, they do not choose). */
  signals: EvidenceSignal[]
}

/**
 * Shapes the chosen target into a tool's name, slots, result and declared outcome:
 * GraphQL operations are named by `operationName` and take their slots from `variables` only
 * (the query text and persisted hash stay constant); document targets return the page view
 * (and the embedded data); several calls of the endpoint decide which values are inputs.
 * `asksWrite`: the intent asks for a write (see `mutationVerdict`).
 */
export function shapeTarget(
  chosen: ScoredExchange,
  eligible: Exchange[],
  asksWrite = false,
): ShapedTarget {
  const { exchange } = chosen
  const host = httpUrl(exchange.url)?.host ?? ''
  const signals: EvidenceSignal[] = []
  const graphql = chosen.document ? null : graphqlOfExchange(exchange, parseJsonRequest(exchange))
  const observations = observationsOf(exchange, eligible)
  const pathSlot = chosen.document?.pathSlot ?? chosen.pathSlot
  if (observations.length > 1)
    signals.push({
      name: 'several_observations',
      weight: 0,
      detail: `${observations.length} calls of this endpoint: what varies became slots, the rest is constant`,
    })
  const verdict = mutationVerdict(exchange, graphql, asksWrite)
  const plan = planSlots(exchange, chosen.exactMatches, {
    observations,
    writes: verdict.mutating,
    ...(graphql ? { slottable: (v) => v.path.startsWith('variables.') } : {}),
    ...(pathSlot ? { pathSlot } : {}),
  })
  signals.push({
    name: verdict.mutating ? 'mutating' : 'read_only',
    weight: 0,
    detail: verdict.detail,
  })
  if (chosen.document) {
    const { output, verify } = deriveDocumentRule(chosen.document.data, {
      exchange,
      trace: eligible,
    })
    return {
      answer: chosen.document.data,
      output,
      plan,
      name:
        exchange.method === 'GET'
          ? documentToolName(exchange.url, chosen.document.pageRead === true)
          : toolName(exchange.method, exchange.url),
      mutating: verdict.mutating,
      verify,
      result: chosen.document.result,
      signals,
    }
  }
  // A read answered by a redirect (a filter form posted, then the list it names): what the
  // person read is the page the browser followed to, so the tool reads it there too.
  const landing = verdict.mutating ? null : landingPage(exchange, eligible)
  if (landing && isHtmlDocument(landing)) {
    const { output, verify } = deriveDocumentRule(undefined, { exchange: landing })
    signals.push({
      name: 'redirect_landing',
      weight: 0,
      detail: `answered HTTP ${exchange.status}: the tool reads the page it leads to (GET ${httpUrl(landing.url)?.pathname ?? landing.url})`,
    })
    return {
      answer: undefined,
      output,
      plan,
      name: toolName(exchange.method, exchange.url),
      mutating: false,
      verify,
      result: { kind: 'document', page: true },
      signals,
    }
  }
  if (!verdict.mutating && parseJsonBody(exchange) === undefined && isTextData(exchange))
    return {
      answer: exchange.responseBody?.text,
      output: TEXT_RESULT_SCHEMA,
      plan,
      name: toolName(exchange.method, exchange.url),
      mutating: false,
      // The same kind of data again: a page or an empty answer where the export was is no success.
      verify: { status: [200, 299], mimeType: mimeTypeOf(exchange.responseHeaders), required: [] },
      result: { kind: 'text' },
      signals,
    }
  if (graphql)
    signals.push({
      name: 'graphql_operation',
      weight: 0,
      detail: `${graphql.kind ?? 'persisted'} ${graphql.operationName ?? '(anonymous)'}${graphql.persistedHash ? `, persisted hash ${graphql.persistedHash.slice(0, 12)}… kept` : ''}`,
    })
  const answer = parseJsonBody(exchange)
  const inferred = inferSchema(answer)
  const pathValues = Object.values(plan.inputs.properties)
    .filter((p) => p['x-in'] === 'path' && typeof p.default === 'string')
    .map((p) => p.default as string)
  const verify = deriveVerifyRule(inferred, answer, { exchange, trace: eligible, pathValues })
  return {
    answer,
    // A write that answers no data returns its acknowledgement (status, location, text).
    output: outputForRule(verify, inferred),
    plan,
    name: graphql ? graphqlToolName(host, graphql) : toolName(exchange.method, exchange.url),
    mutating: verdict.mutating,
    verify,
    signals,
  }
}
