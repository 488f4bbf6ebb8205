import type { EvidenceSignal } from '../../shared/toolSpec'
import type { Exchange } from '../../shared/trace'
import { isWriteMethod, parseJsonBody } from './classify'
import { httpUrl } from '../../shared/urls'
import { intentVerbClass } from './intentVerb'
import { pathSegments } from './requestValues'
import { singular, wordsOf } from './valueSpelling'

/** What this rule reads and changes of a scored candidate (selectTarget's `ScoredExchange`). */
export interface ScoredRead {
  exchange: Exchange
  score: number
  rank?: number
  signals: EvidenceSignal[]
}

/** Evidence weights of a drill-down, on the scale of selectTarget's (the listing's as its `person_moved_on`). */
const W = { detail: 0.15, listing: -0.35 }

/** Words that start a read's object without naming it: "the details of a package". */
const ABOUT = new Set(['detail', 'details', 'info', 'information', 'content', 'contents'])
const DETERMINERS = new Set(['the', 'a', 'an', 'one', 'single', 'my', 'our', 'this', 'that'])
const PREPOSITIONS = new Set(['of', 'in', 'on', 'for', 'from', 'with', 'to', 'at', 'by', 'about'])

/**
 * True when a read intent asks for one record: the head noun of its object is singular ("show
 * one issue of the Website project", "show an older version of a package", "show the details
 * of a package": after "details of" the next phrase is the object). "list the posts of one
 * category" asks for many: its object is `posts`.
 */
export function asksForOne(intent: string): boolean {
  if (intentVerbClass(intent) !== 'read') return false
  const words = wordsOf(intent)
  let i = 1
  for (let round = 0; round < 2; round++) {
    while (i < words.length && DETERMINERS.has(words[i]!)) i++
    let head: string | null = null
    while (i < words.length && !PREPOSITIONS.has(words[i]!)) head = words[i++]!
    if (!head) return false
    if (!ABOUT.has(head)) return /^[a-z]{3,}$/.test(head) && singular(head) === head
    i++ // past "of"
  }
  return false
}

/**
 * A read that asks for one record, where the trace lists records and then opens one of them
 * ("show one issue" names no value): the listing is where the
 * person picked the record, the later read of that record is the answer. A listing is a read
 * whose path ends in the plural of one of the intent's words (`/projects/website/issues`,
 * `/-/data/packages`); a record's read is a later GET whose path the listing's answer links to
 * (`href="/issues/3"`) or whose last segment is a value the listing holds (`tidy-csv`). Changes
 * `scored` in place: the listing loses weight, each opened record gains and becomes a candidate.
 */
export function preferOpenedRecord(scored: ScoredRead[], intent: string, words: string[]): void {
  if (!asksForOne(intent)) return
  const nouns = new Set(words)
  for (const listing of scored) {
    const last = pathSegments(listing.exchange.url).at(-1)?.toLowerCase() ?? ''
    if (isWriteMethod(listing.exchange.method)) continue
    if (singular(last) === last || !nouns.has(singular(last))) continue
    const opened = scored.filter(
      (s) =>
        s.exchange.seq > listing.exchange.seq &&
        s.exchange.method === 'GET' &&
        s !== listing &&
        opensRecordOf(s.exchange, listing.exchange),
    )
    if (!opened.length) continue
    adjust(listing, {
      name: 'picked_from_listing',
      weight: W.listing,
      detail: `the intent asks for one ${singular(last)}; the trace then opened ${opened.length} of the records this listing holds`,
    })
    for (const s of opened)
      adjust(s, {
        name: 'opened_from_listing',
        weight: W.detail,
        detail: `reads one record that ${listing.exchange.method} ${httpUrl(listing.exchange.url)?.pathname} listed, as the intent asks for one ${singular(last)}`,
      })
  }
}

function adjust(s: ScoredRead, signal: EvidenceSignal): void {
  if (s.signals.some((x) => x.name === signal.name)) return
  s.signals.push(signal)
  // A read that carried no evidence before (score 0) is scored from its signals now.
  const sum = s.signals.reduce((total, x) => total + x.weight, 0)
  const rank = Math.round(Math.max(0.01, sum) * 1000) / 1000
  s.rank = rank
  s.score = Math.min(1, rank)
}

/** True when `listing`'s answer links to `read`'s path or holds its last segment as a value. */
function opensRecordOf(read: Exchange, listing: Exchange): boolean {
  const text = listing.responseBody?.encoding === 'utf8' ? listing.responseBody.text : ''
  const url = httpUrl(read.url)
  if (!text || !url) return false
  if (text.includes(`"${url.pathname}"`) || text.includes(`'${url.pathname}'`)) return true
  const name = pathSegments(read.url).at(-1)
  if (!name || name.length < 2) return false
  return holdsValue(parseJsonBody(listing), name, 0)
}

function holdsValue(json: unknown, name: string, depth: number): boolean {
  if (json === name || (typeof json === 'number' && String(json) === name)) return true
  if (depth > 5 || json === null || typeof json !== 'object') return false
  return Object.values(json).some((v) => holdsValue(v, name, depth + 1))
}
