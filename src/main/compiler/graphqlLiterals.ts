/**
 * GraphQL operations written with their values inline (a GraphiQL console, a client that builds
 * query text): `deleteTask(input: {nodeId: "WyJ0YXNrcyIsMTdd"})` has no variables for the
 * compiler's slots to take. Read with the `graphql` parser, each literal of a step's query text is
 * one of (ids picked by click and one value in several places, for GraphQL):
 * - a value the person gave (typed, quoted, clicked, or said whole in the intent): an input, named
 *   by the field or argument that holds it, written into the query as a JSON string
 *   (`{{json:input.pN}}`: JSON string escapes are GraphQL's, GraphQL spec §2.9.4);
 * - a value an earlier answer of the site held (an id the page found first): read from that
 *   answer by a step of its own, also written as `{{json:step.…}}`;
 * - anything else stays as written.
 * Pure: the tool and its trace in, the tool out.
 */
import { Kind, parse, visit, type ASTNode } from 'graphql'
import { fold } from '../../shared/jsonPath'
import type { EvidenceSignal, SlotSchema, ToolSpec, ToolStep } from '../../shared/toolSpec'
import type { Exchange, Trace } from '../../shared/trace'
import { parseJsonBody } from './classify'
import { httpUrl } from '../../shared/urls'
import { snake } from './naming'
import { personValues } from './personValues'
import { extractorName, findPickedRecord, pickedRecordPath } from './pickedRecords'
import { jsonPathOf } from './valueSources'
import { templateOf, withBoundCredentials } from './stepTemplate'

/** Literals shorter than this are said in too many places by chance (`10`, `id`). */
const MIN_LENGTH = 4
/** An answer's value traced into a later query: long enough to be an id, not a word. */
const MIN_TRACED = 6

interface Literal {
  start: number
  end: number
  value: string
  /** The field or argument that holds it (`title`, `nodeId`). */
  field: string
  kind: 'string' | 'number'
}

/**
 * The tool with the inline literals of its steps' GraphQL query texts made inputs or read from
 * earlier answers (see the module comment); unchanged when no step sends such text.
 */
export function parametriseGraphqlLiterals(
  tool: ToolSpec,
  trace: Trace,
  intent = tool.intent,
): ToolSpec {
  const people = personValues(trace, intent).filter((p) => p.strong)
  const said = ` ${words(intent)} `
  const properties = { ...tool.inputs.properties }
  const required = [...(tool.inputs.required ?? [])]
  const steps = tool.steps.map((s) => ({ ...s, extract: [...s.extract] }))
  const signals: EvidenceSignal[] = []
  const done = new Set<string>()
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i]!
    if (done.has(step.id)) continue
    done.add(step.id)
    const exchange = trace.exchanges.find((e) => e.id === step.exchangeId)
    const body = step.request.body
    if (!exchange || body?.kind !== 'json' || body.base) continue
    const template = body.template as Record<string, unknown>
    const query = template?.['query']
    if (typeof query !== 'string' || query.includes('{{')) continue
    const literals = literalsOf(query)
    if (!literals.length) continue
    const replacements: Array<{ literal: Literal; placeholder: string }> = []
    for (const literal of literals) {
      const person =
        people.find((p) => fold(p.value) === fold(literal.value)) ??
        (literal.value.length >= MIN_LENGTH &&
        /\p{L}/u.test(literal.value) &&
        said.includes(` ${words(literal.value)} `)
          ? { value: literal.value }
          : null)
      if (person) {
        const slot = inputFor(properties, required, literal)
        replacements.push({ literal, placeholder: `{{json:input.${slot}}}` })
        signals.push({
          name: 'graphql_literal_input',
          weight: 0,
          detail: `the query writes "${literal.value}" (${literal.field}) inline, a value the person gave: input ${slot}`,
        })
        continue
      }
      const picked =
        literal.value.length < MIN_TRACED ||
        literal.kind === 'number' ||
        !answerSource(literal.value, exchange, trace)
          ? findPickedRecord(literal.value, exchange, trace, intent)
          : null
      if (picked) {
        // A short id the page found by the record's name: looked up by that name, an input.
        const slot = inputFor(properties, required, {
          ...literal,
          value: picked.person.value,
          field: picked.field,
          kind: 'string',
        })
        const read = stepOf(steps, picked.exchange, i)
        if (read.added) i++
        const name = extractorName(read.step, snake(picked.idField) || 'id')
        read.step.extract.push({ name, from: picked.source, path: pickedRecordPath(picked, slot) })
        const form = literal.kind === 'number' ? 'num' : 'json'
        replacements.push({ literal, placeholder: `{{${form}:step.${read.step.id}.${name}}}` })
        signals.push({
          name: 'lookup_picked_record',
          weight: 0,
          detail: `the query writes ${literal.value} (${literal.field}) inline: the ${picked.idField} of the record whose ${picked.field} is "${picked.person.value}" in ${picked.exchange.method} ${httpUrl(picked.exchange.url)?.pathname}, looked up by it (input ${slot})`,
        })
        continue
      }
      if (literal.value.length < MIN_TRACED) continue
      const source = answerSource(literal.value, exchange, trace)
      if (!source) continue
      const made = stepOf(steps, source.exchange, i)
      if (made.added) i++
      const read = made.step
      const name = extractorName(read, snake(literal.field) || 'value')
      read.extract.push({ name, from: 'json', path: source.path })
      replacements.push({ literal, placeholder: `{{json:step.${read.id}.${name}}}` })
      signals.push({
        name: 'dependency',
        weight: 0,
        detail: `the query writes "${literal.value}" (${literal.field}) inline: it comes from json ${source.path} of ${source.exchange.method} ${httpUrl(source.exchange.url)?.pathname}`,
      })
    }
    if (!replacements.length) continue
    let text = query
    for (const { literal, placeholder } of replacements.sort(
      (a, b) => b.literal.start - a.literal.start,
    ))
      text = text.slice(0, literal.start) + placeholder + text.slice(literal.end)
    steps[i] = {
      ...step,
      request: { ...step.request, body: { ...body, template: { ...template, query: text } } },
    }
  }
  if (!signals.length) return tool
  const order = (s: ToolStep) => trace.exchanges.find((e) => e.id === s.exchangeId)?.seq ?? 0
  const target = steps.at(-1)!
  return {
    ...tool,
    inputs: { ...tool.inputs, properties, required: [...new Set(required)] },
    steps: [...steps.slice(0, -1).sort((a, b) => order(a) - order(b)), target],
    evidence: { ...tool.evidence, signals: [...tool.evidence.signals, ...signals] },
  }
}

/** The string and integer literals of a GraphQL document, with where they are written. */
function literalsOf(query: string): Literal[] {
  let document
  try {
    document = parse(query)
  } catch {
    // Not a GraphQL document: it has no literals to lift.
    return []
  }
  const out: Literal[] = []
  visit(document, {
    enter(node: ASTNode, _key, parent, _path, ancestors) {
      const literal =
        (node.kind === Kind.STRING && !node.block) || node.kind === Kind.INT ? node : null
      if (!literal?.loc) return
      // The nearest field or argument: the parent first (`ancestors` leaves it out).
      const holder = [...ancestors, parent ?? []]
        .reverse()
        .find(
          (a): a is ASTNode & { name: { value: string } } =>
            !Array.isArray(a) &&
            ((a as ASTNode).kind === Kind.OBJECT_FIELD || (a as ASTNode).kind === Kind.ARGUMENT),
        )
      out.push({
        start: literal.loc.start,
        end: literal.loc.end,
        value: literal.value,
        field: holder?.name.value ?? 'value',
        kind: literal.kind === Kind.INT ? 'number' : 'string',
      })
    },
  })
  return out
}

/** The slot of the input that holds the literal's value, made (required) on first use. */
function inputFor(
  properties: Record<string, SlotSchema>,
  required: string[],
  literal: Literal,
): string {
  const existing = Object.entries(properties).find(
    ([, p]) => typeof p.default === 'string' && fold(p.default) === fold(literal.value),
  )
  if (existing) return existing[1]['x-slot']
  const used = Object.values(properties).map((p) => Number(/^p(\d+)$/.exec(p['x-slot'])?.[1] ?? -1))
  const slot = `p${Math.max(-1, ...used) + 1}`
  let name = snake(literal.field) || 'value'
  for (let n = 2; name in properties; n++) name = `${snake(literal.field) || 'value'}_${n}`
  properties[name] = {
    'x-slot': slot,
    'x-in': 'body',
    'x-path': 'query',
    type: literal.kind === 'number' ? 'integer' : 'string',
    ...(literal.kind === 'string' ? { minLength: 1 } : {}),
    description: `The ${literal.field} the GraphQL operation is written with.`,
    default: literal.kind === 'number' ? Number(literal.value) : literal.value,
    examples: [literal.value],
  }
  required.push(name)
  return slot
}

/** The latest earlier JSON answer of the same site holding `value` as a leaf, and its path. */
function answerSource(
  value: string,
  before: Exchange,
  trace: Trace,
): { exchange: Exchange; path: string } | null {
  const host = httpUrl(before.url)?.host
  const earlier = trace.exchanges
    .filter(
      (e) =>
        e.seq < before.seq && e.status >= 200 && e.status < 300 && httpUrl(e.url)?.host === host,
    )
    .reverse()
  for (const exchange of earlier) {
    const answer = parseJsonBody(exchange)
    if (answer === undefined) continue
    const path = jsonPathOf(answer, value)
    if (path !== null) return { exchange, path }
  }
  return null
}

/** The tool's step made from `exchange`, inserted before index `at` when it is new. */
function stepOf(
  steps: ToolStep[],
  exchange: Exchange,
  at: number,
): { step: ToolStep; added: boolean } {
  const existing = steps.find((s) => s.exchangeId === exchange.id)
  if (existing) return { step: existing, added: false }
  const step = withBoundCredentials(
    {
      id: `d${exchange.seq}`,
      exchangeId: exchange.id,
      request: templateOf(exchange, new Map(), new Map()),
      extract: [],
    },
    steps.at(-1)!,
  )
  steps.splice(at, 0, step)
  return { step, added: true }
}

function words(text: string): string {
  return fold(text)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}
