/**
 * Choices picked from a list by name (architecture.md "What recorded traffic asks", 3): a form
 * sends the value of the `<option>` the person picked (`member_id=1026`), while the person read
 * and picked its label ("Grace Lee"). An input whose recorded value is such an option's value
 * takes the label instead, and the run reads the value that label sends from the page the form
 * was on (an `option` extractor, src/shared/optionPick.ts). Pure: the tool and its trace in, the
 * tool out.
 */
import type { EvidenceSignal, SlotSchema, ToolSpec } from '../../shared/toolSpec'
import type { Exchange, Trace } from '../../shared/trace'
import { formatOptionPick, selectOptions } from '../../shared/optionPick'
import { httpUrl } from '../../shared/urls'
import { isHtmlDocument } from './classify'
import { seqOf, stepFor, uniqueExtractorName, withInputSwapped } from './stepTemplate'

/** How many of a list's labels an input shows as examples. */
const MAX_EXAMPLES = 12

/** A recorded option value that an input carries, and the list on a page that labels it. */
interface LabelledChoice {
  input: string
  slot: SlotSchema
  select: string
  label: string
  labels: string[]
  page: Exchange
}

/**
 * The tool with each input whose recorded value is the value of a labelled option (a page's
 * `<select name>` before the target offered it under another text, every label of that list
 * told apart) asking for the label; the target sends the value the page's option of that label
 * has at run time. Inputs of the body (form, multipart) and query only; unchanged when none.
 */
export function pickOptionsByLabel(tool: ToolSpec, trace: Trace): ToolSpec {
  const target = tool.steps.at(-1)
  const exchange = trace.exchanges.find((e) => e.id === target?.exchangeId)
  if (!target || !exchange) return tool
  const pages = trace.exchanges.filter(
    (e) =>
      e.seq < exchange.seq &&
      e.method === 'GET' &&
      e.responseBody?.encoding === 'utf8' &&
      e.responseBody.text.includes('<option') &&
      isHtmlDocument(e),
  )
  if (!pages.length) return tool
  // A menu whose picked label is the act the intent asks ("Delete" for "delete the device …")
  // picks the operation (kind 6), which is no input at all, not a value to ask by name.
  const verb = tool.intent.trim().split(/\s+/)[0]?.toLowerCase() ?? ''
  const choices = Object.entries(tool.inputs.properties).flatMap(([input, slot]) => {
    const choice = labelledChoice(input, slot, pages)
    const act = choice?.label
      .toLowerCase()
      .split(/[^\p{L}]+/u)
      .includes(verb)
    return choice && !act ? [choice] : []
  })
  if (!choices.length) return tool
  const steps = [...tool.steps]
  const properties = { ...tool.inputs.properties }
  const signals: EvidenceSignal[] = []
  let request = target.request
  for (const choice of choices) {
    const step = stepFor(steps, choice.page)
    const name = uniqueExtractorName(step, `${choice.select.replace(/\W+/g, '_')}_choice`)
    step.extract = [
      ...step.extract,
      {
        name,
        from: 'option',
        path: formatOptionPick({
          select: choice.select,
          text: `{{input.${choice.slot['x-slot']}}}`,
        }),
      },
    ]
    // Every step after the page that sends the choice sends the value the page gives it.
    const extracted = `{{step.${step.id}.${name}}}`
    const from = seqOf(trace, step)
    request = withInputSwapped(request, choice.slot['x-slot'], extracted)
    steps.forEach((other, i) => {
      if (i < steps.length - 1 && other !== step && seqOf(trace, other) > from)
        steps[i] = {
          ...other,
          request: withInputSwapped(other.request, choice.slot['x-slot'], extracted),
        }
    })
    const { enum: _values, minimum: _min, maximum: _max, ...rest } = choice.slot
    properties[choice.input] = {
      ...rest,
      type: 'string',
      default: choice.label,
      examples: [
        choice.label,
        String(choice.slot.default),
        ...choice.labels.filter((l) => l !== choice.label),
      ].slice(0, MAX_EXAMPLES),
      description: `Which ${choice.select} to send, by the name its list shows ("${choice.label}") or its value (${String(choice.slot.default)}); the value is read from the page.`,
    }
    signals.push({
      name: 'option_by_label',
      weight: 0,
      detail: `${String(choice.slot.default)} is the value of "${choice.label}" in the list ${choice.select} of GET ${httpUrl(choice.page.url)?.pathname ?? choice.page.url}: asked by that name`,
    })
  }
  steps[steps.length - 1] = { ...target, request }
  return {
    ...tool,
    inputs: { ...tool.inputs, properties },
    steps: [...steps.slice(0, -1).sort((a, b) => seqOf(trace, a) - seqOf(trace, b)), steps.at(-1)!],
    evidence: { ...tool.evidence, signals: [...tool.evidence.signals, ...signals] },
  }
}

/** The labelled list whose option value the input's recorded value is, on the latest page. */
function labelledChoice(input: string, slot: SlotSchema, pages: Exchange[]): LabelledChoice | null {
  const recorded = slot.default
  if (slot['x-in'] !== 'body' && slot['x-in'] !== 'query') return null
  if (typeof recorded !== 'string' && typeof recorded !== 'number') return null
  const value = String(recorded)
  const select = slot['x-path'].replace(/#\d+$/, '')
  if (!value.trim()) return null
  for (const page of [...pages].reverse()) {
    const options = selectOptions(page.responseBody!.text, select)
    const option = options?.find((o) => o.value === value)
    if (!options || !option || options.length < 2) continue
    const fold = (t: string) => t.trim().toLowerCase()
    const labels = options.map((o) => o.label)
    // A list whose labels are its values, or that repeats a label, is picked by value.
    if (!option.label || fold(option.label) === fold(option.value)) return null
    if (new Set(labels.map(fold)).size !== labels.length) return null
    return { input, slot, select, label: option.label, labels, page }
  }
  return null
}
