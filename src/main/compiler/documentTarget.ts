import type { EvidenceSignal } from '../../shared/toolSpec'
import type { Action, Exchange } from '../../shared/trace'
import { httpUrl } from '../../shared/urls'
import { embeddedBlocks, valueAt, type EmbeddedBlock } from './embeddedData'
import { pathSegments, requestValues } from './requestValues'
import { largestRecordList } from './answerShape'
import { intentWords } from './intentWords'
import { sortScored } from './selectTarget'
import { decodePart } from './stepTemplate'
import { reservedWord } from './pathEvidence'
import { matchValues, type ScoredExchange } from './targetSignals'
import { singular } from './valueSpelling'
import type { PathSlot } from './slots'
import { typedIntoWords, type TypedValue } from './typedValues'

/**
 * Whether an intent asks to read a page: "read the tool page", "open the
 * page of ...", "get the details page", "show the article".
 */
export function isPageReadIntent(intent: string): boolean {
  const text = intent.toLowerCase()
  return (
    /\b(read|open|view|visit|show|get|fetch|see|load)\b.*\b(page|article|post|details?|profile|entry|listing|docs?)\b/.test(
      text,
    ) || /\b(page|details) (of|for|about)\b/.test(text)
  )
}

/** Page-read weights (sum 1.0). */
const P = { intent: 0.3, html: 0.15, reached: 0.25, start: 0.1, words: 0.15, varying: 0.15 }

/**
 * Scores the HTML pages a page-read intent may mean: pages the person navigated or clicked to,
 * whose path names the intent's words, with a segment that varies (several pages of one shape,
 * or the typed value, or the clicked link's text). Best first.
 */
export function scorePageReads(
  docs: Exchange[],
  actions: Action[],
  typed: TypedValue[],
  intent: string,
  startUrl: string,
): ScoredExchange[] {
  const words = intentWords(intent)
  const reachedBy = reachedPages(docs, actions)
  // A page read names a page: the site's root is where a recording starts, not what it reads.
  const pages = docs.filter((d) => d.method === 'GET' && pathSegments(d.url).length > 0)
  const scored = pages.map((doc): ScoredExchange => {
    const signals: EvidenceSignal[] = [
      { name: 'page_read_intent', weight: P.intent, detail: `"${intent}" reads a page` },
      { name: 'html_document', weight: P.html, detail: 'answered an HTML page' },
    ]
    const how = reachedBy.get(doc)
    if (how) signals.push({ name: 'reached_by_action', weight: P.reached, detail: how })
    else if (stripHash(doc.url) === stripHash(startUrl))
      signals.push({
        name: 'start_page',
        weight: P.start,
        detail: 'the page the recording began on',
      })
    const segments = pathSegments(doc.url)
    const hits = words.filter((w) => segments.some((s) => singular(s.toLowerCase()) === w))
    if (hits.length)
      signals.push({
        name: 'intent_words_in_path',
        weight: P.words,
        detail: `the path names ${hits.map((w) => `"${w}"`).join(', ')}`,
      })
    const varying = varyingSegment(doc, pages, typed, actions)
    if (varying && varying.how !== 'last segment')
      signals.push({ name: 'varying_segment', weight: P.varying, detail: varying.how })
    // A page whose query carries the value the person typed or the intent names
    // (`doku.php?id=projects:office_move`) is the page meant, not the one the recording began on.
    const { exactMatches } = varying ? { exactMatches: [] } : matchValues(requestValues(doc), typed)
    if (exactMatches.length)
      signals.push({
        name: 'typed_value_in_request',
        weight: P.varying,
        detail: exactMatches
          .map((m) => `"${m.typed.value}" is ${m.value.location}.${m.value.path}`)
          .join('; '),
      })
    const score = Math.round(signals.reduce((sum, s) => sum + s.weight, 0) * 1000) / 1000
    return {
      exchange: doc,
      score,
      signals,
      exactMatches,
      prefixOnly: false,
      document: {
        result: { kind: 'document', page: true },
        pageRead: true,
        ...(varying ? { pathSlot: varying.slot } : {}),
      },
    }
  })
  return sortScored(scored)
}

/** Server-rendered data weights (sum 1.0). */
const R = { typed: 0.35, html: 0.1, afterCommit: 0.15, embedded: 0.15, records: 0.15, echoes: 0.1 }

/**
 * Scores pages whose records came with the HTML: the typed value
 * is in the page's query or path, and a `__NEXT_DATA__`, ld+json, JSON island or `window.__X__`
 * block holds a record list (best when it mentions the typed value). Only pages that carry the
 * typed value have their scripts read. Best first.
 */
export function scoreRenderedData(
  docs: Exchange[],
  typed: TypedValue[],
  committedAt: number | null,
): ScoredExchange[] {
  if (!typed.length) return []
  const out: ScoredExchange[] = []
  for (const doc of docs) {
    const { exactMatches } = matchValues(requestValues(doc), typed)
    const segments = pathSegments(doc.url)
    const inPath = typed
      .map((t) => ({ t, index: segments.findIndex((s) => s === t.value || sameSlug(s, t.value)) }))
      .filter((m) => m.index >= 0 && !exactMatches.some((e) => e.typed === m.t))
    const carried = exactMatches.length + inPath.length
    if (!carried) continue
    const html = doc.responseBody?.encoding === 'utf8' ? doc.responseBody.text : ''
    const found = bestRecords(embeddedBlocks(html), typed)
    if (!found) continue
    const signals: EvidenceSignal[] = [
      {
        name: 'typed_value_in_request',
        weight: round(R.typed * Math.min(1, carried / typed.length)),
        detail: [
          ...exactMatches.map((m) => `"${m.typed.value}" is ${m.value.location}.${m.value.path}`),
          ...inPath.map((m) => `"${m.t.value}" is path segment ${m.index}`),
        ].join('; '),
      },
      { name: 'html_document', weight: R.html, detail: 'the page itself carried the records' },
    ]
    if (committedAt !== null && doc.startedAt >= committedAt - 50)
      signals.push({
        name: 'after_submit',
        weight: R.afterCommit,
        detail: 'loaded after the person submitted',
      })
    signals.push({
      name: 'embedded_data',
      weight: R.embedded,
      detail: `${found.block.source} (${found.block.selector}) embeds the data`,
    })
    signals.push({
      name: 'answer_has_records',
      weight: R.records,
      detail: `embedded data holds ${found.count} records at ${found.path || '(root)'}`,
    })
    if (found.mentions)
      signals.push({
        name: 'answer_mentions_typed_value',
        weight: R.echoes,
        detail: `the records mention ${typed.map((t) => `"${t.value}"`).join(', ')}`,
      })
    const pathMatch = inPath[0]
    const pathSlot: PathSlot | undefined = pathMatch
      ? {
          index: pathMatch.index,
          name: slotNameFor(segments, pathMatch.index),
          description: typedIntoWords(pathMatch.t, `path segment ${pathMatch.index}`),
        }
      : undefined
    out.push({
      exchange: doc,
      score: round(signals.reduce((sum, s) => sum + s.weight, 0)),
      signals,
      exactMatches,
      prefixOnly: false,
      document: {
        result: {
          kind: 'document',
          data: { source: found.block.source, selector: found.block.selector, path: found.path },
          page: true,
        },
        data: valueAt(found.block.json, found.path),
        ...(pathSlot ? { pathSlot } : {}),
      },
    })
  }
  return sortScored(out)
}

function bestRecords(blocks: EmbeddedBlock[], typed: TypedValue[]) {
  let best: { block: EmbeddedBlock; path: string; count: number; mentions: boolean } | null = null
  for (const block of blocks) {
    const list = largestRecordList(block.json)
    if (!list) continue
    const text = JSON.stringify(valueAt(block.json, list.path)).toLowerCase()
    const mentions = typed.some((t) => text.includes(t.value.toLowerCase()))
    const better =
      !best ||
      (mentions && !best.mentions) ||
      (mentions === best.mentions && list.count > best.count)
    if (better) best = { block, path: list.path, count: list.count, mentions }
  }
  return best
}

/**
 * How the person reached each page: a navigation to its URL, a click right before it loaded, or
 * later actions taken on it.
 */
function reachedPages(docs: Exchange[], actions: Action[]): Map<Exchange, string> {
  const reached = new Map<Exchange, string>()
  const byUrl = new Map<string, Exchange[]>()
  for (const d of docs) byUrl.set(stripHash(d.url), [...(byUrl.get(stripHash(d.url)) ?? []), d])
  for (const a of actions) {
    if (a.kind === 'navigate') {
      for (const d of byUrl.get(stripHash(a.pageUrl)) ?? [])
        if (!reached.has(d)) reached.set(d, `the person navigated to ${a.pageUrl}`)
    } else if (a.kind === 'click') {
      const next = docs.find((d) => d.startedAt >= a.at && d.startedAt - a.at < 10_000)
      if (next && !reached.has(next))
        reached.set(next, `opened by clicking ${a.name ? `"${a.name}"` : (a.selector ?? 'a link')}`)
    }
  }
  return reached
}

/** Which path segment varies per page, and how that is known; null for a page with no segments. */
function varyingSegment(
  doc: Exchange,
  docs: Exchange[],
  typed: TypedValue[],
  actions: Action[],
): { slot: PathSlot; how: string } | null {
  const segments = pathSegments(doc.url)
  if (!segments.length) return null
  const host = httpUrl(doc.url)?.host
  const counts = new Map<number, number>()
  for (const other of docs) {
    if (other === doc || httpUrl(other.url)?.host !== host) continue
    const o = pathSegments(other.url)
    if (o.length !== segments.length) continue
    const differing = segments.map((s, i) => (s === o[i] ? -1 : i)).filter((i) => i >= 0)
    if (differing.length !== 1) continue
    const at = differing[0]!
    // Pages that differ by the site's own routes (`/_history/X`, `/_diff/X`) are views of one
    // page, not pages of one kind.
    if (reservedWord(segments[at]!) !== null && reservedWord(o[at]!) !== null) continue
    counts.set(at, (counts.get(at) ?? 0) + 1)
  }
  const slotAt = (index: number, how: string) => ({
    slot: {
      index,
      name: slotNameFor(segments, index),
      description: `The part of the site address that varies per page (path segment ${index}, observed "${segments[index]}")`,
    },
    how,
  })
  const common = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]
  if (common)
    return slotAt(
      common[0],
      `${common[1] + 1} pages of this shape differ at path segment ${common[0]}`,
    )
  for (const t of typed) {
    const index = segments.findIndex((s) => s === t.value || sameSlug(s, t.value))
    if (index >= 0) return slotAt(index, `path segment ${index} is what was typed ("${t.value}")`)
  }
  for (const a of actions) {
    if (a.kind !== 'click' || !a.name || a.at > doc.startedAt) continue
    const index = segments.findIndex((s) => s.length > 2 && slugNames(s, a.name!))
    if (index >= 0) return slotAt(index, `path segment ${index} is the clicked link's text`)
  }
  if (segments.length >= 2 && /^[A-Za-z][\w-]*$/.test(segments.at(-2)!))
    return slotAt(segments.length - 1, 'last segment')
  return null
}

/** The slot's name: the preceding path segment, singular (`/tools/{x}` → `tool`). */
function slotNameFor(segments: string[], index: number): string {
  const before = segments[index - 1]
  if (before && /^[A-Za-z][A-Za-z_-]*$/.test(before))
    return singular(before.toLowerCase()).replace(/-/g, '_')
  return /^\d+$/.test(segments[index] ?? '') ? 'id' : 'slug'
}

/** A URL slug of a text: lower-case words joined by dashes. */
/**
 * True when a path segment is the slug of a clicked name: the same words, or (WordPress, most
 * CMSs) a run of at least two of its words ("sweet-peas" for "Growing Sweet Peas").
 */
function slugNames(segment: string, name: string): boolean {
  const mine = slug(decodePart(segment))
  const theirs = slug(name)
  if (!mine) return false
  if (mine === theirs) return true
  return mine.includes('-') && `-${theirs}-`.includes(`-${mine}-`)
}

/**
 * True when a path segment spells a value as a slug: the same letters and digits, whatever joins
 * the words (`vendor_contacts`, `vendor-contacts`, `Vendor%20contacts` for "vendor contacts").
 */
function sameSlug(segment: string, value: string): boolean {
  const mine = slug(decodePart(segment))
  return mine.length > 0 && mine === slug(value)
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .trim()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}

function stripHash(url: string): string {
  const i = url.indexOf('#')
  return i < 0 ? url : url.slice(0, i)
}

const round = (n: number) => Math.round(n * 1000) / 1000
