import {
  fold,
  formatPath,
  parsePath,
  valueAt,
  valuesAt,
  wherePart,
  type PathPart,
} from '../../shared/jsonPath'
import type { EvidenceSignal, RequestTemplate, SlotSchema, ToolSpec } from '../../shared/toolSpec'
import type { Exchange, Trace } from '../../shared/trace'
import { parseJsonBody } from './classify'
import { everyGroup } from './groupedLists'
import { personValues, type PersonValue } from './personValues'
import { singular } from './valueSpelling'
import { snake } from './naming'
import { load } from 'cheerio'
import {
  formatAnchorPick,
  linkPart,
  parseAnchorPick,
  type AnchorPick,
} from '../../shared/anchorPick'

/** Fields that name a record, most telling first; any other string field may too. */
export const NAME_FIELDS = [
  'name',
  'title',
  'label',
  'display_name',
  'displayname',
  'subject',
  'slug',
  'username',
  'login',
  'email',
  'key',
]

/** One extractor turned into a lookup, for tests and the evidence signal. */
interface Lookup {
  stepId: string
  extractor: string
  /** The extractor's path before (`flows[6].id`) and after (`flows[?name=={{input.p0}}].id`). */
  from: string
  to: string
  field: string
  value: string
  slot: string
}

/**
 * Looks ids up by the name the person picked ("an id the UI derived from a name
 * the person picked becomes a lookup step by name, with the name as the slot; never an id bound
 * by its position in a list"). For each JSON extractor of a dependency step that reads a record
 * of a list by position (`flows[6].id`), the recorded answer's record is read; when one of its
 * string fields equals a value the person gave (typed, clicked, quoted or named in the intent:
 * `personValues`) and no other record of the list has that value, the extractor becomes
 * `flows[?name=={{input.pN}}].id` and the value a new input (`x-in: answer`, default the
 * recorded value; required when the person typed, clicked or quoted it). Name-like fields
 * (`name`, `title`, `label`…) are preferred, then values in the order `personValues` ranks them.
 * Pure: the tool and its trace in, the tool (unchanged when nothing applies) out.
 */
export function lookupByName(tool: ToolSpec, trace: Trace, intent = tool.intent): ToolSpec {
  const values = personValues(trace, intent)
  if (!values.length || tool.steps.length < 2) return tool
  const properties = { ...tool.inputs.properties }
  const required = [...(tool.inputs.required ?? [])]
  const slotOf = new Map<string, string>()
  const lookups: Lookup[] = []
  const steps = tool.steps.map((step, index) => {
    if (index === tool.steps.length - 1) return step
    const exchange = trace.exchanges.find((e) => e.id === step.exchangeId)
    if (!exchange) return step
    const addressed = /\{\{\s*(num:|json:)?input\./.test(JSON.stringify(step.request))
    const extract = step.extract.map((extractor) => {
      if (extractor.from === 'anchor') {
        // A value every link of the page carries (a CSRF nonce in each link's query, the app's
        // mount in each path), or a parameter named as a token, is the page's, not a record's:
        // no name finds another one.
        const pick = parseAnchorPick(extractor.path)
        if (pick && (('param' in pick && TOKEN_PARAM.test(pick.param)) || pageWide(exchange, pick)))
          return extractor
        const looked = anchorByName(
          extractor,
          values,
          properties,
          required,
          slotOf,
          step.id,
          linkRows(exchange),
        )
        if (looked) lookups.push({ ...looked.lookup, stepId: step.id, extractor: extractor.name })
        return looked ? { ...extractor, path: looked.path } : extractor
      }
      if (extractor.from !== 'json') return extractor
      const found = recordByName(exchange, extractor.path, values, addressed)
      if (!found || copiesRecord(step.extract, extractor.path, found)) return extractor
      const key = `${found.field}=${fold(found.value.value)}`
      // An input that already carries the value (a typed filter sent as `?q=`) is the name.
      let slot = slotOf.get(key) ?? carrying(properties, found.value.value)
      if (!slot) {
        slot = nextSlot(properties)
        slotOf.set(key, slot)
        const name = slotName(found.field, found.list, properties)
        properties[name] = lookupSlot(slot, found, `step.${step.id}.${extractor.name}`)
        if (found.value.strong) required.push(name)
      }
      const to = formatPath([
        ...everyGroup(
          parseJsonBody(exchange),
          found.parts.slice(0, found.at),
          found.field,
          found.value.value,
        ),
        wherePart(found.field.split('.'), `input.${slot}`),
        ...found.parts.slice(found.at + 1),
      ])
      lookups.push({
        stepId: step.id,
        extractor: extractor.name,
        from: extractor.path,
        to,
        field: found.field,
        value: found.value.value,
        slot,
      })
      return { ...extractor, path: to }
    })
    // The step's own request may search by the same name (`?q=Acme%20Corp`): it takes the input
    // too, or another name would be looked up in the answer to the recorded search.
    const mine = lookups.filter((l) => l.stepId === step.id)
    let request = step.request
    for (const l of mine) request = placeName(request, l.value, `{{input.${l.slot}}}`)
    return mine.length ? { ...step, request, extract } : step
  })
  if (!lookups.length) return tool
  return {
    ...tool,
    inputs: { ...tool.inputs, properties, required },
    steps,
    evidence: {
      ...tool.evidence,
      signals: [...tool.evidence.signals, ...lookups.map(signalOf)],
    },
  }
}

/** The folded text of each link's table row or list item in an HTML answer, by link text. */
function linkRows(exchange: Exchange): Map<string, string> {
  const out = new Map<string, string>()
  const body = exchange.responseBody
  if (!body || body.encoding !== 'utf8' || !/<a\s/i.test(body.text)) return out
  const $ = load(body.text)
  $('a[href]').each((_, a) => {
    const text = $(a).text().replace(/\s+/g, ' ').trim()
    if (text && !out.has(text)) out.set(text, fold($(a).closest('tr, li').text()))
  })
  return out
}

/** Query parameters that carry a page's anti-forgery token (OWASP CSRF cheat sheet names). */
const TOKEN_PARAM = /csrf|xsrf|nonce|(^|[_.-])token$/i

/** How many links of other texts must carry a value for it to be the page's own. */
const PAGE_WIDE_LINKS = 3

/**
 * True when the value the pick reads (its query parameter or path segment) is carried, equal, by
 * links of at least {@link PAGE_WIDE_LINKS} different texts of the page.
 */
function pageWide(exchange: Exchange, pick: AnchorPick): boolean {
  const body = exchange.responseBody
  if (!body || body.encoding !== 'utf8' || !/<a\s/i.test(body.text)) return false
  const $ = load(body.text)
  const textsByValue = new Map<string, Set<string>>()
  $('a[href]').each((_, a) => {
    const value = linkPart($(a).attr('href')!, pick, exchange.url)
    if (!value) return
    const texts = textsByValue.get(value) ?? new Set<string>()
    texts.add($(a).text().replace(/\s+/g, ' ').trim())
    textsByValue.set(value, texts)
  })
  const recorded = [...textsByValue.values()].find((texts) => texts.has(pick.text))
  return (recorded?.size ?? 0) >= PAGE_WIDE_LINKS
}

/**
 * An anchor extractor whose link text is a value the person gave (the ticket title they clicked
 * in a report): the text becomes an input the link is found by, so another title finds another
 * row's link. Null when the text is no value of the person's.
 */
function anchorByName(
  extractor: ToolSpec['steps'][number]['extract'][number],
  values: PersonValue[],
  properties: Record<string, SlotSchema>,
  required: string[],
  slotOf: Map<string, string>,
  stepId: string,
  rows?: Map<string, string>,
): { path: string; lookup: Omit<Lookup, 'stepId' | 'extractor'> } | null {
  const pick = parseAnchorPick(extractor.path)
  if (!pick || /\{\{/.test(pick.text)) return null
  // The link's own text, else a value the person gave that the link's row shows (the title
  // in a report row whose link is the ticket's short id).
  const own = values.find((v) => fold(v.value) === fold(pick.text))
  const inRow = own ? null : values.find((v) => rows?.get(pick.text)?.includes(fold(v.value)))
  const value = own ?? inRow
  if (!value) return null
  const key = `link=${fold(value.value)}`
  let slot = slotOf.get(key) ?? carrying(properties, value.value)
  if (!slot) {
    slot = nextSlot(properties)
    slotOf.set(key, slot)
    const name = 'name' in properties ? slotName('title', 'link', properties) : 'name'
    properties[name] = {
      'x-slot': slot,
      'x-in': 'answer',
      'x-path': `step.${stepId}.${extractor.name}`,
      type: 'string',
      minLength: 1,
      description:
        'The name of the record to act on, as the site lists it: its link is found by this name.',
      default: value.value,
      examples: [value.value],
    }
    if (value.strong) required.push(name)
  }
  const path = formatAnchorPick({
    ...pick,
    text: `{{input.${slot}}}`,
    ...(inRow ? { row: true } : {}),
  })
  return {
    path,
    lookup: { from: extractor.path, to: path, field: 'link text', value: value.value, slot },
  }
}

/**
 * True when other extractors of the step read the same list by position too, this record or
 * others (Node-RED's deploy posts every node back, each id from `flows[i].id`): the list is
 * copied whole, not one record referred to by its id, and looking one of them up by name would
 * put one record's id in two places.
 */
function copiesRecord(
  extractors: ToolSpec['steps'][number]['extract'],
  path: string,
  found: FoundRecord,
): boolean {
  const list = formatPath(found.parts.slice(0, found.at))
  return extractors.some((x) => {
    if (x.from !== 'json' || x.path === path) return false
    const parts = parsePath(x.path)
    const part = parts?.[found.at]
    return (
      parts !== null &&
      part !== undefined &&
      indexOf(part) !== null &&
      formatPath(parts.slice(0, found.at)) === list
    )
  })
}

/** The record an extractor reads by position, found again by a field the person named. */
interface FoundRecord {
  parts: PathPart[]
  /** Index in `parts` of the `[n]` that picks the record. */
  at: number
  field: string
  value: PersonValue
  /** The list's key (`flows`), for the slot's name and description. */
  list: string
}

/**
 * The record of `path` in the exchange's recorded answer that a person's value names: the last
 * `[n]` of the path whose list holds records, and a string field of that record equal (folded)
 * to a person's value held by no other record of the list. Null when none, or when the list
 * holds one record and the step's request is `addressed` by an input (it names what it reads).
 */
function recordByName(
  exchange: Exchange,
  path: string,
  values: PersonValue[],
  addressed = false,
): FoundRecord | null {
  const parts = parsePath(path)
  if (!parts) return null
  const json = parseJsonBody(exchange)
  if (json === undefined) return null
  const picked = valueAt(json, parts)
  for (let at = parts.length - 1; at >= 0; at--) {
    const part = parts[at]!
    const holder = valueAt(json, parts.slice(0, at))
    let record: unknown
    let list: unknown[]
    const index = indexOf(part)
    if (index !== null && Array.isArray(holder)) {
      record = holder[index]
      list = holder
    } else if (part.kind === 'key' && parts[at + 1]?.kind === 'keyOf' && isRecord(holder)) {
      // A map of records keyed by id (`torrents["8af4…"]~`): the key is the id the page sent.
      record = holder[part.key]
      list = Object.values(holder)
    } else continue
    if (!isRecord(record)) continue
    // The request asked for this record by an input (`read([{{input.p0}}])`) and got it alone:
    // its place is the input's to choose, a name would only ask again what the id already says.
    if (list.length === 1 && addressed) return null
    const found = nameField(record, list, values, picked)
    if (found) return { parts, at, ...found, list: listName(parts.slice(0, at)) }
  }
  return null
}

/** A name-like string field of `record` that a person's value names, unique in `list`. */
function nameField(
  record: Record<string, unknown>,
  list: unknown[],
  values: PersonValue[],
  picked: unknown,
): { field: string; value: PersonValue } | null {
  const fields = Object.entries(record)
    .filter(([, v]) => typeof v === 'string' && v.trim().length >= 3 && String(picked) !== v)
    .map(([k, v]) => ({ field: k, text: fold(v as string) }))
  const rank = (field: string) => {
    const i = NAME_FIELDS.indexOf(field.toLowerCase())
    return i < 0 ? NAME_FIELDS.length : i
  }
  let best: { field: string; value: PersonValue; score: number } | null = null
  for (const [order, value] of values.entries()) {
    const text = fold(value.value)
    for (const { field, text: own } of fields) {
      if (own !== text) continue
      const shared = list.some(
        (item) =>
          item !== record &&
          valuesAt(item, [{ kind: 'key', key: field }]).some(
            (v) => typeof v === 'string' && fold(v) === text,
          ),
      )
      // Two records of that name: the name does not tell them apart, the position stays.
      if (shared) continue
      // A strong value beats a name-like field; among equals the earlier value, then the field.
      const score = (value.strong ? 0 : 1000) + rank(field) * 100 + order
      if (!best || score < best.score) best = { field, value, score }
    }
  }
  return best && { field: best.field, value: best.value }
}

/**
 * A request with every query value, form field and JSON string equal to `value` (folded) in
 * place of `placeholder`; the renderer percent-encodes what it puts in the URL.
 */
function placeName(request: RequestTemplate, value: string, placeholder: string): RequestTemplate {
  const same = (text: string) => fold(text) === fold(value)
  let url = request.url
  const q = url.indexOf('?')
  if (q >= 0)
    url = `${url.slice(0, q)}?${url
      .slice(q + 1)
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=')
        if (eq < 0) return pair
        return same(decodeQuery(pair.slice(eq + 1))) ? `${pair.slice(0, eq)}=${placeholder}` : pair
      })
      .join('&')}`
  const body = request.body
  const placeJson = (v: unknown): unknown =>
    typeof v === 'string'
      ? same(v)
        ? placeholder
        : v
      : Array.isArray(v)
        ? v.map(placeJson)
        : isRecord(v)
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, placeJson(x)]))
          : v
  return {
    ...request,
    url,
    body:
      body?.kind === 'json'
        ? { kind: 'json', template: placeJson(body.template) }
        : body?.kind === 'form'
          ? {
              kind: 'form',
              template: Object.fromEntries(
                Object.entries(body.template).map(([k, v]) => [k, same(v) ? placeholder : v]),
              ),
            }
          : body,
  }
}

function decodeQuery(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    // Malformed percent-encoding (a lone `%`): the text stands as written.
    return text
  }
}

/** The slot of an input whose default or example is `value` (folded), if any. */
function carrying(properties: Record<string, SlotSchema>, value: string): string | undefined {
  const same = (v: unknown) => typeof v === 'string' && fold(v) === fold(value)
  const examples = (p: SlotSchema) => (Array.isArray(p['examples']) ? p['examples'] : [])
  return Object.values(properties).find((p) => same(p.default) || examples(p).some(same))?.[
    'x-slot'
  ]
}

/** The next free slot id after the highest `pN` in use (slot ids stay dense: docs/architecture.md "The records"). */
function nextSlot(properties: Record<string, SlotSchema>): string {
  const used = Object.values(properties).map((p) => Number(/^p(\d+)$/.exec(p['x-slot'])?.[1] ?? -1))
  return `p${Math.max(-1, ...used) + 1}`
}

function indexOf(part: PathPart): number | null {
  if (part.kind === 'index') return part.index
  if (part.kind === 'key' && /^\d+$/.test(part.key)) return Number(part.key)
  return null
}

/** The last key before the list (`flows`), or `item` for an answer that is the list. */
function listName(parts: PathPart[]): string {
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i]!
    if (part.kind === 'key' && !/^\d+$/.test(part.key)) return part.key
  }
  return 'item'
}

/** The slot's name: the field (`name`), or `<record>_<field>` (`flow_name`) when taken. */
function slotName(field: string, list: string, taken: Record<string, unknown>): string {
  const base = snake(field) || 'name'
  if (!(base in taken)) return base
  const prefixed = `${snake(singular(list))}_${base}`
  let name = prefixed
  for (let i = 2; name in taken; i++) name = `${prefixed}_${i}`
  return name
}

function lookupSlot(slot: string, found: FoundRecord, at: string): SlotSchema {
  const record = singular(found.list)
  return {
    'x-slot': slot,
    'x-in': 'answer',
    'x-path': at,
    type: 'string',
    minLength: 1,
    description: `The ${found.field} of the ${record} to act on; its id is looked up by this ${found.field}.`,
    default: found.value.value,
    examples: [found.value.value],
  }
}

function signalOf(lookup: Lookup): EvidenceSignal {
  return {
    name: 'lookup_by_name',
    weight: 0,
    detail: `${lookup.stepId}.${lookup.extractor} reads ${lookup.to}, not ${lookup.from}: the record whose ${lookup.field} is "${lookup.value}" (input ${lookup.slot})`,
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
