import * as cheerio from 'cheerio'
import { Cookie } from 'tough-cookie'
import { filterList, parsePath, textAt, valueAt, type PathScope } from '../../shared/jsonPath'
import { formControlValue } from '../../shared/formControl'
import { linkQueryValue, parseLinkQuery } from '../../shared/linkQuery'
import { anchorValue, parseAnchorPick } from '../../shared/anchorPick'
import { optionValue, parseOptionPick } from '../../shared/optionPick'
import type { Extractor, ResultShape } from '../../shared/toolSpec'
import type { Outcome, SiteResponse } from './outcome'
import { safeJson } from '../../shared/safeJson'
import { pageLinks } from '../../shared/pageLinks'
import { xmlTree } from '../../shared/xmlTree'

/**
 * Reads one named value out of a dependency step's answer (docs/architecture.md "The records" extractors): a JSON leaf
 * by path (`a.b[2].c`; `flows[?name=={{input.p0}}].id` looks an item up by the run's input, its
 * placeholders resolved from `scope`: src/shared/jsonPath.ts), the same over an XML answer's JSON
 * view (src/shared/xmlTree.ts), a response header, a `Set-Cookie`
 * cookie (RFC 6265 §4.1), an HTML `<meta name|property>`'s content, a named form control's
 * current value (`<input>`, `<textarea>`, `<select>`: src/shared/formControl.ts),
 * an inline script's `key: "value"` / `key = "value"`, or a query parameter of the first link
 * whose query holds the path's pairs (src/shared/linkQuery.ts), the value of a `<select>`'s
 * option picked by its text (`option`: src/shared/optionPick.ts), or the quoted string that
 * follows the path's text in a script answer (`literal`). Returns undefined when the answer no
 * longer carries it (for a lookup: no item has that name).
 */
export function extractValue(
  response: SiteResponse,
  extractor: Extractor,
  scope: PathScope = {},
): string | undefined {
  switch (extractor.from) {
    case 'header':
      return response.headers[extractor.path.toLowerCase()]
    case 'cookie':
      for (const line of response.setCookies ?? []) {
        const cookie = Cookie.parse(line)
        if (cookie?.key === extractor.path) return cookie.value
      }
      return undefined
    case 'json':
      return textAt(safeJson(response.body), extractor.path, scope)
    case 'xml':
      return textAt(xmlTree(response.body), extractor.path, scope)
    case 'meta': {
      const $ = cheerio.load(response.body)
      const name = cssString(extractor.path)
      return $(`meta[name=${name}], meta[property=${name}]`).first().attr('content')
    }
    case 'input':
      return formControlValue(response.body, extractor.path, extractor.index)
    case 'script': {
      const key = extractor.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      const match = new RegExp(`["']?${key}["']?\\s*[:=]\\s*["']([^"']*)["']`).exec(response.body)
      return match?.[1]
    }
    case 'literal': {
      // The quoted string right after the recorded text: `…val('1.d37…')` gives `1.d37…`.
      const at = response.body.indexOf(extractor.path)
      if (at < 0) return undefined
      const quote = response.body[at + extractor.path.length]
      if (quote !== '"' && quote !== "'") return undefined
      const start = at + extractor.path.length + 1
      const end = response.body.indexOf(quote, start)
      return end < 0 ? undefined : response.body.slice(start, end)
    }
    case 'anchor': {
      const pick = parseAnchorPick(extractor.path)
      if (!pick) return undefined
      // Links are read by their path: a relative one is taken from the site's root.
      return anchorValue(pageLinks(response.body), pick, 'http://localhost/', scope)
    }
    case 'option': {
      const pick = parseOptionPick(extractor.path)
      const read = pick ? optionValue(response.body, pick, scope) : undefined
      return read?.found ? read.value : undefined
    }
    case 'link': {
      const query = parseLinkQuery(extractor.path)
      if (!query) return undefined
      const $ = cheerio.load(response.body)
      const hrefs = $('a[href]')
        .map((_, a) => $(a).attr('href') ?? '')
        .get()
      return linkQueryValue(hrefs, query, scope)
    }
  }
}

/**
 * Why a lookup found nothing, or null when `extractor` is no lookup or the
 * answer no longer holds its list (then the answer drifted). A list that holds no record with the
 * name the run was given means the input names nothing there: `not_found`, as a 404 for these
 * inputs would, never "record the flow again". `where` names the step's request (`GET /flows`).
 */
export function lookupMiss(
  response: SiteResponse,
  extractor: Extractor,
  scope: PathScope,
  where: string,
): Outcome | null {
  if (extractor.from === 'option') {
    const pick = parseOptionPick(extractor.path)
    const read = pick ? optionValue(response.body, pick, scope) : undefined
    if (!pick || !read || read.found) return null
    return {
      ok: false,
      code: 'not_found',
      message: `No choice of the list "${pick.select}" on ${where} is named "${read.wanted}": check the name.`,
    }
  }
  const parts =
    extractor.from === 'json' || extractor.from === 'xml' ? parsePath(extractor.path) : null
  const at = parts?.findIndex((p) => p.kind === 'where') ?? -1
  const lookup = parts?.[at]
  if (!parts || !lookup || lookup.kind !== 'where') return null
  const answer = extractor.from === 'xml' ? xmlTree(response.body) : safeJson(response.body)
  if (!Array.isArray(valueAt(answer, parts.slice(0, at), scope))) return null
  const wanted =
    'placeholder' in lookup.value ? scope[lookup.value.placeholder] : lookup.value.literal
  return {
    ok: false,
    code: 'not_found',
    message: `No record of ${where} has ${lookup.field.join('.')} "${String(wanted ?? '')}": check the name.`,
  }
}

/**
 * The target's result with its declared filter applied (ToolSpec `ResultFilter`): a verified JSON
 * result keeps the items of its list whose fields contain the term the `scope` holds for the
 * filter's input. Verification ran on the site's whole answer before, so
 * an empty list is an answer ("nothing matches"), not a failure. Anything else passes unchanged.
 */
export function filterResult(
  outcome: Outcome,
  shape: ResultShape | undefined,
  scope: PathScope,
): Outcome {
  if (!outcome.ok || shape?.kind !== 'json' || !shape.filter) return outcome
  const { path, fields, input } = shape.filter
  const term = scope[`input.${input}`]
  if (typeof term !== 'string' && typeof term !== 'number') return outcome
  return { ok: true, result: filterList(outcome.result, path, fields, String(term)) }
}

/** A CSS attribute-selector string literal (CSS Syntax §4.3.5): quoted, with `"` and `\` escaped. */
function cssString(text: string): string {
  return `"${text.replace(/["\\]/g, '\\$&')}"`
}
