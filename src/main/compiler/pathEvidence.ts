/**
 * Which segment of a request's path is a value: one the person picked (a folder they clicked) or
 * one the intent names ("the details of the tidy-csv package"), and what the slot is called.
 */
import type { Action, Exchange } from '../../shared/trace'
import { STOP_WORDS } from './intentWords'
import { linkFollows } from './linkFollows'
import { intentVerbClass } from './intentVerb'
import {
  formatSuffix,
  hasSiblings,
  normalValue,
  pickedNames,
  segmentCarrying,
  tracePaths,
} from './pathValues'
import { pathSegments } from './requestValues'
import type { PageContext } from './shownProbes'
import type { PathSlot } from './slots'
import { CONTAINER_NOUNS, NAME_INTRODUCERS, presentedAsValue } from './valueCues'
import { singular, wordsOf } from './valueSpelling'

/** What the trace says about paths: every requested path, and what the person clicked. */
export interface PathContext {
  paths: string[][]
  /** `inferred`: read back from the pages of a trace with no recorded clicks ({@link linkFollows}). */
  picked: Array<{ value: string; at: number; pageUrl: string; inferred?: boolean }>
  actions: Action[]
  /** Every exchange of the trace, in order. */
  exchanges: Exchange[]
}

/** The path facts of a trace (empty when there is no page context); picks as {@link linkFollows} reads them when no click was recorded. */
export function pathContext(context: PageContext | undefined): PathContext {
  const actions = context?.actions ?? []
  // Without recorded clicks (a plain HAR), the links the pages show tell what was followed.
  const clicked = actions.some((a) => a.kind === 'click')
  return {
    paths: tracePaths(context?.exchanges ?? []),
    picked: clicked
      ? pickedNames(actions)
      : linkFollows(context?.exchanges ?? []).map((f) => ({ ...f, inferred: true })),
    actions: context?.actions ?? [],
    exchanges: context?.exchanges ?? [],
  }
}

/**
 * A path segment that names an item the person picked before the request (a folder link, a
 * page in a list), where the path varies across the trace: the picked item becomes a path slot.
 * With `namedIn` (an intent), the picked item must be one the intent names. A part of a picked
 * name (see {@link nameParts}) counts only when `intent` names it.
 */
export function pickedInPath(
  segments: string[],
  where: PathContext,
  namedIn: string | null,
  intent: string,
): { slot: PathSlot; value: string } | null {
  const intentText = namedIn === null ? null : ` ${wordsOf(namedIn).join(' ')} `
  const spoken = ` ${wordsOf(intent).join(' ')} `
  const says = (text: string, value: string) => text.includes(` ${wordsOf(value).join(' ')} `)
  for (const p of where.picked) {
    const index = segmentCarrying(segments, p.value)
    if (index < 0 || !hasSiblings(segments, index, where.paths)) continue
    if (intentText !== null && !says(intentText, p.value)) continue
    // A followed link only guessed from the pages is as likely a menu's ("Users", "Alerts"),
    // whose name is the route: only a part of a longer name (below) counts from it.
    if (p.inferred) continue
    // A tab or menu item names its route in another case (`Members` for `/members/`), where a
    // record's key shows as it is sent (`sales`, `Projects`): such a pick is a value only when the
    // intent presents it as one (failure kind 3, Postorius).
    const segment = segments[index]!
    if (/^[a-z]+$/i.test(segment) && p.value.trim() !== segment && !presentedIn(intent, p.value))
      continue
    return { value: p.value, slot: pickedSlot(segments, index, p.value) }
  }
  // A link named by more than its key (`mallory@chat.example.test` for `/user/mallory/`, "Alice
  // Martin (alice)" for `/people/alice`): the part the path carries is the value, when the intent
  // names that part too, so a host or a display word the path shares is not taken for it.
  // The click must have led to it: the page the link was on does not carry the part, and a verb
  // part ("Edit" of "Edit alice") names the route, not the record.
  for (const p of where.picked) {
    const from = pathSegments(p.pageUrl).map(normalValue)
    for (const part of nameParts(p.value)) {
      const index = segmentCarrying(segments, part)
      if (index < 0 || from.includes(normalValue(part)) || !says(spoken, part)) continue
      if (STOP_WORDS.has(part.toLowerCase()) || intentVerbClass(part) !== null) continue
      return { value: part, slot: pickedSlot(segments, index, p.value) }
    }
  }
  // A key made of the picked name and more (`announce.lists.example.org` for "Announce",
  // `42-summer-fair` for "Summer fair"): the whole segment is the value, when the intent names
  // the picked name and the page the link was on does not carry the segment already.
  for (const p of where.picked) {
    if (!says(spoken, p.value) || STOP_WORDS.has(p.value.toLowerCase())) continue
    if (intentVerbClass(p.value) !== null) continue
    // A kind ("New → Folder" making `Untitled Folder`) is no name: the name is shaped like a
    // value (a digit, `.`, `_` or `-`) or presented as one.
    if (!/[\d._-]/.test(p.value) && !presentedIn(intent, p.value)) continue
    const from = pathSegments(p.pageUrl).map(normalValue)
    const index = segments.findIndex((s) => keyOfName(s, p.value))
    if (index < 0 || from.includes(normalValue(segments[index]!))) continue
    if (!hasSiblings(segments, index, where.paths)) continue
    return { value: segments[index]!, slot: pickedSlot(segments, index, p.value) }
  }
  return null
}

/**
 * True when path segment `segment` is the key of a record named `name` plus more: the name
 * spelled whole at the segment's start or end, joined to the rest by `.`, `@`, `-` or `_`
 * (`announce.lists.example.org` and "Announce", `42-summer-fair` and "Summer fair"). A name of
 * fewer than three letters is found in too many keys to count.
 */
function keyOfName(segment: string, name: string): boolean {
  const want = normalValue(name)
  if (want.replace(/[^a-z0-9]/g, '').length < 3) return false
  const key = normalValue(segment)
  if (key === want) return false
  return (
    key.startsWith(`${want}.`) ||
    key.startsWith(`${want}@`) ||
    key.startsWith(`${want} `) ||
    key.endsWith(` ${want}`)
  )
}

/** True when the intent presents `value` as a value (quoted, capitalised, introduced). */
function presentedIn(intent: string, value: string): boolean {
  const { raw, tokens } = intentTokens(intent)
  const found = phraseAt(tokens, value)
  return !!found && presentedAsValue(raw, tokens, found.start, found.end, NAME_INTRODUCERS)
}

/** The intent's words as written (`raw`) and lower-cased without quotes (`tokens`). */
function intentTokens(intent: string): { raw: string[]; tokens: string[] } {
  const raw = intent.split(/[\s,;:!?()]+/).filter(Boolean)
  const tokens = raw.map((t) => t.toLowerCase().replace(/^["'“”‘’#]+|["'“”‘’]+$/g, ''))
  return { raw, tokens }
}

function pickedSlot(segments: string[], index: number, name: string): PathSlot {
  return {
    index,
    name: pathSlotName(segments, index, null),
    description: `The item the person picked ("${name}", path segment ${index})`,
    picked: true,
  }
}

/**
 * The parts a link's name is made of where it joins a key to more: an address's local part and
 * domain (`user@host`), a name and its key in brackets or after a separator. Words a space
 * separates are left whole ("Server Status" names a page, not a record). The whole name is not
 * one of them.
 */
function nameParts(name: string): string[] {
  const parts = name
    .split(/\s*[@()[\]<>|,;:/]+\s*/)
    .map((p) => p.trim())
    .filter((p) => p.length >= 2)
  return parts.length > 1 ? parts : []
}

/**
 * A path segment the intent names as a value ("the details of the tidy-csv package" and
 * `/sidebar/tidy-csv`): only value-like segments (with a digit, `-`, `_` or `.`) count, so path
 * words such as `search` never become slots. The slot is named by the noun after the value in
 * the intent, else the one before it, else the preceding path segment.
 */
export function intentValueInPath(
  segments: string[],
  intent: string,
  paths: string[][],
): { slot: PathSlot } | null {
  if (!intent) return null
  const { raw, tokens } = intentTokens(intent)
  for (let index = 0; index < segments.length; index++) {
    const whole = segments[index]!.toLowerCase()
    // A file's name is said with its extension ("notes.txt"); else the value before a format
    // extension is the record's name (`old-rota.json` for "the Old Rota page").
    const extension = formatSuffix(whole)
    const said = phraseAt(tokens, whole)
    const stem = whole.slice(0, whole.length - extension.length)
    const segment = said || stem.length < 3 ? whole : stem
    const suffix = whole.slice(segment.length)
    // Short words are route words; short numbers are ids ("issue #3").
    if (segment.length < 3 && !/^\d+$/.test(segment)) continue
    const found = said ?? phraseAt(tokens, segment)
    if (!found) continue
    const at = found.start
    const after = found.end
    // A route of several words the intent says as words ("a shared roster group" for
    // `shared-roster`) names a kind of page, not a value, unless quoted, capitalised or
    // introduced; so do the words before a kind the intent then names ("… group called support").
    if (
      after > at &&
      !/\d/.test(segment) &&
      (!presentedAsValue(raw, tokens, at, after, NAME_INTRODUCERS) || namedAfter(tokens, after))
    )
      continue
    // A plain word is a value only where the path varies across the trace and the intent
    // names it as one: quoted, capitalised, or before a container noun ("the invoices folder");
    // else it is a route word such as `search` or `jobs`. A word marked as the site's own
    // (`_search`, `_upload`: Gitit, CouchDB, Elasticsearch) is a route word too.
    if (!/[\d._-]/.test(reservedWord(segment) ?? segment)) {
      // A word that names a kind of thing (`packages`, `pages`) is the collection's route word
      // even after "for" ("search the registry for packages by name"); it is a value only when
      // quoted, capitalised or before such a noun ("the Projects folder").
      const kind = at === after && CONTAINER_NOUNS.has(singular(segment))
      const asValue = presentedAsValue(raw, tokens, at, after, kind ? NO_WORDS : NAME_INTRODUCERS)
      // After a search word the path holds the term (`/search/<term>`): no siblings needed.
      const afterSearch = /^(search|find|query|q|lookup|suggest)$/i.test(segments[index - 1] ?? '')
      if (!asValue || (!afterSearch && !hasSiblings(segments, index, paths))) continue
    }
    const noun = [tokens[after + 1], tokens[at - 1]].find(
      (w) => w && /^[a-z]{3,}$/.test(w) && !STOP_WORDS.has(w),
    )
    return {
      slot: {
        index,
        name: noun ? singular(noun) : pathSlotName(segments, index, null),
        description: `The part of the address that names the ${noun ?? 'item'} (path segment ${index}, observed "${segments[index]}")`,
        ...(suffix ? { suffix: segments[index]!.slice(-suffix.length) } : {}),
      },
    }
  }
  return null
}

const NO_WORDS: ReadonlySet<string> = new Set()

/**
 * The word of a path segment that marks itself as the site's own route by a leading underscore
 * (`_search`, `_edit`, `_all_docs`: Gitit, CouchDB, Elasticsearch name their system endpoints
 * so, apart from what users name), else null.
 */
export function reservedWord(segment: string): string | null {
  return /^_[a-z][a-z_]*$/i.test(segment) ? segment.replace(/_/g, '') : null
}

/** True when the words after `end` are a kind and its name ("… group called support"). */
function namedAfter(tokens: string[], end: number): boolean {
  return (
    CONTAINER_NOUNS.has(singular(tokens[end + 1] ?? '')) &&
    NAME_INTRODUCERS.has(tokens[end + 2] ?? '')
  )
}

/** Where in the intent's tokens a path segment is spelled (one to five words), or null. */
function phraseAt(tokens: string[], segment: string): { start: number; end: number } | null {
  const want = normalValue(segment)
  for (let start = 0; start < tokens.length; start++)
    for (let end = start; end < Math.min(tokens.length, start + 5); end++)
      if (normalValue(tokens.slice(start, end + 1).join(' ')) === want) return { start, end }
  return null
}

/** A path slot's name: the typed field's name, `query` after a search word, else the segment before. */
export function pathSlotName(segments: string[], index: number, fieldName: string | null): string {
  if (fieldName && /^[A-Za-z_][\w]*$/.test(fieldName)) return fieldName
  const before = segments[index - 1]?.toLowerCase()
  if (before && /^(search|find|query|q|lookup|suggest)$/.test(before)) return 'query'
  if (before && /^[a-z][a-z_-]*$/.test(before)) return singular(before).replace(/-/g, '_')
  return /^\d+$/.test(segments[index] ?? '') ? 'id' : 'slug'
}
