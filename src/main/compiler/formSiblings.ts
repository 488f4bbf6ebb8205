import * as cheerio from 'cheerio'
import type { Extractor } from '../../shared/toolSpec'
import type { Exchange, Trace } from '../../shared/trace'
import type { DependencyPlan } from './dependencies'
import { snake } from './naming'
import { isOperationValue } from './operation'
import { requestValues } from './requestValues'
import { controlValue } from '../../shared/formControl'
import { pathOrText } from '../../shared/urls'

/**
 * Reads the rest of a form from the page a dependency step already reads a token of: a hidden field
 * of the same `<form>` named as page state (an id, a version, a token: `STATE_NAME`) that the
 * target sends with the value the page held (WordPress's Quick Draft
 * sends `post_ID=25`, the auto-draft the dashboard made on that load, beside the `_wpnonce` of
 * the same form) is extracted from the page on every run, however short. Such a field is the
 * page's state, never something the person gives: replayed as
 * recorded it names the recording's record, and the site refuses the write (WordPress checks
 * the nonce against the post that `post_ID` names). `personal` are the values the person typed
 * or picked, or the intent names: those stay inputs. Returns a new plan; `plan` is unchanged.
 */
export function readFormSiblings(
  trace: Trace,
  target: Exchange,
  plan: DependencyPlan,
  personal: string[],
): DependencyPlan {
  // The operation field (`action=post-quickdraft-save`) is what the tool does: a constant.
  const sent = requestValues(target).filter(
    (v) =>
      v.value !== null && !v.inJson && !isOperationValue(v) && !personal.includes(String(v.value)),
  )
  const bindings = new Map(plan.bindings)
  const signals = [...plan.signals]
  const steps = plan.steps.map((step) => {
    const tokens = step.extract.filter((x) => x.from === 'input')
    const exchange = trace.exchanges.find((e) => e.id === step.exchangeId)
    const html = exchange?.responseBody?.encoding === 'utf8' ? exchange.responseBody.text : ''
    if (!tokens.length || !html.includes('<form')) return step
    const $ = cheerio.load(html)
    const firstNamed = (name: string) =>
      $('input[name]')
        .filter((_, el) => $(el).attr('name') === name)
        .first()
    const extract: Extractor[] = [...step.extract]
    const where = `${exchange!.method} ${pathOrText(exchange!.url)}`
    /** Reads the field `name` from this page when the target sent the value it held there. */
    const bind = (name: string, value: string, why: string) => {
      if (extract.some((x) => x.from === 'input' && x.path === name)) return
      const field = sent.find((v) => v.path === name && String(v.value) === value)
      const site = field && `${field.location}:${field.path}`
      if (!site || bindings.has(site)) return
      let extractorName = snake(name)
      while (extract.some((x) => x.name === extractorName))
        extractorName = `${extractorName}_${extract.length}`
      extract.push({ name: extractorName, from: 'input', path: name })
      bindings.set(site, `{{step.${step.id}.${extractorName}}}`)
      signals.push({ name: 'dependency', weight: 0, detail: `${site} ${why}` })
    }
    for (const token of tokens) {
      const form = firstNamed(token.path).closest('form')
      form.find('input[type="hidden"][name]').each((_, el) => {
        const name = $(el).attr('name')!
        const value = $(el).attr('value') ?? ''
        // The run reads the first field of that name on the page: it must be this one.
        if (!value || !STATE_NAME.test(snake(name)) || PLAIN_WORDS.test(value)) return
        if (firstNamed(name).get(0) !== el) return
        bind(
          name,
          value,
          `comes from the hidden input ${name} of ${where}, in the form of its ${token.path}`,
        )
      })
      // The fields the person left as the page filled them (an issue's tracker, status and
      // text beside the file they attached) are sent as the page holds them on the run, as a
      // browser would; replayed as recorded they would undo changes made since.
      form.find('input[name], textarea[name], select[name]').each((_, el) => {
        const name = $(el).attr('name')!
        const kind = ($(el).attr('type') ?? '').toLowerCase()
        if (el.tagName === 'input' && !VISIBLE_TEXT.test(kind)) return
        if ($(`[name=${JSON.stringify(name)}]`).get(0) !== el) return
        const value = controlValue($(el))
        if (value !== undefined)
          bind(
            name,
            value,
            `is what the form field ${name} of ${where} held: sent as the page holds it`,
          )
      })
    }
    return extract.length === step.extract.length ? step : { ...step, extract }
  })
  return { ...plan, steps, bindings, signals }
}

/**
 * Names of the hidden fields that hold the page's state (snake case): a record's id, a revision
 * or lock version, a token or nonce. Other hidden fields (`ss=00`, `post_category[]=0`) are the
 * form's defaults, which the page's script may overwrite: equal to what was sent by chance.
 */
const STATE_NAME =
  /(^|_)(id|ids|uuid|guid|version|rev|revision|etag|lock|nonce|token|key|hash|sig|signature)(_|$)/

/**
 * One to three words of letters (`post`, `patch`, `inline save`): a constant of the form, such
 * as a type or a method override (`_method=patch`), which is the tool's shape, not page state.
 */
const PLAIN_WORDS = /^[A-Za-z]{1,24}([ _:-][A-Za-z]{1,24}){0,2}$/

/** `<input>` types whose value the person sees and may edit as text (empty: type text). */
const VISIBLE_TEXT = /^(|text|search|email|url|tel|number|date|datetime-local|month|week|time)$/
