/**
 * The evidence that one exchange is the request that does the person's task, as a table of
 * signals: each reads the facts gathered once about the exchange and adds a weighted reason.
 * The answer's own signals are read only when the request carries something of the intent.
 */
import type { EvidenceSignal, ResultShape } from '../../shared/toolSpec'
import type { Exchange } from '../../shared/trace'
import { answerText, isCountOnly, isSuggestEndpoint, largestRecordList } from './answerShape'
import { load } from 'cheerio'
import { mimeTypeOf } from '../../shared/trace'
import {
  isHtmlDocument,
  isTextData,
  isWriteMethod,
  parseJsonBody,
  parseJsonRequest,
} from './classify'
import { httpUrl } from '../../shared/urls'
import { intentVerbClass } from './intentVerb'
import { intentWords } from './intentWords'
import { isRpcSubOperation, operationOf } from './operation'
import {
  intentValueInPath,
  pathContext,
  pathSlotName,
  pickedInPath,
  type PathContext,
} from './pathEvidence'
import { segmentCarrying } from './pathValues'
import { matchTyped, pathSegments, requestValues, type RequestValue } from './requestValues'
import { routeOf, shownProbes, type PageContext, type Probe } from './shownProbes'
import type { PathSlot } from './slots'
import { typedIntoWords, type TypedValue } from './typedValues'
import { singular } from './valueSpelling'
import { verbSignals } from './verbSignals'

/** How a document target becomes a result: its result shape and its varying path segment. */
interface DocumentPlan {
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

/**
 * Evidence weights (the positive ones sum to 1.0): the typed value in the request is the
 * strongest proof of intent; a suggest endpoint or a count-only answer weighs against.
 */
export const WEIGHTS = {
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

/** What the trace around every candidate says, gathered once per compile. */
export interface PageEvidence {
  probes: Probe[]
  /** The intent's content words (empty without an intent). */
  words: string[]
  intent: string
  where: PathContext
}

/** The page evidence of a trace; without a context, none (no probes, words or paths). */
export function pageEvidence(
  context: PageContext | undefined,
  committedAt: number | null,
): PageEvidence {
  return {
    probes: context ? shownProbes(context, committedAt) : [],
    words: context?.intent ? intentWords(context.intent) : [],
    intent: context?.intent ?? '',
    where: pathContext(context),
  }
}

/** What one exchange carries of the person's task: read by every signal. */
interface Facts {
  exchange: Exchange
  typed: TypedValue[]
  committedAt: number | null
  page: PageEvidence
  exactMatches: ScoredExchange['exactMatches']
  /** How many typed values the request carries only a prefix of. */
  prefixes: number
  segments: string[]
  /** A typed value carried as a path segment rather than as a request value. */
  inPath?: { t: TypedValue; index: number }
  /** The intent's words the request's path names. */
  wordHits: string[]
  picked: { slot: PathSlot; value: string } | null
  named: { slot: PathSlot } | null
  pathSlot?: PathSlot
  json: unknown
  html: boolean
  /** The answer is data in a text format (CSV, XML, iCalendar...). */
  textData: boolean
  /** Keys of collections in the JSON answer that the intent names (`torrents`, `folders`). */
  namedCollections: string[]
  /** A data format the intent names that the answer is in (`csv`). */
  formatNamed: string | null
  /** The name of a link or button the person clicked just before, naming the intent's words. */
  clickedLink: string | null
  /** Words of the intent an HTML answer's title or headings name ("All Tickets"). */
  pageNames: string[]
}

/** The facts of an answer that carries the intent: its lower-case text. */
interface AnswerFacts extends Facts {
  text: string
}

type Signal<F> = (facts: F) => EvidenceSignal | null

/**
 * Scores one exchange as the target: the signals of {@link REQUEST_SIGNALS}, the intent verb's,
 * then (when the request carries something of the intent and answered JSON) those of
 * {@link ANSWER_SIGNALS}. The score is their sum, at least 0.01 with intent evidence, capped at 1
 * (the uncapped sum is the rank); 0 without intent evidence or when the verb refutes it.
 */
export function scoreExchange(
  exchange: Exchange,
  typed: TypedValue[],
  committedAt: number | null,
  page: PageEvidence,
): ScoredExchange {
  const facts = factsOf(exchange, typed, committedAt, page)
  const { where, intent } = page
  const verb = verbSignals(exchange, intentVerbClass(intent), where.actions, where.exchanges)
  const signals = [...read(REQUEST_SIGNALS, facts), ...verb.signals]
  // Evidence needs the intent first: bodies of requests that carry nothing of it are not read.
  const hasIntentEvidence =
    facts.exactMatches.length > 0 ||
    !!facts.inPath ||
    !!facts.picked ||
    facts.prefixes > 0 ||
    facts.wordHits.length > 0 ||
    !!facts.named ||
    facts.namedCollections.length > 0 ||
    !!facts.formatNamed ||
    !!facts.clickedLink ||
    facts.pageNames.length > 0 ||
    verb.plausible
  if (hasIntentEvidence && facts.json !== undefined)
    signals.push(...read(ANSWER_SIGNALS, { ...facts, text: answerText(exchange) }))
  // A candidate with intent evidence stays listed (as an alternative), however low it scores;
  // one the verb refutes (a sign-in for a read) is none.
  const score =
    hasIntentEvidence && !verb.refuted
      ? roundScore(
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
    exactMatches: facts.exactMatches,
    prefixOnly: !facts.exactMatches.length && !facts.inPath && facts.prefixes > 0,
    intentHits: facts.wordHits.length,
    ...(facts.pathSlot ? { pathSlot: facts.pathSlot } : {}),
    ...(facts.html ? { document: { result: { kind: 'document' as const, page: true } } } : {}),
  }
}

function read<F>(table: ReadonlyArray<Signal<F>>, facts: F): EvidenceSignal[] {
  const out: EvidenceSignal[] = []
  for (const signal of table) {
    const found = signal(facts)
    if (found) out.push(found)
  }
  return out
}

/**
 * The facts every signal reads. The path slot is the first of: a typed value carried as a path
 * segment, an item the person picked, a value the intent names.
 */
function factsOf(
  exchange: Exchange,
  typed: TypedValue[],
  committedAt: number | null,
  page: PageEvidence,
): Facts {
  const { exactMatches, prefixes } = matchValues(requestValues(exchange), typed)
  const segments = pathSegments(exchange.url)
  const inPath = typed
    .filter((t) => !exactMatches.some((m) => m.typed === t))
    .map((t) => ({ t, index: segmentCarrying(segments, t.value) }))
    .find((m) => m.index >= 0)
  let pathSlot: PathSlot | undefined = inPath && {
    index: inPath.index,
    name: pathSlotName(segments, inPath.index, inPath.t.fieldName),
    description: typedIntoWords(inPath.t, `path segment ${inPath.index}`),
  }
  const haystack = page.words.length ? pathWords(exchange) : null
  const wordHits = haystack ? page.words.filter((w) => haystack.has(w)) : []
  // A click that only led to the form the person then filled (MediaWiki's Special:PrefixIndex
  // link) picks no record: with a typed value sent, a picked segment must be one the intent names.
  const picked = !pathSlot
    ? pickedInPath(segments, page.where, exactMatches.length ? page.intent : null, page.intent)
    : null
  pathSlot ??= picked?.slot
  const named = !pathSlot ? intentValueInPath(segments, page.intent, page.where.paths) : null
  pathSlot ??= named?.slot
  const json = parseJsonBody(exchange)
  const textData = json === undefined && isTextData(exchange)
  return {
    exchange,
    typed,
    committedAt,
    page,
    exactMatches,
    prefixes,
    segments,
    ...(inPath ? { inPath } : {}),
    wordHits,
    picked,
    named,
    ...(pathSlot ? { pathSlot } : {}),
    json,
    html: isHtmlDocument(exchange),
    textData,
    namedCollections: json === undefined ? [] : namedCollections(json, page.words),
    formatNamed: formatNamed(exchange, page.intent),
    clickedLink: clickedLink(exchange, page),
    pageNames:
      isHtmlDocument(exchange) && !isWriteMethod(exchange.method)
        ? pageNames(exchange, page.words)
        : [],
  }
}

/**
 * The intent's words that an HTML answer's `<title>` or headings name: a page that calls itself
 * what the person asked for ("list the tickets" and a page titled "All Tickets").
 */
function pageNames(exchange: Exchange, words: string[]): string[] {
  if (!words.length || exchange.responseBody?.encoding !== 'utf8') return []
  const $ = load(exchange.responseBody.text)
  const said = new Set(keyWords($('title, h1, h2').text()))
  return words.filter((w) => said.has(w))
}

/** A data format people name and the media types it comes in. */
const FORMATS: Array<[RegExp, RegExp]> = [
  [/\b(csv|tsv|spreadsheet)\b/, /csv|tab-separated/],
  [/\bjson\b/, /json/],
  [/\bxml\b/, /xml/],
  [/\b(ics|ical|icalendar)\b/, /calendar/],
  [/\b(vcard|vcf)\b/, /vcard/],
  [/\b(yaml|yml)\b/, /yaml/],
]

/** The format word of the intent (`csv`) when the answer comes in that format, else null. */
function formatNamed(exchange: Exchange, intent: string): string | null {
  const mime = mimeTypeOf(exchange.responseHeaders)
  const text = intent.toLowerCase()
  for (const [said, type] of FORMATS) {
    const word = said.exec(text)
    if (word && type.test(mime)) return word[0]
  }
  return null
}

/**
 * Keys of the JSON answer (top level and one level down) that hold a non-empty list or map and
 * whose singular is one of the intent's words: "list my torrents" and `result.torrents`, the
 * data a page-load read answers when nothing was typed (page-load reads).
 */
function namedCollections(json: unknown, words: string[]): string[] {
  if (!words.length || json === null || typeof json !== 'object') return []
  const wanted = new Set(words)
  const out = new Set<string>()
  const visit = (node: unknown, depth: number) => {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return
    for (const [key, child] of Object.entries(node)) {
      const filled = Array.isArray(child)
        ? child.length > 0
        : child !== null && typeof child === 'object' && Object.keys(child).length > 0
      if (filled && keyWords(key).some((w) => wanted.has(w))) out.add(key)
      if (depth < 1) visit(child, depth + 1)
    }
  }
  visit(json, 0)
  return [...out]
}

/** The singular words of a JSON key (`downloadQueue` → download, queue). */
function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 3)
    .map(singular)
}

/** How soon after a click the request it caused starts, ms. */
const CLICK_CAUSE_MS = 3_000

/**
 * The name of the link or button the person clicked just before this request, when it names one
 * of the intent's words ("CSV export" for "export the statistics as CSV"): what the person chose
 * to get is what this request answered.
 */
function clickedLink(exchange: Exchange, page: PageEvidence): string | null {
  if (!page.words.length || isWriteMethod(exchange.method)) return null
  const wanted = new Set(page.words)
  const click = [...page.where.actions]
    .reverse()
    .find(
      (a) =>
        a.kind === 'click' &&
        a.at <= exchange.startedAt &&
        exchange.startedAt - a.at <= CLICK_CAUSE_MS,
    )
  if (!click?.name) return null
  return keyWords(click.name).some((w) => wanted.has(w)) ? click.name : null
}

/** The signals of the request and its answer's kind, in the order they are listed. */
const REQUEST_SIGNALS: ReadonlyArray<Signal<Facts>> = [
  function typedValueInRequest({ exactMatches, inPath, typed }) {
    if (!exactMatches.length && !inPath) return null
    const carried = exactMatches.length + (inPath ? 1 : 0)
    return {
      name: 'typed_value_in_request',
      weight: roundScore(WEIGHTS.typed * (carried / typed.length)),
      detail: [
        ...exactMatches.map(
          (m) =>
            `"${m.typed.value}"${m.typed.fromIntent ? ' (named in the intent)' : ''} is ${m.value.location}.${m.value.path}`,
        ),
        ...(inPath ? [`"${inPath.t.value}" is path segment ${inPath.index}`] : []),
      ].join('; '),
    }
  },
  function typedPrefixInRequest({ exactMatches, inPath, prefixes }) {
    if (exactMatches.length || inPath || !prefixes) return null
    return {
      name: 'typed_prefix_in_request',
      weight: WEIGHTS.prefix,
      detail: 'carries only a prefix of what was typed (a typeahead request)',
    }
  },
  function intentWordsInRequest({ wordHits, page }) {
    if (!wordHits.length) return null
    return {
      name: 'intent_words_in_request',
      weight: roundScore(
        WEIGHTS.intentWords * Math.min(1, wordHits.length / Math.min(2, page.words.length)),
      ),
      detail: `the request's path names ${wordHits.map((w) => `"${w}"`).join(', ')} of the intent`,
    }
  },
  function pickedValueInPath({ picked }) {
    if (!picked) return null
    return {
      name: 'picked_value_in_path',
      weight: roundScore(WEIGHTS.typed / 2),
      detail: `path segment ${picked.slot.index} names "${picked.value}", the item the person clicked`,
    }
  },
  function intentValueNamedInPath({ named, segments }) {
    if (!named) return null
    return {
      name: 'intent_value_in_path',
      weight: WEIGHTS.intentValue,
      detail: `path segment ${named.slot.index} is "${segments[named.slot.index]}", named in the intent`,
    }
  },
  function answerKind({ exchange, json, html, textData }) {
    if (json !== undefined && ['fetch', 'xhr'].includes(exchange.resourceType))
      return {
        name: 'json_answer',
        weight: WEIGHTS.json,
        detail: `${exchange.resourceType} answered JSON`,
      }
    if (textData)
      return {
        name: 'text_data_answer',
        weight: WEIGHTS.json / 2,
        detail: `answered data as ${mimeTypeOf(exchange.responseHeaders)}`,
      }
    if (!html) return null
    return {
      name: 'html_answer',
      // A page is weaker evidence than data: of a page and a JSON answer naming the same value,
      // the data answers the intent (the page is the app's shell around it).
      weight: WEIGHTS.json / 2,
      detail: 'answered an HTML page (a form post or a server-rendered page)',
    }
  },
  function answerNamesIntent({ namedCollections }) {
    if (!namedCollections.length) return null
    return {
      name: 'answer_names_intent',
      weight: WEIGHTS.intentValue,
      detail: `the answer holds ${namedCollections.map((k) => `"${k}"`).join(', ')}, which the intent names`,
    }
  },
  function formatAsNamed({ formatNamed }) {
    if (!formatNamed) return null
    return {
      name: 'format_named',
      weight: WEIGHTS.intentValue,
      detail: `the intent asks for ${formatNamed}, and the answer is in that format`,
    }
  },
  function pageNamesIntent({ pageNames }) {
    if (!pageNames.length) return null
    return {
      name: 'page_names_intent',
      weight: WEIGHTS.echoes * 2,
      detail: `the page's title or headings name ${pageNames.map((w) => `"${w}"`).join(', ')}`,
    }
  },
  function clickedLinkNamesIntent({ clickedLink }) {
    if (!clickedLink) return null
    return {
      name: 'clicked_link_names_intent',
      weight: WEIGHTS.afterCommit,
      detail: `sent right after the person clicked "${clickedLink}", which names the intent`,
    }
  },
  function afterSubmit({ exchange, committedAt }) {
    if (committedAt === null || exchange.startedAt < committedAt - 50) return null
    return {
      name: 'after_submit',
      weight: WEIGHTS.afterCommit,
      detail: 'sent after the person submitted',
    }
  },
  function answerHasRecords({ json }) {
    const records = largestRecordList(json)
    if (!records) return null
    return {
      name: 'answer_has_records',
      weight: WEIGHTS.records,
      detail: `answer holds ${records.count} records at ${records.path || '(root)'}`,
    }
  },
]

/** The signals of a JSON answer to a request that carries the intent, in listed order. */
const ANSWER_SIGNALS: ReadonlyArray<Signal<AnswerFacts>> = [
  function answerMentionsTypedValue({ typed, text }) {
    const echoed = typed.filter((t) => text.includes(t.value.toLowerCase()))
    if (!echoed.length) return null
    return {
      name: 'answer_mentions_typed_value',
      weight: roundScore((WEIGHTS.echoes * echoed.length) / typed.length),
      detail: `answer mentions ${echoed.map((t) => `"${t.value}"`).join(', ')}`,
    }
  },
  function shownByPage({ exchange, page, text }) {
    // The same route called again with another last segment (`/search/lunar`, then
    // `/search/lunar-cal`) is the person refining what they asked, not the page using this answer.
    const route = routeOf(exchange)
    const shown = page.probes.filter(
      (p) => p.at > exchange.startedAt && text.includes(p.text) && p.route !== route,
    )
    if (!shown.length) return null
    return {
      name: 'shown_by_page',
      weight: WEIGHTS.shown,
      detail: `the page used this answer: ${shown
        .slice(0, 3)
        .map((p) => p.what)
        .join('; ')}`,
    }
  },
  answerIs(isSuggestEndpoint, {
    name: 'suggest_endpoint',
    weight: WEIGHTS.suggest,
    detail: 'a typeahead/suggest endpoint: it answers suggestions, not the records',
  }),
  answerIs(isCountOnly, {
    name: 'count_only_answer',
    weight: WEIGHTS.countOnly,
    detail: 'its answer is a count, not the records the page listed',
  }),
]

/** A signal given as it is whenever the answer is of one kind. */
function answerIs(
  kind: (exchange: Exchange, json: unknown) => boolean,
  signal: EvidenceSignal,
): Signal<AnswerFacts> {
  return ({ exchange, json }) => (kind(exchange, json) ? { ...signal } : null)
}

/**
 * The request values equal to each typed value, and how many typed values only have a prefix.
 * The same value typed into two fields (`^$` for both `configure` and `write`) is matched to the
 * request field named like the form field, else to one no other typed value took.
 */
export function matchValues(values: RequestValue[], typed: TypedValue[]) {
  const exactMatches: ScoredExchange['exactMatches'] = []
  const taken = new Set<RequestValue>()
  let prefixes = 0
  for (const t of typed) {
    const equal = values.filter((v) => matchTyped(v.value, t.value) === 'exact')
    const exact =
      equal.find((v) => t.fieldName !== null && v.key === t.fieldName && !taken.has(v)) ??
      equal.find((v) => !taken.has(v)) ??
      equal[0]
    if (exact) taken.add(exact)
    if (exact) exactMatches.push({ typed: t, value: exact })
    else if (values.some((v) => matchTyped(v.value, t.value) === 'prefix')) prefixes++
  }
  return { exactMatches, prefixes }
}

/** Words of the request's path and GraphQL operation name, singular, lower-case. */
function pathWords(exchange: Exchange): Set<string> {
  const url = httpUrl(exchange.url)
  const body = parseJsonRequest(exchange) as { operationName?: unknown } | undefined
  const op = url?.searchParams.get('operationName') ?? body?.operationName
  // An action API names its operation in a field (`action=delete`): its words count too.
  const action = (operationOf(exchange) ?? '')
    .split('&')
    .map((pair) => pair.slice(pair.indexOf('=') + 1))
    .join(' ')
  // So does a JSON-RPC call's command parameter (`editqueue` with `GroupResume`).
  const commands = requestValues(exchange)
    .filter((v) => isRpcSubOperation(v, exchange))
    .map((v) => String(v.value))
  const text = `${url?.pathname ?? ''} ${typeof op === 'string' ? op : ''} ${action} ${commands.join(' ')}`
  return new Set(
    text
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean)
      .map(singular),
  )
}

/** A score rounded to thousandths, as evidence lists it. */
export const roundScore = (n: number) => Math.round(n * 1000) / 1000
