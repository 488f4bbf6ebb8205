/**
 * A field the page filled in (HTML §4.10: an `<input value>`, a `<textarea>`'s text): the record
 * an editor shows (DAViCal's `xxxxusername` on the
 * picked user's page). When the tool reads that page for the record the run picks (its URL
 * carries an input or a looked-up value), such a field is read from the page again, never asked
 * of the caller, even when the intent named its recorded value: the page gives it, not the
 * person. Pure: the tool and its trace in, the tool out.
 */
import { load } from 'cheerio'
import type { EvidenceSignal, ToolSpec } from '../../shared/toolSpec'
import type { Exchange, Trace } from '../../shared/trace'
import { httpUrl } from '../../shared/urls'
import { isHtmlDocument } from './classify'
import { dependencyUses, uniqueExtractorName, withInputSwapped } from './stepTemplate'
import { typedValues } from './typedValues'
import { normalValue } from './valueSpelling'

/**
 * The tool with each body input of its target that a page step addressed by the run's values
 * filled in (`isPrefilled`), and that the person did not type, read from that page instead: an
 * `input` extractor on the page step, the input gone. Unchanged when none.
 */
export function readPrefilledFields(tool: ToolSpec, trace: Trace): ToolSpec {
  const target = tool.steps.at(-1)
  if (!target) return tool
  const pages = tool.steps.slice(0, -1).flatMap((step) => {
    const exchange = trace.exchanges.find((e) => e.id === step.exchangeId)
    const addressed = step.request.url.includes('{{')
    return exchange && addressed && step.request.method === 'GET' && isHtmlDocument(exchange)
      ? [{ step, exchange }]
      : []
  })
  if (!pages.length) return tool
  const typed = new Set(typedValues(trace.actions).map((t) => normalValue(t.value)))
  const properties = { ...tool.inputs.properties }
  let required = [...(tool.inputs.required ?? [])]
  const steps = tool.steps.map((s) => ({ ...s, extract: [...s.extract] }))
  let request = target.request
  const signals: EvidenceSignal[] = []
  for (const [name, slot] of Object.entries(tool.inputs.properties)) {
    const value = slot.default
    const field = slot['x-path']
    if (slot['x-in'] !== 'body' || typeof value !== 'string' || field.includes('#')) continue
    if (typed.has(normalValue(value))) continue
    // An input another step sends or looks a record up by is the caller's to give.
    if (dependencyUses(steps, slot['x-slot'])) continue
    const page = pages.find((p) => isPrefilled(p.exchange, field, value))
    if (!page) continue
    const step = steps.find((s) => s.id === page.step.id)!
    const extractor =
      step.extract.find((e) => e.from === 'input' && e.path === field && e.index === undefined)
        ?.name ?? uniqueExtractorName(step, field.replace(/\W+/g, '_') || 'field')
    if (!step.extract.some((e) => e.name === extractor))
      step.extract.push({ name: extractor, from: 'input', path: field })
    request = withInputSwapped(request, slot['x-slot'], `{{step.${step.id}.${extractor}}}`)
    delete properties[name]
    required = required.filter((r) => r !== name)
    signals.push({
      name: 'prefilled_field',
      weight: 0,
      detail: `body:${field} is what the page GET ${httpUrl(page.exchange.url)?.pathname ?? ''} filled in ("${value}"): read from the page of the record the run picks`,
    })
  }
  if (!signals.length) return tool
  steps[steps.length - 1] = { ...target, request }
  return {
    ...tool,
    inputs: { ...tool.inputs, properties, required },
    steps,
    evidence: { ...tool.evidence, signals: [...tool.evidence.signals, ...signals] },
  }
}

/**
 * True when form field `key` of the HTML `page` holds `value` as served (an input's `value`, a
 * textarea's text; normalised spelling): the page filled it in. A box, a button or a select's
 * option is a choice, sent when picked: the person's, not the page's.
 */
function isPrefilled(page: Exchange, key: string, value: string): boolean {
  if (!value.trim() || page.responseBody?.encoding !== 'utf8') return false
  const $ = load(page.responseBody.text)
  const wanted = normalValue(value)
  const named = $('input, textarea').filter(
    (_, el) =>
      $(el).attr('name') === key &&
      !/^(checkbox|radio|submit|button|image|reset)$/i.test($(el).attr('type') ?? ''),
  )
  return named.toArray().some((el) => {
    const control = $(el)
    const shown = el.tagName === 'textarea' ? control.text() : (control.attr('value') ?? '')
    return shown.trim() !== '' && normalValue(shown) === wanted
  })
}
