import * as cheerio from 'cheerio'
import { mimeTypeOf, type Exchange } from '../../shared/trace'
import { isOperationValue } from './operation'
import { requestValues } from './requestValues'
import type { TypedValue } from './typedValues'
import { normalValue } from './valueSpelling'

/** One `<option>` of a page's named `<select>`: what the person reads and what the form sends. */
interface LabelledOption {
  select: string
  value: string
  label: string
  /** Every option value of the select, in order: the slot's choices. */
  options: string[]
}

/**
 * The values a trace without actions was made for when the intent names a choice by its label
 * ("list the posts in the category Recipes" while the request sends `cat=4`):
 * a page answered before the request held `<select name="cat">…<option value="4">Recipes</option>`,
 * and the request sends that select's field with that option's value. Each such value stands in
 * for what a person would have picked (`kind: 'select'`, the select's option values as choices),
 * once, in the order the requests carried them. `phrases` are the intent's value phrases, lower
 * case, as `intentValues` reads them; labels are compared lower-cased and by `normalValue`.
 */
export function labelledValues(phrases: Set<string>, exchanges: Exchange[]): TypedValue[] {
  const seen: LabelledOption[] = []
  const found = new Map<string, TypedValue>()
  for (const exchange of exchanges) {
    for (const v of requestValues(exchange)) {
      if (typeof v.value !== 'string' || !v.value || isOperationValue(v)) continue
      const option = seen.find(
        (o) => (o.select === v.key || o.select === v.path) && o.value === v.value,
      )
      if (!option || found.has(v.value)) continue
      found.set(v.value, {
        value: v.value,
        fieldName: option.select,
        name: option.label,
        kind: 'select',
        inputType: null,
        at: exchange.startedAt,
        options: option.options,
        fromIntent: true,
      })
    }
    seen.push(...namedOptions(exchange, phrases))
  }
  return [...found.values()]
}

/** The options of an HTML answer's named selects whose label is one of `phrases`. */
function namedOptions(exchange: Exchange, phrases: Set<string>): LabelledOption[] {
  const body = exchange.responseBody
  if (!body || body.encoding !== 'utf8' || !mimeTypeOf(exchange.responseHeaders).includes('html'))
    return []
  const lower = body.text.toLowerCase()
  // Parse only pages that hold an option and one of the phrases: most answers hold neither.
  if (!lower.includes('<option') || ![...phrases].some((p) => lower.includes(p))) return []
  const $ = cheerio.load(body.text)
  const out: LabelledOption[] = []
  $('select[name]').each((_, select) => {
    const options = $(select).find('option[value]')
    const values = options.map((_, o) => $(o).attr('value') ?? '').get()
    options.each((_, o) => {
      const label = $(o).text().trim().replace(/\s+/g, ' ')
      const value = $(o).attr('value') ?? ''
      if (!value || !label) return
      if (!phrases.has(label.toLowerCase()) && !phrases.has(normalValue(label))) return
      out.push({ select: $(select).attr('name')!, value, label, options: values })
    })
  })
  return out
}
