/**
 * The grammar and reading of an `option` extractor (ToolSpec `ExtractorSource`): the value a
 * form's `<select>` sends for the choice a person reads (`<option value="1026">Grace Lee</option>`),
 * picked by the option's text, never by its id or place. The path is JSON:
 * `{"select": "member_id", "text": "Grace Lee" | "{{input.p0}}"}`. Shared by the compiler that
 * writes the path and the engine that reads it.
 */
import * as cheerio from 'cheerio'
import { safeJson } from './safeJson'

/** Which select, and the label of the option to send. */
export interface OptionPick {
  select: string
  text: string
}

/** Writes an option path. */
export function formatOptionPick(pick: OptionPick): string {
  return JSON.stringify(pick)
}

/** Reads an option path; null when it is not one. */
export function parseOptionPick(path: string): OptionPick | null {
  const value = safeJson(path) as Record<string, unknown> | null | undefined
  if (typeof value?.select !== 'string' || typeof value.text !== 'string') return null
  return { select: value.select, text: value.text }
}

/** Lower case with runs of white space as one space, trimmed: how an option's text compares. */
function fold(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase()
}

/** The options of the page's first `<select name>`: each one's label and the value it sends. */
export function selectOptions(
  html: string,
  select: string,
): Array<{ label: string; value: string }> | null {
  const $ = cheerio.load(html)
  const control = $('select')
    .filter((_, el) => $(el).attr('name') === select)
    .first()
  if (!control.length) return null
  return control
    .find('option')
    .toArray()
    .map((el) => {
      const label = $(el).text().trim().replace(/\s+/g, ' ')
      // HTML §4.10.10: an option without a value attribute sends its text.
      return { label, value: $(el).attr('value') ?? label }
    })
}

/**
 * What `pick` reads from a page: the value of the option of its select whose text is the pick's
 * (its `{{name}}` resolved from `scope`; case and spacing aside), else of the option whose value
 * it is (a caller may give the id itself). `found: false` when the select is
 * there and no option has that text (the input names nothing); undefined when the page has no
 * such select.
 */
export function optionValue(
  html: string,
  pick: OptionPick,
  scope: Readonly<Record<string, unknown>> = {},
): { found: true; value: string } | { found: false; wanted: string } | undefined {
  const options = selectOptions(html, pick.select)
  if (!options) return undefined
  const placeholder = /^\{\{\s*([a-zA-Z0-9_.:-]+)\s*\}\}$/.exec(pick.text)
  const wanted = placeholder ? scope[placeholder[1]!] : pick.text
  if (typeof wanted !== 'string' && typeof wanted !== 'number') return undefined
  const option =
    options.find((o) => fold(o.label) === fold(String(wanted))) ??
    options.find((o) => o.value === String(wanted))
  return option ? { found: true, value: option.value } : { found: false, wanted: String(wanted) }
}
