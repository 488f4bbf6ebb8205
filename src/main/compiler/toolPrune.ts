import type { SlotSchema, ToolSpec, ToolStep } from '../../shared/toolSpec'
import type { Exchange, Trace } from '../../shared/trace'
import { isLongPoll, setCookies } from './valueSources'

/** `{{input.p3}}` in templates, and `input.p3` in a lookup path's `[?…=={{input.p3}}]`. */
const INPUT = /\binput\.p(\d+)\b/g

/**
 * A tool without the parts a rewrite left unused (after the read-modify-write pass): extractors
 * no later step names, dependency steps left without any (unless a later step reads their whole
 * answer, or their `Set-Cookie` feeds the run's jar), and inputs no step or result filter uses;
 * the remaining slots renumbered `p0..pn` in order (docs/architecture.md "The records": slot ids stay dense). Pure.
 */
export function pruneTool(tool: ToolSpec, trace: Trace): ToolSpec {
  const steps: ToolStep[] = []
  const kept = [...tool.steps]
  for (const [index, step] of kept.entries()) {
    const later = kept
      .slice(index + 1)
      .map(usedText)
      .join('\n')
    if (index === kept.length - 1) {
      steps.push(step)
      continue
    }
    const extract = step.extract.filter((x) => later.includes(`step.${step.id}.${x.name}`))
    const exchange = trace.exchanges.find((e) => e.id === step.exchangeId)
    const needed =
      extract.length > 0 ||
      !step.extract.length ||
      basedOn(kept.slice(index + 1), step.id) ||
      (exchange !== undefined &&
        !isLongPoll(exchange) &&
        setsOwnCookie(exchange, kept, step, trace))
    if (needed) steps.push({ ...step, extract })
    else kept[index] = { ...step, extract: [] }
  }
  const used = new Set<string>()
  for (const step of steps) for (const m of usedText(step).matchAll(INPUT)) used.add(`p${m[1]}`)
  const filter = tool.result?.kind === 'json' ? tool.result.filter : undefined
  if (filter) used.add(filter.input)
  const properties: Record<string, SlotSchema> = {}
  const renumber = new Map<string, string>()
  const names = new Map<string, string>()
  const usedInputs = Object.entries(tool.inputs.properties).filter(([, s]) => used.has(s['x-slot']))
  for (const [name, schema] of usedInputs) {
    renumber.set(schema['x-slot'], `p${renumber.size}`)
    // `label_2` named so beside an input the rewrite left unused takes back its plain name.
    const plain = /^(.+)_\d+$/.exec(name)?.[1]
    const free = plain && !usedInputs.some(([other]) => other === plain) && !names.has(plain)
    names.set(free ? plain : name, name)
  }
  for (const [to, from] of names) {
    const schema = tool.inputs.properties[from]!
    properties[to] = { ...schema, 'x-slot': renumber.get(schema['x-slot'])! }
  }
  const rename = <T>(value: T): T =>
    JSON.parse(
      JSON.stringify(value).replace(INPUT, (whole, n: string) => {
        const to = renumber.get(`p${n}`)
        return to ? `input.${to}` : whole
      }),
    ) as T
  const renamed = new Map([...names].map(([to, from]) => [from, to]))
  return {
    ...tool,
    inputs: {
      ...tool.inputs,
      properties: rename(properties),
      required: (tool.inputs.required ?? []).flatMap((name) =>
        renamed.has(name) ? [renamed.get(name)!] : [],
      ),
    },
    steps: rename(steps),
    ...(filter && tool.result?.kind === 'json'
      ? { result: { ...tool.result, filter: { ...filter, input: renumber.get(filter.input)! } } }
      : {}),
    evidence: {
      ...tool.evidence,
      exchangeIds: steps.flatMap((s) => (s.exchangeId ? [s.exchangeId] : [])),
    },
  }
}

/**
 * True when a step's answer sets a cookie no other step of the tool sets: the run's jar needs it.
 * A step whose cookies another step sets too (a session cookie every page renews) adds nothing.
 */
function setsOwnCookie(
  exchange: Exchange,
  steps: ToolStep[],
  self: ToolStep,
  trace: Trace,
): boolean {
  const others = new Set(
    steps
      .filter((s) => s !== self)
      .flatMap((s) => {
        const e = trace.exchanges.find((x) => x.id === s.exchangeId)
        return e ? setCookies(e).map((c) => c.name) : []
      }),
  )
  return setCookies(exchange).some((c) => !others.has(c.name))
}

/** What a step sends and reads with: its request (a based body's changes, not its shown form) and extractor paths. */
function usedText(step: ToolStep): string {
  const { body } = step.request
  const sent = body?.kind === 'json' && body.base ? body.base : body
  return JSON.stringify([step.request.url, step.request.headers, sent, step.extract])
}

function basedOn(steps: ToolStep[], id: string): boolean {
  return steps.some((s) => s.request.body?.kind === 'json' && s.request.body.base?.step === id)
}
