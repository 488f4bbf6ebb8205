import * as cheerio from 'cheerio'

/**
 * The value a form control named `name` holds as the page was served, as a browser would submit
 * it: see {@link controlValue}. The `index`-th control of that name in document order counts
 * (0-based, default the first; the first when the page has fewer); none gives undefined.
 */
export function formControlValue(html: string, name: string, index = 0): string | undefined {
  const $ = cheerio.load(html)
  const named = JSON.stringify(name)
  const controls = $(`input[name=${named}], textarea[name=${named}], select[name=${named}]`)
  const control = controls.length > index ? controls.eq(index) : controls.first()
  return control.length ? controlValue(control) : undefined
}

/**
 * The value one parsed control (`<input>`, `<textarea>`, `<select>`) submits (HTML Living
 * Standard §4.10.21.4 "Constructing the entry list"): an input's `value`, a textarea's text, a
 * select's selected option (else its first), an option's value being its text when it has no
 * `value`. Undefined for a select without options or an input without a value.
 */
export function controlValue(control: ReturnType<cheerio.CheerioAPI>): string | undefined {
  const tag = control.prop('tagName')?.toLowerCase()
  // parse5 already drops the newline right after `<textarea>` (HTML §13.2.6.4.7).
  if (tag === 'textarea') return control.text()
  if (tag === 'select') {
    const selected = control.find('option[selected]').first()
    const option = selected.length ? selected : control.find('option').first()
    if (!option.length) return undefined
    return option.attr('value') ?? option.text()
  }
  return control.attr('value')
}
