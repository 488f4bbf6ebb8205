import type { Alternative, EvidenceSignal, ResultShape } from '../../shared/toolSpec'
import type { Action, Exchange } from '../../shared/trace'
import { isHtmlDocument, parseJsonBody, parseJsonRequest, safeUrl } from './classify'
import type { PathSlot } from './slots'
import { endpointKey } from './observations'
import { matchTyped, pathSegments, requestValues, type RequestValue } from './requestValues'
import type { TypedValue } from './typedValues'
import { intentVerbClass } from './intentVerb'
import { operationOf } from './operation'
import { CONTAINER_NOUNS, NAME_INTRODUCERS, presentedAsValue } from './valueCues'
import { singular, wordsOf } from './valueSpelling'

export { singular }
import { verbSignals } from './verbSignals'
import { preferOpenedRecord } from './recordRead'
import { hasSiblings, normalValue, pickedNames, segmentCarrying, tracePaths } from './pathValues'

/** How a document target becomes a result: its result shape and its varying path segment. */
export interface DocumentPlan {
  result: Extract<ResultShape, { kind: 'document' }>
  /** The embedded records the compiler saw (the `data` of the result), when there are any. */
  data?: unknown
  pathSlot?: PathSlot
  /** True when the intent reads this page (the tool is `<site>__read_page`). */
  pageRead?: boolean
}

/** A candidate target exchange with its evidence. */
export interface ScoredExchange {
  exchange: Exchange
  /** 0..1: the sum of the signal weights. */
  score: number
  /** The sum uncapped: what ranks candidates whose scores both reach 1. */
  rank?: number
  signals: EvidenceSignal[]
  /** Request values equal to a typed value: these become required slots. */
  exactMatches: Array<{ typed: TypedValue; value: RequestValue }>
  prefixOnly: boolean
  /** Set when the target is an HTML document (a page read or server-rendered data). */
  document?: DocumentPlan
  /** A path segment that carries a typed value or a value the intent names (`/search/{query}`). */
  pathSlot?: PathSlot
  /** How many of the intent's words the request's path names. */
  intentHits?: number
}

/** What else in the trace tells which answer the page showed. */
export interface PageContext {
  actions: Action[]
  /** Every exchange of the trace, in order (assets included: the page loads what it shows). */
  exchanges: Exchange[]
  intent?: string
}

/** The lowest score that makes a candidate: the same bar as compileTrace's MIN_TARGET_SCORE. */
export const TARGET_THRESHOLD = 0.5

/**
 * Evidence weights (the positive ones sum to 1.0): the typed value in the request is the
 * strongest proof of intent; a suggest endpoint or a count-only answer weighs against.
 */
const W = {
  typed: 0.3,
  prefix: 0.1,
  intentWords: 0.3,
  intentValue: 0.2,
  json: 0.1,
  afterCommit: 0.15,
  records: 0.15,
  echoes: 0.05,
  shown: 0.15,
  suggest: -0.25,
  countOnly: -0.2,
  movedOn: -0.35,
}

/** Display strings after the commit are matched against answers only when at least this long. */
const MIN_SHOWN_LENGTH = 4
const MAX_SHOWN_PROBES = 120

/**
 * Scores the exchanges that may be targets: the typed values appear in its request (or, with
 * nothing typed, the intent's words); its answer holds records that mention the typed value; the
 * page showed that answer
 * (later clicks name a record, later loads fetch a URL it holds); it came after the person
 * committed the form; it is a fetch/XHR with a JSON answer. A suggest endpoint and a count-only
 * answer weigh against. Returns the candidates best first; ties go to the later request (of a
 * repeated search, the page shows the last answer).
 */
export function scoreExchanges(
  exchanges: Exchange[],
  typed: TypedValue[],
  committedAt: number | null,
  context?: PageContext,
): ScoredExchange[] {
  const probes = context ? shownProbes(context, committedAt) : []
  const words = context?.intent ? intentWords(context.intent) : []
  const where = pathContext(context)
  const scored = exchanges.map((exchange) =>
    scoreOne(exchange, typed, committedAt, probes, words, context?.intent ?? '', where),
  )
  if (context) penalizeMovedOn(scored, context.actions)
  if (context?.intent) preferOpenedRecord(scored, context.intent, words)
  return sortScored(scored.filter((s) => s.score > 0))
}

/**
 * The evidence of one exchange the person named as the target (manual compile), scored like any
 * candidate but kept even when it carries nothing of the intent (score 0): the person's choice is
 * the evidence, marked by a `chosen_by_hand` signal (weight 0).
 */
export function scoreChosen(
  exchange: Exchange,
  typed: TypedValue[],
  committedAt: number | null,
  context: PageContext,
): ScoredExchange {
  const probes = shownProbes(context, committedAt)
  const words = context.intent ? intentWords(context.intent) : []
  const scored = scoreOne(
    exchange,
    typed,
    committedAt,
    probes,
    words,
    context.intent ?? '',
    pathContext(context),
  )
  return withHandSignal(scored)
}

/** The candidate with the `chosen_by_hand` signal added (a copy: rankings stay as they were). */
export function withHandSignal(scored: ScoredExchange): ScoredExchange {
  return {
    ...scored,
    signals: [
      ...scored.signals,
      {
        name: 'chosen_by_hand',
        weight: 0,
        detail: `the person chose this request as the target (evidence score ${scored.score})`,
      },
    ],
  }
}

/**
 * A candidate the person moved on from: after its answer they clicked or navigated to another
 * page, where a later request names the intent's words and this one names none (the search that
 * led to the page whose related tools the intent asks for).
 */
function penalizeMovedOn(scored: ScoredExchange[], actions: Action[]): void {
  const named = scored.filter((s) => s.score > 0 && (s.intentHits ?? 0) > 0)
  if (!named.length) return
  for (const s of scored) {
    if (s.score <= 0 || (s.intentHits ?? 0) > 0) continue
    const later = named.find(
      (n) =>
        n.exchange.startedAt > s.exchange.startedAt &&
        actions.some(
          (a) =>
            (a.kind === 'click' || a.kind === 'navigate') &&
            a.at > s.exchange.startedAt &&
            a.at <= n.exchange.startedAt,
        ),
    )
    if (!later) continue
    s.signals.push({
      name: 'person_moved_on',
      weight: W.movedOn,
      detail: `after this answer the person opened another page, where ${later.exchange.method} ${safeUrl(later.exchange.url)?.pathname} names the intent's words`,
    })
    s.score = round(Math.max(0.01, s.score + W.movedOn))
    s.rank = round(Math.max(0.01, (s.rank ?? s.score) + W.movedOn))
  }
}

/** Best first; equal scores: the later request first. */
export function sortScored(scored: ScoredExchange[]): ScoredExchange[] {
  return scored.sort(
    (a, b) => (b.rank ?? b.score) - (a.rank ?? a.score) || b.exchange.seq - a.exchange.seq,
  )
}

function scoreOne(
  exchange: Exchange,
  typed: TypedValue[],
  committedAt: number | null,
  probes: Probe[],
  words: string[],
  intent: string,
  where: PathContext,
): ScoredExchange {
  const { actions } = where
  const signals: EvidenceSignal[] = []
  const values = requestValues(exchange)
  const { exactMatches, prefixes } = matchValues(values, typed)
  const segments = pathSegments(exchange.url)
  const inPath = typed
    .filter((t) => !exactMatches.some((m) => m.typed === t))
    .map((t) => ({ t, index: segmentCarrying(segments, t.value) }))
    .find((m) => m.index >= 0)
  let pathSlot: PathSlot | undefined
  if (exactMatches.length || inPath) {
    const carried = exactMatches.length + (inPath ? 1 : 0)
    signals.push({
      name: 'typed_value_in_request',
      weight: round(W.typed * (carried / typed.length)),
      detail: [
        ...exactMatches.map(
          (m) =>
            `"${m.typed.value}"${m.typed.fromIntent ? ' (named in the intent)' : ''} is ${m.value.location}.${m.value.path}`,
        ),
        ...(inPath ? [`"${inPath.t.value}" is path segment ${inPath.index}`] : []),
      ].join('; '),
    })
    if (inPath)
      pathSlot = {
        index: inPath.index,
        name: pathSlotName(segments, inPath.index, inPath.t.fieldName),
        description: `What was typed into "${inPath.t.name ?? inPath.t.fieldName ?? 'the field'}" (path segment ${inPath.index})`,
      }
  } else if (prefixes) {
    signals.push({
      name: 'typed_prefix_in_request',
      weight: W.prefix,
      detail: 'carries only a prefix of what was typed (a typeahead request)',
    })
  }
  let wordHits: string[] = []
  if (words.length) {
    const haystack = pathWords(exchange)
    wordHits = words.filter((w) => haystack.has(w))
    if (wordHits.length)
      signals.push({
        name: 'intent_words_in_request',
        weight: round(W.intentWords * Math.min(1, wordHits.length / Math.min(2, words.length))),
        detail: `the request's path names ${wordHits.map((w) => `"${w}"`).join(', ')} of the intent`,
      })
  }
  // A click that only led to the form the person then filled (MediaWiki's Special:PrefixIndex
  // link) picks no record: with a typed value sent, a picked segment must be one the intent names.
  const picked = !pathSlot
    ? pickedInPath(segments, where, exactMatches.length ? intent : null)
    : null
  if (picked) {
    pathSlot = picked.slot
    signals.push({
      name: 'picked_value_in_path',
      weight: round(W.typed / 2),
      detail: `path segment ${picked.slot.index} names "${picked.value}", the item the person clicked`,
    })
  }
  const named = !pathSlot ? intentValueInPath(segments, intent, where.paths) : null
  if (named) {
    pathSlot = named.slot
    signals.push({
      name: 'intent_value_in_path',
      weight: W.intentValue,
      detail: `path segment ${named.slot.index} is "${segments[named.slot.index]}", named in the intent`,
    })
  }
  const json = parseJsonBody(exchange)
  const html = isHtmlDocument(exchange)
  if (json !== undefined && ['fetch', 'xhr'].includes(exchange.resourceType))
    signals.push({
      name: 'json_answer',
      weight: W.json,
      detail: `${exchange.resourceType} answered JSON`,
    })
  else if (html)
    signals.push({
      name: 'html_answer',
      // A page is weaker evidence than data: of a page and a JSON answer naming the same value,
      // the data answers the intent (the page is the app's shell around it).
      weight: W.json / 2,
      detail: 'answered an HTML page (a form post or a server-rendered page)',
    })
  if (committedAt !== null && exchange.startedAt >= committedAt - 50)
    signals.push({
      name: 'after_submit',
      weight: W.afterCommit,
      detail: 'sent after the person submitted',
    })
  const records = largestRecordList(json)
  if (records)
    signals.push({
      name: 'answer_has_records',
      weight: W.records,
      detail: `answer holds ${records.count} records at ${records.path || '(root)'}`,
    })
  const verb = verbSignals(exchange, intentVerbClass(intent), actions, where.exchanges)
  signals.push(...verb.signals)
  // Evidence needs the intent first: bodies of requests that carry nothing of it are not read.
  const hasIntentEvidence =
    exactMatches.length > 0 ||
    !!inPath ||
    !!picked ||
    prefixes > 0 ||
    wordHits.length > 0 ||
    !!named ||
    verb.plausible
  if (hasIntentEvidence && json !== undefined) {
    const text = answerText(exchange)
    const echoed = typed.filter((t) => text.includes(t.value.toLowerCase()))
    if (echoed.length)
      signals.push({
        name: 'answer_mentions_typed_value',
        weight: round((W.echoes * echoed.length) / typed.length),
        detail: `answer mentions ${echoed.map((t) => `"${t.value}"`).join(', ')}`,
      })
    // The same route called again with another last segment (`/search/lunar`, then
    // `/search/lunar-cal`) is the person refining what they asked, not the page using this answer.
    const route = routeOf(exchange)
    const shown = probes.filter(
      (p) => p.at > exchange.startedAt && text.includes(p.text) && p.route !== route,
    )
    if (shown.length)
      signals.push({
        name: 'shown_by_page',
        weight: W.shown,
        detail: `the page used this answer: ${shown
          .slice(0, 3)
          .map((p) => p.what)
          .join('; ')}`,
      })
    if (isSuggestEndpoint(exchange, json))
      signals.push({
        name: 'suggest_endpoint',
        weight: W.suggest,
        detail: 'a typeahead/suggest endpoint: it answers suggestions, not the records',
      })
    if (isCountOnly(exchange, json))
      signals.push({
        name: 'count_only_answer',
        weight: W.countOnly,
        detail: 'its answer is a count, not the records the page listed',
      })
  }
  // A candidate with intent evidence stays listed (as an alternative), however low it scores;
  // one the verb refutes (a sign-in for a read) is none.
  const score =
    hasIntentEvidence && !verb.refuted
      ? round(
          Math.max(
            0.01,
            signals.reduce((sum, x) => sum + x.weight, 0),
          ),
        )
      : 0
  return {
    exchange,
    score: Math.min(1, score),
    rank: score,
    signals,
    exactMatches,
    prefixOnly: !exactMatches.length && !inPath && prefixes > 0,
    intentHits: wordHits.length,
    ...(pathSlot ? { pathSlot } : {}),
    ...(html ? { document: { result: { kind: 'document' as const, page: true } } } : {}),
  }
}

/**
 * A path segment the intent names as a value ("the details of the tidy-csv package" and
 * `/sidebar/tidy-csv`): only value-like segments (with a digit, `-`, `_` or `.`) count, so path
 * words such as `search` never become slots. The slot is named by the noun after the value in
 * the intent, else the one before it, else the preceding path segment.
 */
function intentValueInPath(
  segments: string[],
  intent: string,
  paths: string[][],
): { slot: PathSlot } | null {
  if (!intent) return null
  const raw = intent.split(/[\s,;:!?()]+/).filter(Boolean)
  const tokens = raw.map((t) => t.toLowerCase().replace(/^["'“”‘’#]+|["'“”‘’]+$/g, ''))
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index]!.toLowerCase()
    // Short words are route words; short numbers are ids ("issue #3").
    if (segment.length < 3 && !/^\d+$/.test(segment)) continue
    const found = phraseAt(tokens, segment)
    if (!found) continue
    const at = found.start
    const after = found.end
    // A plain word is a value only where the path varies across the trace and the intent
    // names it as one: quoted, capitalised, or before a container noun ("the invoices folder");
    // else it is a route word such as `search` or `jobs`.
    if (!/[\d._-]/.test(segment)) {
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
      },
    }
  }
  return null
}

const NO_WORDS: ReadonlySet<string> = new Set()

/** Where in the intent's tokens a path segment is spelled (one to five words), or null. */
function phraseAt(tokens: string[], segment: string): { start: number; end: number } | null {
  const want = normalValue(segment)
  for (let start = 0; start < tokens.length; start++)
    for (let end = start; end < Math.min(tokens.length, start + 5); end++)
      if (normalValue(tokens.slice(start, end + 1).join(' ')) === want) return { start, end }
  return null
}

/** What the trace says about paths: every requested path, and what the person clicked. */
export interface PathContext {
  paths: string[][]
  picked: Array<{ value: string; at: number }>
  actions: Action[]
  /** Every exchange of the trace, in order. */
  exchanges: Exchange[]
}

function pathContext(context: PageContext | undefined): PathContext {
  return {
    paths: tracePaths(context?.exchanges ?? []),
    picked: pickedNames(context?.actions ?? []),
    actions: context?.actions ?? [],
    exchanges: context?.exchanges ?? [],
  }
}

/**
 * A path segment that names an item the person picked before the request (a folder link, a
 * page in a list), where the path varies across the trace: the picked item becomes a path slot.
 */
function pickedInPath(
  segments: string[],
  where: PathContext,
  namedIn: string | null,
): { slot: PathSlot; value: string } | null {
  const intentText = namedIn === null ? null : ` ${wordsOf(namedIn).join(' ')} `
  for (const p of where.picked) {
    const index = segmentCarrying(segments, p.value)
    if (index < 0 || !hasSiblings(segments, index, where.paths)) continue
    if (intentText !== null && !intentText.includes(` ${wordsOf(p.value).join(' ')} `)) continue
    return {
      value: p.value,
      slot: {
        index,
        name: pathSlotName(segments, index, null),
        description: `The item the person picked ("${p.value}", path segment ${index})`,
      },
    }
  }
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

/** The request values equal to each typed value, and how many typed values only have a prefix. */
export function matchValues(values: RequestValue[], typed: TypedValue[]) {
  const exactMatches: ScoredExchange['exactMatches'] = []
  let prefixes = 0
  for (const t of typed) {
    const exact = values.find((v) => matchTyped(v.value, t.value) === 'exact')
    if (exact) exactMatches.push({ typed: t, value: exact })
    else if (values.some((v) => matchTyped(v.value, t.value) === 'prefix')) prefixes++
  }
  return { exactMatches, prefixes }
}

interface Probe {
  text: string
  at: number
  what: string
  /** The route of the request the probe came from (see {@link routeOf}); null for a click. */
  route?: string
}

/** A request's route: method, host and path but its last segment (`GET h/-/data/search/*`). */
function routeOf(exchange: Exchange): string {
  const url = safeUrl(exchange.url)
  const path = (url?.pathname ?? '').replace(/\/[^/]*\/?$/, '/*')
  return `${exchange.method} ${url?.host ?? ''}${path}`
}

/**
 * What the page did with an answer after the commit: the names of what the person clicked and
 * the URLs the page loaded (images, pages, API calls). An answer holding them is one the page
 * showed. Bounded, so the scan stays linear in the trace.
 */
function shownProbes(context: PageContext, committedAt: number | null): Probe[] {
  const since = committedAt ?? -Infinity
  const probes: Probe[] = []
  for (const a of context.actions) {
    if (a.at < since || (a.kind !== 'click' && a.kind !== 'navigate')) continue
    const name = (a.name ?? '').trim().toLowerCase()
    if (name.length >= MIN_SHOWN_LENGTH)
      probes.push({ text: name, at: a.at, what: `clicked "${a.name}"` })
  }
  for (const e of context.exchanges) {
    if (probes.length >= MAX_SHOWN_PROBES) break
    if (e.startedAt < since) continue
    const url = safeUrl(e.url)
    if (!url || url.pathname.length < MIN_SHOWN_LENGTH || e.method !== 'GET') continue
    const last = url.pathname.split('/').filter(Boolean).pop() ?? ''
    // Only id-like or file-like segments (`a1.png`, `writing-pilot`): plain words are everywhere.
    if (last.length < MIN_SHOWN_LENGTH || !/[\d._-]/.test(last)) continue
    probes.push({
      text: last.toLowerCase(),
      at: e.startedAt,
      what: `then loaded ${url.pathname}`,
      route: routeOf(e),
    })
  }
  return probes
}

const STOP_WORDS = new Set(
  'the a an and or of for to in on by with from at as is are be this that these those my our your their it its into about all any some get find show give me what which who how when where list read open page data api v1 v2'.split(
    ' ',
  ),
)

/** Content words of an intent, lower-case, with simple plurals folded (`tools` → `tool`). */
export function intentWords(intent: string): string[] {
  return [
    ...new Set(
      intent
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .filter((w) => w.length >= 3 && !STOP_WORDS.has(w))
        .map(singular),
    ),
  ]
}

/** Words of the request's path and GraphQL operation name, singular, lower-case. */
function pathWords(exchange: Exchange): Set<string> {
  const url = safeUrl(exchange.url)
  const body = parseJsonRequest(exchange) as { operationName?: unknown } | undefined
  const op = url?.searchParams.get('operationName') ?? body?.operationName
  // An action API names its operation in a field (`action=delete`): its words count too.
  const action = operationOf(exchange)?.split('=')[1] ?? ''
  const text = `${url?.pathname ?? ''} ${typeof op === 'string' ? op : ''} ${action}`
  return new Set(
    text
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean)
      .map(singular),
  )
}

function answerText(exchange: Exchange): string {
  return exchange.responseBody?.encoding === 'utf8' ? exchange.responseBody.text.toLowerCase() : ''
}

function isSuggestEndpoint(exchange: Exchange, json: unknown): boolean {
  const path = safeUrl(exchange.url)?.pathname ?? ''
  if (/(suggest|autocomplete|auto-complete|typeahead|complet(e|ion)s?|hints?)(\/|$|\b)/i.test(path))
    return true
  const list = Array.isArray(json)
    ? json
    : json && typeof json === 'object'
      ? Object.values(json).find(Array.isArray)
      : undefined
  // A list of bare strings and no records: what suggestion boxes are fed.
  return (
    Array.isArray(list) &&
    list.length > 0 &&
    list.every((v) => typeof v === 'string') &&
    !largestRecordList(json)
  )
}

function isCountOnly(exchange: Exchange, json: unknown): boolean {
  if (typeof json === 'number') return true
  const path = safeUrl(exchange.url)?.pathname ?? ''
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return false
  if (largestRecordList(json)) return false
  const values = Object.values(json)
  const numbers = values.filter((v) => typeof v === 'number')
  return /(count|total|stats?)(\/|$)/i.test(path) || (numbers.length >= 1 && values.length <= 3)
}

/** The biggest array of objects in a JSON answer (its path, with `[]` for nesting), or null. */
export function largestRecordList(
  json: unknown,
  path = '',
  depth = 0,
): { path: string; count: number } | null {
  if (depth > 4 || json === null || typeof json !== 'object') return null
  if (Array.isArray(json)) {
    const objects = json.filter((v) => v !== null && typeof v === 'object' && !Array.isArray(v))
    return objects.length ? { path, count: objects.length } : null
  }
  let best: { path: string; count: number } | null = null
  for (const [key, value] of Object.entries(json)) {
    const found = largestRecordList(value, path ? `${path}.${key}` : key, depth + 1)
    if (found && (!best || found.count > best.count)) best = found
  }
  return best
}

/**
 * Orders every candidate: a page read wins when the intent reads a page and a page
 * was reached; else a fetch/XHR whose answer holds records; else a page whose server-rendered
 * data holds them; else the best of what is left. The first item is the target.
 */
export function rankTargets(
  json: ScoredExchange[],
  pageReads: ScoredExchange[],
  rendered: ScoredExchange[],
): ScoredExchange[] {
  const ordered = orderKinds(json, pageReads, rendered)
  const seen = new Set<Exchange>()
  return ordered.filter((s) => !seen.has(s.exchange) && !!seen.add(s.exchange))
}

function orderKinds(
  json: ScoredExchange[],
  pageReads: ScoredExchange[],
  rendered: ScoredExchange[],
): ScoredExchange[] {
  const qualifies = (s: ScoredExchange | undefined) => !!s && s.score >= TARGET_THRESHOLD
  const hasRecords = (s: ScoredExchange | undefined) =>
    !!s?.signals.some((x) => x.name === 'answer_has_records')
  if (qualifies(pageReads[0])) return [...pageReads, ...json, ...rendered]
  if (qualifies(json[0]) && (hasRecords(json[0]) || !qualifies(rendered[0])))
    return [...json, ...rendered, ...pageReads]
  if (qualifies(rendered[0])) return [...rendered, ...json, ...pageReads]
  return sortScored([...json, ...rendered, ...pageReads])
}

/**
 * Explains why each runner-up (up to 8) lost to the chosen target. With `byHand` (manual compile:
 * the person named the target), a runner-up may have more evidence than the target; the
 * comparison then says so instead of calling it weaker.
 */
export function alternativesOf(
  chosen: ScoredExchange,
  others: ScoredExchange[],
  byHand = false,
): Alternative[] {
  const chosenKey = endpointKey(chosen.exchange)
  const kept = byHand ? '; the request chosen by hand was kept' : ''
  return others.slice(0, 8).map((s) => {
    const has = (name: string) => s.signals.some((x) => x.name === name)
    const { more, less } = compareScores(s.score, chosen.score)
    let reason = less
      ? `lower evidence score ${less}${kept}`
      : `as much evidence (${s.score} = ${chosen.score}), ranked after the target${kept}`
    if (s.prefixOnly)
      reason = 'carries only a prefix of what was typed: a typeahead/suggest request'
    else if (has('suggest_endpoint'))
      reason =
        'a typeahead/suggest endpoint: it answered suggestions, not the records the page showed'
    else if (endpointKey(s.exchange) === chosenKey)
      reason =
        s.exchange.seq < chosen.exchange.seq
          ? 'the same endpoint sent earlier; the later answer is the one the page shows'
          : more
            ? `the same endpoint sent later with more evidence ${more}${kept}`
            : less
              ? `the same endpoint sent later with less evidence ${less}${kept}`
              : `the same endpoint sent later with as much evidence (${s.score} = ${chosen.score})${kept}`
    // Only a target named by hand can have less evidence than a runner-up: say so, plainly.
    else if (more) reason = `more evidence ${more}, but the request chosen by hand was kept`
    else if (has('count_only_answer'))
      reason = 'its answer is a count (a count endpoint next to the list the page showed)'
    else if (s.document && !chosen.document)
      reason = 'the page embeds data too, but a fetch/XHR carried the records the page showed'
    else if (!s.document && chosen.document?.result.page && !chosen.document.data)
      reason = 'the intent reads a page: the page itself is the target'
    else if (!s.document && !has('answer_has_records'))
      reason = 'its answer holds no records (a count or status endpoint)'
    else if (chosen.document?.data && !s.document)
      reason = 'its answer lacks the records the page rendered'
    return {
      exchangeId: s.exchange.id,
      method: s.exchange.method,
      url: s.exchange.url,
      score: s.score,
      reason,
      signals: s.signals.map((x) => x.name),
    }
  })
}

/** `(a > b)` when the runner-up scored more, `(a < b)` when less; neither when equal. */
function compareScores(score: number, chosen: number): { more?: string; less?: string } {
  if (score > chosen) return { more: `(${score} > ${chosen})` }
  if (score < chosen) return { less: `(${score} < ${chosen})` }
  return {}
}

const round = (n: number) => Math.round(n * 1000) / 1000
