import { parseTitleList } from '../../shared/jsonChanges'
import { formatPath, type PathPart } from '../../shared/jsonPath'
import type { JsonChange } from '../../shared/toolSpec'

/** How to read the differences between a write's body and the record it rewrites. */
export interface DiffContext {
  /**
   * True: the reference is the very answer the client based its write on (a `GET` of the same
   * path in the trace), so every difference is the change. False: the record as a listing showed
   * it (fields may be missing, the client stamps others): only the person's values are changes.
   */
  exact: boolean
  /** True when a body template value carries an input the person gave (typed, named, quoted). */
  personal: (template: unknown) => boolean
  /**
   * The input slot (`p0`) that names a list item by this value (the tab the person picked), or
   * null: then the item is picked by its id, else by its position.
   */
  selectorSlot: (value: string) => string | null
}

/** A write's body as changes over the record it rewrites (ToolSpec `JsonChange`). */
export interface ResourceDiff {
  changes: JsonChange[]
  /** The recorded body with each change's template in its recorded place: what review shows. */
  shown: unknown
  /** How many fields the write sends as the record holds them (then read fresh). */
  kept: number
  /** Fields that differ from the record without being the person's: the record's value is sent. */
  stamped: string[]
}

type Rec = Record<string, unknown>
type Concrete = Array<string | number>

/** Keys that identify a record when nothing the person named does, most telling first. */
const ID_KEYS = /^(id|_id|uuid|guid|key|slug)$/i

/**
 * The changes that turn `reference` (a record the site serves) into `sent` (the body the person's
 * write sent), each with the value to write: the body template's own value where it carries an
 * input, a dependency or a generated value, else the recorded value. Fields equal to the
 * reference are kept (read fresh at run time). A list of records is compared item by item, a
 * changed item picked by a field the person named (`[?label=={{input.p0}}]`), else by an id
 * field (`[?id==a1b2]`), never by position unless nothing tells the items apart; a list of
 * scalars that only grew becomes `append`s, also when the site serves it as one TiddlyWiki title
 * list string (`"a [[b c]]"`). Pure.
 */
export function diffResource(
  sent: Rec,
  reference: Rec,
  template: unknown,
  context: DiffContext,
): ResourceDiff {
  const out: ResourceDiff = { changes: [], shown: structuredClone(sent), kept: 0, stamped: [] }
  diffRecord(sent, reference, template, [], [], context, out)
  return out
}

function diffRecord(
  sent: Rec,
  ref: Rec,
  template: unknown,
  at: PathPart[],
  concrete: Concrete,
  context: DiffContext,
  out: ResourceDiff,
): void {
  for (const [key, value] of Object.entries(sent)) {
    const tv = isRec(template) ? template[key] : undefined
    const path = [...at, { kind: 'key', key } as PathPart]
    const place = [...concrete, key]
    if (!(key in ref)) {
      if (context.exact || context.personal(tv)) set(path, place, valueFor(tv, value, context), out)
      else out.kept++
      continue
    }
    const was = ref[key]
    if (same(value, was)) {
      out.kept++
      continue
    }
    if (isRec(value) && isRec(was)) {
      diffRecord(value, was, tv, path, place, context, out)
      continue
    }
    if (Array.isArray(value) && (Array.isArray(was) || typeof was === 'string')) {
      if (diffList(value, was, tv, path, place, context, out)) continue
    }
    if (context.exact || context.personal(tv) || hasBoundValue(tv))
      set(path, place, valueFor(tv, value, context), out)
    else out.stamped.push(formatPath(path))
  }
  // The very read the client based its write on: what the write left out, it leaves out again
  // (a field the site serves but refuses back, a computed one).
  if (context.exact)
    for (const key of Object.keys(ref))
      if (!(key in sent))
        out.changes.push({ path: formatPath([...at, { kind: 'key', key }]), op: 'remove' })
}

/** Compares two lists; false when they are not comparable item by item (then set as a whole). */
function diffList(
  sent: unknown[],
  was: unknown[] | string,
  template: unknown,
  at: PathPart[],
  concrete: Concrete,
  context: DiffContext,
  out: ResourceDiff,
): boolean {
  const split = typeof was === 'string'
  const ref = split ? parseTitleList(was) : was
  const items = Array.isArray(template) ? template : []
  if (!split && sent.length === ref.length && sent.every(isRec) && ref.every(isRec)) {
    sent.forEach((item, i) => {
      const before = ref[i] as Rec
      if (same(item, before)) return void out.kept++
      const pick = selector(item as Rec, before, ref as Rec[], i, context)
      diffRecord(item as Rec, before, items[i], [...at, pick], [...concrete, i], context, out)
    })
    return true
  }
  if (split && same(sent, ref)) return (void out.kept++, true)
  const grew = sent.length > ref.length && ref.every((item, i) => same(item, sent[i]))
  if (!grew) return false
  out.kept += ref.length
  for (let i = ref.length; i < sent.length; i++) {
    const tv = items[i]
    if (!context.exact && !context.personal(tv)) continue
    const change: JsonChange = {
      path: formatPath(at),
      op: 'append',
      value: valueFor(tv, sent[i], context),
      ...(split ? { split: 'title_list' as const } : {}),
    }
    out.changes.push(change)
    place(out, [...concrete, i], change.value)
  }
  return true
}

/**
 * How a changed list item is found at run time: by an unchanged field that is unique in the list
 * and names what the person picked (an input), else by a unique id field (a literal), else by
 * its position.
 */
function selector(sent: Rec, ref: Rec, list: Rec[], index: number, context: DiffContext): PathPart {
  const unique = Object.keys(ref).filter((key) => {
    const v = ref[key]
    if (typeof v !== 'string' && typeof v !== 'number') return false
    if (!same(sent[key], v)) return false
    return list.filter((item) => same(item[key], v)).length === 1
  })
  for (const key of unique) {
    const slot = context.selectorSlot(String(ref[key]))
    if (slot) return { kind: 'where', field: [key], value: { placeholder: `input.${slot}` } }
  }
  const id = unique.find((key) => ID_KEYS.test(key)) ?? unique.find((key) => /id$/i.test(key))
  if (id) return { kind: 'where', field: [id], value: { literal: String(ref[id]) } }
  return { kind: 'index', index }
}

function set(path: PathPart[], concrete: Concrete, value: unknown, out: ResourceDiff): void {
  out.changes.push({ path: formatPath(path), op: 'set', value })
  place(out, concrete, value)
}

/** Writes a change's template into the shown body at its recorded place. */
function place(out: ResourceDiff, concrete: Concrete, value: unknown): void {
  let node = out.shown as Rec
  for (const key of concrete.slice(0, -1)) node = node[key as string] as Rec
  node[concrete[concrete.length - 1] as string] = value
}

/**
 * The value a change writes: the template's when it carries the person's input, a dependency's
 * value or a generated one; else the recorded value (an observed constant, not an input).
 */
function valueFor(template: unknown, recorded: unknown, context: DiffContext): unknown {
  if (template === undefined) return recorded
  return context.personal(template) || hasBoundValue(template) ? template : recorded
}

/** True when a template carries a value read at run time: a step, login or generated value. */
function hasBoundValue(template: unknown): boolean {
  return /\{\{\s*(step\.|login\.|gen\.|secret:)/.test(JSON.stringify(template ?? null))
}

/** Equal as JSON, a number and its text counting as one (`"0"` and `0`: sites echo either). */
export function same(a: unknown, b: unknown): boolean {
  if (a === b) return true
  const scalar = (v: unknown) => typeof v === 'string' || typeof v === 'number'
  if (scalar(a) && scalar(b)) return String(a) === String(b)
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, i) => same(item, b[i]))
  if (isRec(a) && isRec(b)) {
    const keys = Object.keys(a)
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && same(a[k], b[k]))
  }
  return false
}

function isRec(value: unknown): value is Rec {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
