import { parseTitleList } from '../../shared/jsonChanges'
import { formatPath, type PathPart } from '../../shared/jsonPath'
import type { JsonChange } from '../../shared/toolSpec'
import { SECRET_PLACEHOLDER } from '../../shared/trace'

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
   * The input slot (`p0`) that names a list item by this value (the tab the person picked) held
   * in `field`, or null: then the item is picked by its id, else by its position.
   */
  selectorSlot: (value: string, field?: string) => string | null
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
    // A framework's own bookkeeping (AngularJS `$$hashKey`, a view's `_listenAddressesStr`) is
    // the client's, not the record's: a field the site never served, named as private.
    if (/^[$_]/.test(key) && !(key in ref)) continue
    const tv = isRec(template) ? template[key] : undefined
    const path = [...at, { kind: 'key', key } as PathPart]
    const place = [...concrete, key]
    if (!(key in ref)) {
      if (context.exact || context.personal(tv)) set(path, place, valueFor(tv, value, context), out)
      else out.kept++
      continue
    }
    const was = ref[key]
    // What the recorder sealed (a password field) was the record's own value: it stays as read,
    // never the seal's placeholder.
    if (same(value, was) || (typeof value === 'string' && value.includes(SECRET_PLACEHOLDER))) {
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
  // Records are paired by a key that identifies each one on both sides (a client may send the
  // list in another order than the site served it: Syncthing sorts folders by label), else by
  // position when nothing tells them apart.
  const pairs =
    !split && sent.every(isRec) && ref.every(isRec)
      ? (pairByKey(sent as Rec[], ref as Rec[]) ??
        (sent.length === ref.length ? sent.map((_, i) => i) : null))
      : null
  if (pairs) {
    const gone = new Set(ref.map((_, i) => i))
    sent.forEach((item, i) => {
      const j = pairs[i]!
      if (j < 0) return void added(item, items[i], at, [...concrete, i], context, out)
      gone.delete(j)
      const before = ref[j] as Rec
      if (same(item, before)) return void out.kept++
      const pick = selector(item as Rec, before, ref as Rec[], j, context)
      diffRecord(item as Rec, before, items[i], [...at, pick], [...concrete, i], context, out)
    })
    // A record the write left out of the list is removed by it, found by its identifying key.
    for (const j of gone) {
      if (!context.exact) continue
      const record = ref[j] as Rec
      const pick = selector(record, record, ref as Rec[], j, context)
      if (pick.kind === 'index') continue
      out.changes.push({ path: formatPath([...at, pick]), op: 'remove' })
    }
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
 * The key (`id`, `deviceID`…) every record on both sides holds as a unique text or number, or
 * null: what pairs the records of two versions of a list.
 */
function idKeyOf(sent: Rec[], ref: Rec[]): string | null {
  const candidates = Object.keys(ref[0] ?? sent[0] ?? {}).filter(
    (k) => ID_KEYS.test(k) || /(^|[a-z_])(id|ID|Id)$/.test(k),
  )
  for (const key of candidates) {
    const ok = (list: Rec[]) => {
      const values = list.map((r) => r[key])
      return (
        values.every((v) => typeof v === 'string' || typeof v === 'number') &&
        new Set(values.map(String)).size === values.length
      )
    }
    if (ok(sent) && ok(ref)) return key
  }
  return null
}

/** For each sent record, the index of the served record with the same id (-1: new); null when
 *  no key identifies them or the lists share no record. */
function pairByKey(sent: Rec[], ref: Rec[]): number[] | null {
  const key = idKeyOf(sent, ref)
  if (!key) return null
  const at = new Map(ref.map((r, j) => [String(r[key]), j]))
  const pairs = sent.map((r) => at.get(String(r[key])) ?? -1)
  return pairs.some((j) => j >= 0) ? pairs : null
}

/** A record the write added to a list: appended when it is the person's, else kept out. */
function added(
  item: unknown,
  template: unknown,
  at: PathPart[],
  concrete: Concrete,
  context: DiffContext,
  out: ResourceDiff,
): void {
  if (!context.exact && !context.personal(template)) return
  const value = valueFor(template, item, context)
  out.changes.push({ path: formatPath(at), op: 'append', value })
  place(out, concrete, value)
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
    const slot = context.selectorSlot(String(ref[key]), key)
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
