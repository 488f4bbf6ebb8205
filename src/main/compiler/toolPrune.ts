import type { SlotSchema, ToolSpec, ToolStep } from '../../shared/toolSpec'
import type { Trace } from '../../shared/trace'
import { setCookies } from './valueSources'

/** `{{input.p3}}` in templates, and `input.p3` in a lookup path's `[?…=={{input.p3}}]`. */
const INPUT = /\binput\.p(\d+)\b/g

/**
 * A tool without the parts a rewrite left unused (after the read-modify-write pass): extractors
 * no later step names, dependency steps left without any (unless a later step reads their whole
 * answer, or their `Set-Cookie` feeds the run's jar), and inputs no step or result filter uses;
 * the remaining slots renumbered `p0..pn` in order (DESIGN.md §4: slot ids stay dense). Pure.
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
      (exchange !== undefined && setCookies(exchange).length > 0)
    if (needed) steps.push({ ...step, extract })
    else kept[index] = { ...step, extract: [] }
  }
  const used = new Set<string>()
  for (const step of steps) for (const m of usedText(step).matchAll(INPUT)) used.add(`p${m[1]}`)
  const filter = tool.result?.kind === 'json' ? tool.result.filter : undefined
  if (filter) used.add(filter.input)
  const properties: Record<string, SlotSchema> = {}
  const renumber = new Map<string, string>()
  for (const [name, schema] of Object.entries(tool.inputs.properties)) {
    if (!used.has(schema['x-slot'])) continue
    renumber.set(schema['x-slot'], `p${renumber.size}`)
    properties[name] = { ...schema, 'x-slot': renumber.get(schema['x-slot'])! }
  }
  const rename = <T>(value: T): T =>
    JSON.parse(
      JSON.stringify(value).replace(INPUT, (whole, n: string) => {
        const to = renumber.get(`p${n}`)
        return to ? `input.${to}` : whole
      }),
    ) as T
  return {
    ...tool,
    inputs: {
      ...tool.inputs,
      properties,
      required: (tool.inputs.required ?? []).filter((name) => name in properties),
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

/** What a step sends and reads with: its request (a based body's changes, not its shown form) and extractor paths. */
function usedText(step: ToolStep): string {
  const { body } = step.request
  const sent = body?.kind === 'json' && body.base ? body.base : body
  return JSON.stringify([step.request.url, step.request.headers, sent, step.extract])
}

function basedOn(steps: ToolStep[], id: string): boolean {
  return steps.some((s) => s.request.body?.kind === 'json' && s.request.body.base?.step === id)
}
