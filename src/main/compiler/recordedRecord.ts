/**
 * A caution (architecture.md "What recorded traffic asks"): a write must not act on the record the person recorded on when a run gives another
 * one. A write that names a record by a value the person gave (the title typed, a name quoted) in
 * a place the tool keeps constant (`PUT /tiddlers/Release%20notes` while only the body's `title`
 * became an input) is addressed by the recorded record: each such constant takes the input that
 * holds the same value. A constant no input holds (the person's value sent where the compiler
 * cannot tell why) stays, and the tool carries a caution that Verify shows and asks about before
 * it sends (`Evidence.caution`, `../engine/runStart.ts`). Pure: the tool and its trace in.
 */
import type { EvidenceSignal, SlotSchema, ToolSpec } from '../../shared/toolSpec'
import type { Trace } from '../../shared/trace'
import { signInAccounts, typedValues } from './typedValues'
import { quotedParts } from './personValues'
import { normalValue } from './valueSpelling'
import { isOperationValue } from './operation'
import { requestValues } from './requestValues'

/** Shorter values (`on`, `10`) are said in too many places by chance. */
const MIN_LENGTH = 3

/** A value that can name a record: long enough, with a letter (not a count or a flag). */
function named(value: string): boolean {
  return value.trim().length >= MIN_LENGTH && /\p{L}/u.test(value)
}

/**
 * The tool with the target's constants that spell an input's value replaced by that input, and a
 * caution when a constant still spells a value the person typed or quoted. Reads only a mutating
 * tool's target; anything else comes back unchanged.
 */
export function guardRecordedRecord(tool: ToolSpec, trace: Trace, intent = tool.intent): ToolSpec {
  const target = tool.steps.at(-1)
  if (!tool.mutating || !target) return tool
  // Only an input the person must give names a record: an optional one holds whatever was sent.
  const required = new Set(tool.inputs.required ?? [])
  const byValue = new Map<string, string>()
  for (const [name, p] of Object.entries(tool.inputs.properties) as Array<[string, SlotSchema]>)
    if (required.has(name) && typeof p.default === 'string' && named(p.default))
      if (!byValue.has(normalValue(p.default))) byValue.set(normalValue(p.default), p['x-slot'])
  const signals: EvidenceSignal[] = []
  const swap = (constant: string, where: string): string => {
    const slot = byValue.get(normalValue(constant))
    if (!slot) return constant
    signals.push({
      name: 'one_value_several_places',
      weight: 0,
      detail: `${where} "${constant}" is the value of input ${slot}: it takes that input, so a run with another value does not act on the recorded record`,
    })
    return `{{input.${slot}}}`
  }
  const request = { ...target.request, url: swapPath(target.request.url, swap) }
  const body = request.body
  if (body?.kind === 'json' && !body.base)
    request.body = { ...body, template: swapJson(body.template, swap, 'body') }
  else if (body?.kind === 'form')
    request.body = {
      ...body,
      template: Object.fromEntries(
        Object.entries(body.template).map(([k, v]) => [
          k,
          v.includes('{{') ? v : swap(v, `body ${k}`),
        ]),
      ),
    }
  // Who the person signed in as is the saved login's account, not a record they gave.
  const accounts = signInAccounts(trace.actions, intent)
  const said = [
    ...typedValues(trace.actions)
      .map((t) => t.value)
      .filter((v) => !accounts.has(v)),
    ...quotedParts(intent),
  ].filter(named)
  // The operation the person picked from a menu (CUPS's `OP=stop-printer` select) is what the
  // tool does, a constant by design (operation.ts), not a record it acts on.
  const exchange = trace.exchanges.find((e) => e.id === target.exchangeId)
  const operations = new Set(
    (exchange ? requestValues(exchange).filter(isOperationValue) : []).map((v) =>
      normalValue(String(v.value)),
    ),
  )
  const left = constantsOf(request).find(
    (c) =>
      !operations.has(normalValue(c.value)) &&
      said.some((v) => normalValue(v) === normalValue(c.value)),
  )
  const caution = left
    ? `The request keeps "${left.value}" (${left.where}), a value you gave while recording, as a constant: a run may change the record you recorded on. Check the request before you approve it.`
    : undefined
  if (!signals.length && !caution) return tool
  return {
    ...tool,
    steps: [...tool.steps.slice(0, -1), { ...target, request }],
    evidence: {
      ...tool.evidence,
      signals: [...tool.evidence.signals, ...signals],
      ...(caution ? { caution } : {}),
    },
  }
}

type Swap = (constant: string, where: string) => string

/** The URL with each constant path segment passed through `swap` (decoded, re-encoded). */
function swapPath(url: string, swap: Swap): string {
  const m = /^(https?:\/\/[^/?#]+)([^?#]*)(.*)$/.exec(url)
  if (!m) return url
  const path = m[2]!
    .split('/')
    .map((segment, i) => {
      if (!segment || segment.includes('{{')) return segment
      let decoded = segment
      try {
        decoded = decodeURIComponent(segment)
      } catch {
        // Malformed percent-encoding (a lone `%`): the text stands as written.
        return segment
      }
      const swapped = swap(decoded, `path segment ${i}`)
      return swapped === decoded ? segment : swapped
    })
    .join('/')
  return `${m[1]}${path}${m[3]}`
}

function swapJson(node: unknown, swap: Swap, where: string): unknown {
  if (typeof node === 'string') return node.includes('{{') ? node : swap(node, where)
  if (Array.isArray(node)) return node.map((v, i) => swapJson(v, swap, `${where}.${i}`))
  if (node === null || typeof node !== 'object') return node
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [k, swapJson(v, swap, `${where}.${k}`)]),
  )
}

/** The constant strings of a request: path segments, and JSON or form body values. */
function constantsOf(request: ToolSpec['steps'][number]['request']): Array<{
  value: string
  where: string
}> {
  const out: Array<{ value: string; where: string }> = []
  const path = /^https?:\/\/[^/?#]+([^?#]*)/.exec(request.url)?.[1] ?? ''
  path.split('/').forEach((segment, i) => {
    if (!segment || segment.includes('{{')) return
    try {
      out.push({ value: decodeURIComponent(segment), where: `path segment ${i}` })
    } catch {
      out.push({ value: segment, where: `path segment ${i}` })
    }
  })
  const body = request.body
  const walk = (node: unknown, where: string) => {
    if (typeof node === 'string' && !node.includes('{{')) out.push({ value: node, where })
    else if (Array.isArray(node)) node.forEach((v, i) => walk(v, `${where}.${i}`))
    else if (node !== null && typeof node === 'object')
      for (const [k, v] of Object.entries(node)) walk(v, `${where}.${k}`)
  }
  if (body?.kind === 'json' && !body.base) walk(body.template, 'body')
  if (body?.kind === 'form')
    for (const [k, v] of Object.entries(body.template)) walk(v, `body ${k}`)
  return out
}
