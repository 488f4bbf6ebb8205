/**
 * Ids picked by click (architecture.md "What recorded traffic asks", 3): an id the person picked by clicking a row, sent by the write as a value too
 * short or too plain to trace by itself (NZBGet's `NZBID` 9, a task's `id` 5). Read from the
 * other end: a value the person gave (typed, quoted, clicked, named in the intent) names one record
 * of a list an earlier answer held; when an id field of that record holds a value the target
 * sends as a constant, the tool reads that list first, finds the record by the person's value
 * (an input) and sends its id. Pure: the tool and its trace in, the tool out.
 */
import { fold, formatPath, wherePart, type PathPart } from '../../shared/jsonPath'
import type { EvidenceSignal, SlotSchema, ToolSpec, ToolStep } from '../../shared/toolSpec'
import type { Exchange, Trace } from '../../shared/trace'
import { stepsAfterBindings } from './bindings'
import { isOperationValue } from './operation'
import { parseJsonBody, parseXmlBody } from './classify'
import { httpUrl } from '../../shared/urls'
import { snake } from './naming'
import { personValues, type PersonValue } from './personValues'
import { decodePart, queryParts, seqOf, stepFor, withQueryValues } from './stepTemplate'
import { isLongPoll } from './valueSources'
import { findRow } from './pickedRows'
import { findCallRecord } from './scriptRows'
import { everyGroup } from './groupedLists'
import { formatAnchorPick, type AnchorPick } from '../../shared/anchorPick'
import { singular } from './valueSpelling'
import { NAME_FIELDS } from './lookupByName'

/** Fields that hold a record's id (`id`, `NZBID`, `uuid`, `nodeId`, `folder_id`). */
const ID_FIELD = /^(id|_id|uuid|guid|key|slug)$|(id|Id|ID|_key|Key|uuid)$/

/**
 * How plainly a field names the record's own id: `id` first, then `<thing>ID`, last an id of a
 * range or a relative (`FirstID`, `parentId`), which may equal it by chance.
 */
function idRank(field: string): number {
  if (/^(_?id|uuid|guid)$/i.test(field)) return 0
  return /^(first|last|min|max|parent|prev|next|old|new|root)/i.test(field) ? 2 : 1
}

/** Where `field` stands among the fields that name a record (`NAME_FIELDS`), after them if none. */
function nameRank(field: string): number {
  const at = NAME_FIELDS.indexOf(field.toLowerCase())
  return at < 0 ? NAME_FIELDS.length : at
}

/** `FoundRecord.idField` of a record in a map keyed by id: the key is the id (path `~`). */
const MAP_KEY = '~'

/** How deep in an answer lists of records are looked for. */
const MAX_DEPTH = 4

/** A constant the target sends: where, and its value. */
interface Literal {
  /**
   * JSON body path, `url` for a path segment (its index), `query` for a query parameter,
   * `form` for a form field (its name) or `text` for an input's placeholder in a text body.
   */
  where: 'json' | 'url' | 'query' | 'form' | 'text'
  path: Array<string | number>
  value: string | number
  /** The optional input that carries the value today (its recorded default), when one does. */
  input?: string
}

/**
 * The tool with each literal id of its target that a person's value picks in an earlier list
 * replaced by a lookup (see the module comment); unchanged when none does.
 */
export function lookupPickedRecords(tool: ToolSpec, trace: Trace, intent = tool.intent): ToolSpec {
  const target = tool.steps.at(-1)
  const exchange = trace.exchanges.find((e) => e.id === target?.exchangeId)
  if (!target || !exchange) return tool
  const people = personValues(trace, intent)
  if (!people.length) return tool
  const literals = literalsOf(target, tool.inputs)
  if (!literals.length) return tool
  const earlier = earlierAnswers(exchange, trace)
  const properties = { ...tool.inputs.properties }
  const required = [...(tool.inputs.required ?? [])]
  const steps = [...tool.steps]
  const signals: EvidenceSignal[] = []
  // Inputs the lookup replaces: a step that borrowed one (its value was the same) sends it as
  // recorded again.
  const removed = new Map<string, { name: string; default: unknown }>()
  let request = target.request
  for (const literal of literals) {
    const found =
      findRecord(literal, earlier, people, intent) ??
      rowRecord(literal, earlier, people) ??
      callRecord(literal, earlier, people)
    if (!found) continue
    let slot = Object.values(properties).find(
      (p) => typeof p.default === 'string' && fold(p.default) === fold(found.person.value),
    )?.['x-slot']
    const step = stepFor(steps, found.exchange)
    if (!slot) {
      slot = nextSlot(properties)
      const name = uniqueName(snake(found.field) || 'name', properties)
      properties[name] = lookupInput(slot, found, step.id)
      if (found.person.strong) required.push(name)
    }
    const idName = found.idName ?? found.idField
    const extractor = extractorName(
      step,
      found.pick
        ? snake(idName) || 'id'
        : `${singular(snake(found.list) || 'item')}_${snake(idName)}`,
    )
    const path = found.pick
      ? formatAnchorPick({ ...found.pick, text: `{{input.${slot}}}` })
      : pickedRecordPath(found, slot)
    step.extract = [...step.extract, { name: extractor, from: found.source, path }]
    searchesFor(step, found.person.value, slot)
    const placeholder =
      typeof literal.value === 'number'
        ? `{{num:step.${step.id}.${extractor}}}`
        : `{{step.${step.id}.${extractor}}}`
    request = replaceLiteral(request, literal, placeholder)
    if (literal.input) {
      const was = properties[literal.input]!
      removed.set(was['x-slot'], { name: literal.input, default: was.default })
      delete properties[literal.input]
      const at = required.indexOf(literal.input)
      if (at >= 0) required.splice(at, 1)
    }
    signals.push({
      name: 'lookup_picked_record',
      weight: 0,
      detail: `${literal.value} is the ${idName} of the ${singular(found.list)} whose ${found.field} is "${found.person.value}" in ${found.exchange.method} ${httpUrl(found.exchange.url)?.pathname}: looked up by that ${found.field} (input ${slot})`,
    })
  }
  if (!signals.length) return tool
  const inputs = { ...tool.inputs, properties, required }
  const ordered = stepsAfterBindings(
    steps.slice(0, -1).sort((a, b) => seqOf(trace, a) - seqOf(trace, b)),
    removed,
    inputs,
  )
  return {
    ...tool,
    inputs,
    steps: [...ordered, { ...target, request }],
    evidence: { ...tool.evidence, signals: [...tool.evidence.signals, ...signals] },
  }
}

/**
 * Constants of a request template that may be ids: JSON body leaves and URL path segments, and
 * JSON leaves an optional input without the person's value carries (its default is what was
 * recorded: an id sent as seen).
 */
function literalsOf(step: ToolStep, inputs: ToolSpec['inputs']): Literal[] {
  const out: Literal[] = []
  const body = step.request.body
  const bySlot = new Map(
    Object.entries(inputs.properties).map(([name, p]) => [`{{input.${p['x-slot']}}}`, name]),
  )
  const required = new Set(inputs.required ?? [])
  // A body that is a list, or says a value more than once, carries a whole resource (an export,
  // a saved flow): its ids are the resource's own, not a record the person picked.
  const whole = body?.kind === 'json' && Array.isArray(body.template)
  if (body?.kind === 'json' && !body.base && !whole) {
    const walk = (node: unknown, path: Array<string | number>) => {
      const input = typeof node === 'string' ? bySlot.get(node) : undefined
      const recorded = input === undefined ? undefined : inputs.properties[input]!.default
      if (input !== undefined && !required.has(input) && isIdValue(recorded))
        out.push({ where: 'json', path, value: recorded, input })
      else if (typeof node === 'number' && Number.isInteger(node))
        out.push({ where: 'json', path, value: node })
      else if (
        typeof node === 'string' &&
        !node.includes('{{') &&
        /\d/.test(node) &&
        node.length <= 64
      )
        out.push({ where: 'json', path, value: node })
      else if (Array.isArray(node)) node.forEach((item, i) => walk(item, [...path, i]))
      else if (node !== null && typeof node === 'object')
        for (const [k, v] of Object.entries(node)) walk(v, [...path, k])
    }
    walk(body.template, [])
  }
  const said = new Map<string, number>()
  for (const l of out) said.set(String(l.value), (said.get(String(l.value)) ?? 0) + 1)
  urlParts(step.request.url)
    ?.segments.filter(Boolean)
    .forEach((segment, i) => {
      if (!segment.includes('{{') && /\d/.test(segment))
        out.push({ where: 'url', path: [i], value: decodeURIComponent(segment) })
    })
  // A query parameter holding an id (`object_id=128`), as sent or as an optional input's default.
  for (const { name, decoded: value } of queryParts(step.request.url)) {
    const input = bySlot.get(value)
    const recorded = input === undefined ? undefined : inputs.properties[input]!.default
    if (input !== undefined && !required.has(input) && isIdValue(recorded))
      out.push({ where: 'query', path: [name], value: recorded, input })
    else if (!value.includes('{{') && isIdValue(value))
      out.push({ where: 'query', path: [name], value })
  }
  // A field of a text body (a multipart form's `check[]`) an optional input carries an id in.
  if (body?.kind === 'text')
    for (const [placeholder, input] of bySlot) {
      const recorded = inputs.properties[input]!.default
      if (body.template.includes(placeholder) && !required.has(input) && isIdValue(recorded))
        out.push({ where: 'text', path: [placeholder], value: recorded, input })
    }
  // A form field holding an id (`com_id=3`), as sent or as an optional input's default.
  if (body?.kind === 'form')
    for (const [name, value] of Object.entries(body.template)) {
      const input = bySlot.get(value)
      const recorded = input === undefined ? undefined : inputs.properties[input]!.default
      if (input !== undefined && !required.has(input) && isIdValue(recorded))
        out.push({ where: 'form', path: [name], value: recorded, input })
      else if (!value.includes('{{') && isIdValue(value))
        out.push({ where: 'form', path: [name], value })
    }
  return out.filter((l) => l.where !== 'json' || said.get(String(l.value)) === 1)
}

/** {@link findRow}'s row as a found record: the link's part is the id, the row's text the name. */
function rowRecord(
  literal: Literal,
  earlier: Exchange[],
  people: PersonValue[],
): FoundRecord | null {
  const row = findRow(String(literal.value), earlier, people)
  if (!row) return null
  return {
    exchange: row.exchange,
    source: 'anchor',
    listPath: [],
    list: 'row',
    field: row.column?.toLowerCase() ?? 'text',
    idField: row.part,
    person: row.person,
    pick: row.pick,
  }
}

/** {@link findCallRecord}'s row as a found record: JSON read through `@calls`, its id by place. */
function callRecord(
  literal: Literal,
  earlier: Exchange[],
  people: PersonValue[],
): FoundRecord | null {
  const row = findCallRecord(literal.value, earlier, people)
  return row ? { ...row, source: 'json', idName: 'id' } : null
}

export function isIdValue(value: unknown): value is string | number {
  return (
    (typeof value === 'number' && Number.isInteger(value)) ||
    (typeof value === 'string' && /\d/.test(value) && !/\s/.test(value) && value.length <= 64)
  )
}

/** A URL template cut into its origin, its path's segments and the rest (placeholders kept). */
function urlParts(url: string): { origin: string; segments: string[]; rest: string } | null {
  const m = /^(https?:\/\/[^/?#]+)([^?#]*)(.*)$/.exec(url)
  return m ? { origin: m[1]!, segments: m[2]!.split('/'), rest: m[3]! } : null
}

/** A record a person's value names, whose id field holds the literal. */
export interface FoundRecord {
  exchange: Exchange
  /**
   * How the answer is read: JSON, an XML answer's JSON view (src/shared/xmlTree.ts), or an HTML
   * page's link found by its row (`pick`, see pickedRows.ts).
   */
  source: 'json' | 'xml' | 'anchor'
  /** For `anchor`: the link part that carries the id, its row found by the person's value. */
  pick?: AnchorPick
  listPath: PathPart[]
  list: string
  field: string
  /** Where the field sits in a record when deeper than one key (`["1", "subject"]`). */
  fieldPath?: string[]
  /** The record's field that holds the id, or `~` for the key of a map of records. */
  idField: string
  /** What to call the id when its field is no name (a call's argument `0`). */
  idName?: string
  person: PersonValue
}

/**
 * The latest earlier list (an array of records in a JSON answer) with exactly one record whose
 * string field equals a person's value (strong values first) and whose id field equals the
 * literal, or null.
 */
function findRecord(
  literal: Literal,
  earlier: Exchange[],
  people: PersonValue[],
  intent: string,
): FoundRecord | null {
  const ordered = [...people.filter((p) => p.strong), ...people.filter((p) => !p.strong)]
  for (const exchange of earlier) {
    const json = parseJsonBody(exchange)
    const xml = json === undefined ? parseXmlBody(exchange) : undefined
    if (json === undefined && xml === undefined) continue
    const source = json === undefined ? 'xml' : 'json'
    for (const { path, list, keys } of listsOf(json ?? xml, [], 0)) {
      for (const person of [...ordered, ...namedInIntent(list, intent)]) {
        const wanted = fold(person.value)
        const matches = list.filter((r) =>
          Object.values(r).some((v) => typeof v === 'string' && fold(v) === wanted),
        )
        if (matches.length !== 1) continue
        const record = matches[0]!
        // The field that names the record when several hold the value (a title and its sort key).
        const field = Object.keys(record)
          .filter((k) => typeof record[k] === 'string' && fold(record[k] as string) === wanted)
          .sort((a, b) => nameRank(a) - nameRank(b))[0]!
        // In a map of records, the key the record sits under is its id.
        const underKey = keys?.[list.indexOf(record)] === String(literal.value)
        const idField = underKey
          ? MAP_KEY
          : Object.keys(record)
              .filter((k) => ID_FIELD.test(k) && String(record[k]) === String(literal.value))
              .sort((a, b) => idRank(a) - idRank(b))[0]
        if (!idField || field === idField) continue
        const key = [...path].reverse().find((p) => p.kind === 'key') as
          { kind: 'key'; key: string } | undefined
        return {
          exchange,
          source,
          listPath: path,
          list: key?.key ?? 'item',
          field,
          idField,
          ...(underKey ? { idName: 'id' } : {}),
          person,
        }
      }
    }
  }
  return null
}

type Rec = Record<string, unknown>

/**
 * The record of an earlier list answer (latest first, same host as `before`) that a person's value
 * names and whose id field holds `id`, or null: `findRecord` for callers outside this module.
 */
export function findPickedRecord(
  id: string | number,
  before: Exchange,
  trace: Trace,
  intent: string,
): FoundRecord | null {
  const earlier = earlierAnswers(before, trace)
  return findRecord(
    { where: 'json', path: [], value: id },
    earlier,
    personValues(trace, intent),
    intent,
  )
}

/** The successful answers of the same host before `exchange`, latest first (no event feeds). */
function earlierAnswers(exchange: Exchange, trace: Trace): Exchange[] {
  const host = httpUrl(exchange.url)?.host
  return trace.exchanges
    .filter(
      (e) =>
        e.seq < exchange.seq &&
        e.status >= 200 &&
        e.status < 300 &&
        httpUrl(e.url)?.host === host &&
        !isLongPoll(e),
    )
    .reverse()
}

/** The extractor path that finds a record by its named field (`[?title=={{input.p0}}].id`). */
export function pickedRecordPath(found: FoundRecord, slot: string): string {
  const answer =
    found.source === 'json'
      ? parseJsonBody(found.exchange)
      : found.source === 'xml'
        ? parseXmlBody(found.exchange)
        : undefined
  const field = (found.fieldPath ?? [found.field]).join('.')
  return formatPath([
    ...everyGroup(answer, found.listPath, field, found.person.value),
    wherePart(found.fieldPath ?? [found.field], `input.${slot}`),
    found.idField === MAP_KEY ? { kind: 'keyOf' } : { kind: 'key', key: found.idField },
  ])
}

/**
 * The string fields of a list's records that the intent says whole (a name of any length:
 * "pause the download Big Buck Bunny 2008 1080p BluRay x264"), longest first.
 */
function namedInIntent(list: Rec[], intent: string): PersonValue[] {
  const said = ` ${fold(intent).replace(/[^\p{L}\p{N}]+/gu, ' ')} `
  const found = new Set<string>()
  for (const record of list)
    for (const v of Object.values(record)) {
      if (typeof v !== 'string' || v.trim().length < 4) continue
      const words = fold(v)
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim()
      if (words && said.includes(` ${words} `)) found.add(v)
    }
  return [...found]
    .sort((a, b) => b.length - a.length)
    .map((value) => ({ value, strong: false, source: 'intent' }))
}

/** Keys that look like ids a site hands out (`8`, `a1b2c3`, a UUID): a map of records by id. */
const ID_KEY = /^(?=.*\d)[A-Za-z0-9_-]{1,64}$/

/**
 * Every array of records in a JSON value, with its path, up to `MAX_DEPTH` keys down (lists in a
 * list's records too, outer lists first); and every map of records keyed by their ids
 * (calibre's `metadata: {"8": {"title": …}}`: two or more entries, every key an id, every value
 * a record), its keys beside its records.
 */
function listsOf(
  node: unknown,
  path: PathPart[],
  depth: number,
): Array<{ path: PathPart[]; list: Rec[]; keys?: string[] }> {
  if (depth > MAX_DEPTH || node === null || typeof node !== 'object') return []
  if (Array.isArray(node)) {
    const records = node.filter(isRec)
    if (records.length < 1 || records.length !== node.length) return []
    // Records may hold lists of their own (an XML answer's `items[0].item`); a position is no level.
    return [
      { path, list: records },
      ...records.flatMap((record, i) =>
        listsOf(record, [...path, { kind: 'index', index: i }], depth),
      ),
    ]
  }
  const entries = Object.entries(node)
  if (entries.length >= 2 && entries.every(([k, v]) => ID_KEY.test(k) && isRec(v)))
    return [{ path, list: entries.map(([, v]) => v as Rec), keys: entries.map(([k]) => k) }]
  return entries.flatMap(([key, child]) =>
    listsOf(child, [...path, { kind: 'key', key }], depth + 1),
  )
}

/** True for a JSON object that is no list (a record). */
function isRec(value: unknown): value is Rec {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** Shortest text a list read may have searched for (one letter finds too much to be typed). */
const MIN_SEARCH = 2

/**
 * Makes a list read that searched for what the person started typing (Zabbix's group picker
 * sends `search=Web` on the way to "Web servers") search for the caller's value instead: the
 * recorded search finds no other record. A query value is such a search when it begins the
 * person's value, case aside, is shorter than it, and is no operation field. Changes `step` in
 * place.
 */
function searchesFor(step: ToolStep, person: string, slot: string): void {
  const whole = fold(person)
  step.request = {
    ...step.request,
    url: withQueryValues(step.request.url, (name, value) => {
      const decoded = decodePart(value)
      const typed = fold(decoded)
      if (value.includes('{{') || typed.length < MIN_SEARCH || typed.length >= whole.length)
        return undefined
      // What the request does (`_task=mail`) is no search, whatever the value's words.
      if (isOperationValue({ location: 'query', path: name, key: name, value: decoded }))
        return undefined
      return whole.startsWith(typed) && /\p{L}/u.test(typed) ? `{{input.${slot}}}` : undefined
    }),
  }
}

/** `base`, or `base_2`, `base_3`… when the step already extracts a value by that name. */
export function extractorName(step: ToolStep, base: string): string {
  let name = base
  for (let i = 2; step.extract.some((x) => x.name === name); i++) name = `${base}_${i}`
  return name
}

function lookupInput(slot: string, found: FoundRecord, stepId: string): SlotSchema {
  return {
    'x-slot': slot,
    'x-in': 'answer',
    'x-path': `step.${stepId}`,
    type: 'string',
    minLength: 1,
    description: `The ${found.field} of the ${singular(found.list)} to act on; its ${found.idName ?? found.idField} is looked up by it.`,
    default: found.person.value,
    examples: [found.person.value],
  }
}

function uniqueName(base: string, taken: Record<string, unknown>): string {
  let name = base
  for (let i = 2; name in taken; i++) name = `${base}_${i}`
  return name
}

function nextSlot(properties: Record<string, SlotSchema>): string {
  const used = Object.values(properties).map((p) => Number(/^p(\d+)$/.exec(p['x-slot'])?.[1] ?? -1))
  return `p${Math.max(-1, ...used) + 1}`
}

/** The request with the literal at its place replaced by `placeholder`. */
function replaceLiteral(
  request: ToolStep['request'],
  literal: Literal,
  placeholder: string,
): ToolStep['request'] {
  if (literal.where === 'query')
    return {
      ...request,
      url: withQueryValues(request.url, (name) =>
        name === literal.path[0] ? placeholder : undefined,
      ),
    }
  if (literal.where === 'url') {
    const parts = urlParts(request.url)
    if (!parts) return request
    const nonEmpty = parts.segments.map((seg, i) => (seg ? i : -1)).filter((i) => i >= 0)
    const at = nonEmpty[literal.path[0] as number]
    if (at === undefined) return request
    parts.segments[at] = placeholder
    return { ...request, url: `${parts.origin}${parts.segments.join('/')}${parts.rest}` }
  }
  const body = request.body
  if (literal.where === 'text' && body?.kind === 'text')
    return {
      ...request,
      body: {
        kind: 'text',
        template: body.template.split(String(literal.path[0])).join(placeholder),
      },
    }
  if (literal.where === 'form' && body?.kind === 'form')
    return {
      ...request,
      body: { ...body, template: { ...body.template, [literal.path[0]!]: placeholder } },
    }
  if (body?.kind !== 'json') return request
  const template = structuredClone(body.template) as unknown
  let node = template as Record<string | number, unknown>
  for (const key of literal.path.slice(0, -1)) node = node[key] as Record<string | number, unknown>
  node[literal.path.at(-1)!] = placeholder
  return { ...request, body: { ...body, template } }
}
