/**
 * A value the person gave that a request sends inside a longer one: a queue named in a query
 * language (RT's `Queue = 'Facilities' AND Status = '__Active__'`, a JQL or PromQL filter), text
 * typed into a rich-text editor that the page sends as HTML (`<p>Three keys came off…</p>`). The
 * longer value stays in the template around a new input for the given one, so a run changes the
 * queue or the text and keeps the rest. HTML around the value gets the input XML-escaped
 * (`{{xml:input.pN}}`, XML 1.0 §2.4), as the editor would have written it. Pure: tool in, tool out.
 */
import type { EvidenceSignal, SlotSchema, ToolSpec } from '../../shared/toolSpec'
import type { Trace } from '../../shared/trace'
import { escapeXml } from '../../shared/xmlTree'
import { intentValues } from './intentValues'
import { dependencyUses, freshInputName, nextSlotNumber, withInputSwapped } from './stepTemplate'
import { typedValues } from './typedValues'
import { normalValue } from './valueSpelling'

/** Values shorter than this are too likely to turn up inside another value by chance. */
const MIN_LENGTH = 3

/**
 * The tool with each query or body input of its target whose recorded value holds, as a whole
 * word run, a value the person typed or the intent names (and that no input carries on its own)
 * split around it: the input gone, a required input for the given value in its place, the rest
 * of the recorded value constant in the template. Inputs a dependency step sends, and inputs
 * that are themselves a given value, are left alone. Unchanged when none.
 */
export function splitEmbeddedValues(tool: ToolSpec, trace: Trace, intent: string): ToolSpec {
  const target = tool.steps.at(-1)
  if (!target) return tool
  const typed = typedValues(trace.actions)
  const given = [
    ...typed,
    ...intentValues(intent, trace.exchanges),
    ...quotedIn(intent).map((value) => ({ value, fieldName: null })),
  ]
    .map((t) => ({ value: t.value.trim(), fieldName: t.fieldName }))
    .filter((t) => t.value.length >= MIN_LENGTH)
  if (!given.length) return tool
  // A value given whole (typed, or named by the intent) is not split for a part of it.
  const givenText = new Set(given.map((g) => normalValue(g.value)))
  const properties: Record<string, SlotSchema> = { ...tool.inputs.properties }
  const carried = () =>
    new Set(
      Object.values(properties).flatMap((p) =>
        typeof p.default === 'string' ? [normalValue(p.default)] : [],
      ),
    )
  let required = [...(tool.inputs.required ?? [])]
  let request = target.request
  const signals: EvidenceSignal[] = []
  let next = nextSlotNumber(properties)
  for (const [name, slot] of Object.entries(tool.inputs.properties)) {
    const recorded = slot.default
    if (typeof recorded !== 'string' || !['query', 'body'].includes(slot['x-in'])) continue
    if (givenText.has(normalValue(recorded)) || dependencyUses(tool.steps, slot['x-slot'])) continue
    const have = carried()
    const found = given
      .filter((g) => !have.has(normalValue(g.value)))
      .map((g) => ({ g, at: placeIn(recorded, g.value) }))
      .find((f) => f.at !== null)
    if (!found?.at) continue
    const { before, after, escaped } = found.at
    const id = `p${next++}`
    const inner = escaped ? `{{xml:input.${id}}}` : `{{input.${id}}}`
    const encode = slot['x-in'] === 'query' ? encodeURIComponent : (t: string) => t
    request = withInputSwapped(request, slot['x-slot'], `${encode(before)}${inner}${encode(after)}`)
    const fresh = freshInputName(nameFor(before, found.g.fieldName, name), properties, name)
    delete properties[name]
    required = required.filter((r) => r !== name)
    properties[fresh] = {
      'x-slot': id,
      'x-in': slot['x-in'],
      'x-path': slot['x-path'],
      type: 'string',
      default: found.g.value,
      description: `The value given inside ${slot['x-in']} ${slot['x-path']} (recorded ${JSON.stringify(recorded)}); the rest of it is sent as recorded`,
    }
    required.push(fresh)
    signals.push({
      name: 'embedded_value',
      weight: 0,
      detail: `"${found.g.value}" is sent inside ${slot['x-in']} ${slot['x-path']}: only that part is an input`,
    })
  }
  if (!signals.length) return tool
  return {
    ...tool,
    inputs: { ...tool.inputs, properties, required },
    steps: [...tool.steps.slice(0, -1), { ...target, request }],
    evidence: { ...tool.evidence, signals: [...tool.evidence.signals, ...signals] },
  }
}

/**
 * The values an intent quotes (`'Facilities'`, "Sales team", “…”): a quote opens after a space or
 * the start and closes before a space, punctuation or the end, so "alice's" quotes nothing.
 */
function quotedIn(intent: string): string[] {
  const out: string[] = []
  for (const m of intent.matchAll(/(?<=^|[\s(])(["'“‘])(.+?)(["'”’])(?=$|[\s.,;:!?)])/gu))
    if (m[2]!.trim()) out.push(m[2]!)
  return out
}

/**
 * Where `value` sits in `recorded` as a whole run of words (no letter or digit touching it on
 * either side), once: as it is, or XML-escaped inside HTML. Null when absent, or when it is the
 * whole value or occurs more than once (which one the run should change is then unknown).
 */
function placeIn(
  recorded: string,
  value: string,
): { before: string; after: string; escaped: boolean } | null {
  const html = /<\/?[a-z][^>]*>|&[a-z]+;/i.test(recorded)
  const spellings = html ? [escapeXml(value), escapeText(value)] : [value]
  for (const spelled of new Set(spellings)) {
    const at = boundedIndex(recorded, spelled)
    if (at === null) continue
    if (at === 0 && spelled.length === recorded.length) return null
    if (boundedIndex(recorded.slice(at + spelled.length), spelled) !== null) return null
    return {
      before: recorded.slice(0, at),
      after: recorded.slice(at + spelled.length),
      escaped: html,
    }
  }
  return null
}

/** HTML text as editors write it: only `&`, `<` and `>` escaped (quotes stay). */
function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

function boundedIndex(text: string, part: string): number | null {
  let from = 0
  for (;;) {
    const at = text.indexOf(part, from)
    if (at < 0) return null
    const left = text[at - 1] ?? ''
    const right = text[at + part.length] ?? ''
    if (!/[\p{L}\p{N}]/u.test(left) && !/[\p{L}\p{N}]/u.test(right)) return at
    from = at + 1
  }
}

/**
 * The new input's name: the field a query language compares it with (`Queue` of
 * `Queue = '…'`, `author` of `author:…`), else the field it was typed into, else the old input's.
 */
function nameFor(before: string, fieldName: string | null, old: string): string {
  const compared = /([A-Za-z_][\w.]*)\s*(?:=|==|!=|:|~|\bLIKE\b|\bIS\b)\s*['"]?$/i.exec(before)
  return compared?.[1] ?? fieldName ?? old
}
