// A verify rule judged against an answer: what the engine checks on every run, and what the
// compiler checks on the recorded answer so that the rule it derives is one a run can meet.
// Pure, importing only src/shared: the compiler and the engine both stand on it.
import { load } from 'cheerio'
import type { ResultShape, VerifyRule } from '../../shared/toolSpec'
import { decodeOrKeep, httpUrl } from '../../shared/urls'

/**
 * True for a rule that judges a write's acknowledgement rather than data: a
 * redirect, status only (`mimeType: '*'`), or a text type with no promised fields. Rules written
 * before (JSON with fields, document pages with their shape) are never acknowledgements.
 */
export function isAcknowledgement(verify: VerifyRule, shape?: ResultShape): boolean {
  if (shape?.kind === 'document' || shape?.kind === 'text') return false
  if (verify.redirect || verify.mimeType === '*') return true
  return verify.mimeType.startsWith('text/') && !verify.required.length
}

/**
 * True when a Location path matches a rule's redirect pattern: the same number of non-empty
 * segments, each equal (percent-decoded), the pattern's `*` standing for any non-empty text.
 */
export function locationMatches(pattern: string, path: string): boolean {
  const want = segmentsOf(pattern)
  const got = segmentsOf(path)
  return want.length === got.length && want.every((w, i) => segmentMatches(w, got[i]!))
}

/** One segment: equal, or its `*` parts each standing for one or more characters (`File:*`). */
function segmentMatches(pattern: string, segment: string): boolean {
  if (!pattern.includes('*')) return pattern === segment
  const parts = pattern.split('*').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  return new RegExp(`^${parts.join('.+')}$`).test(segment)
}

/** The path's non-empty segments, each percent-decoded, after WHATWG URL parsing (dot segments). */
function segmentsOf(path: string): string[] {
  const url = httpUrl(`http://localhost${path.startsWith('/') ? '' : '/'}${path.split('?')[0]}`)
  return (url?.pathname ?? '').split('/').filter(Boolean).map(decodeOrKeep)
}

/** True when a page title matches a title pattern: `*` any text, whitespace collapsed. */
export function titleMatches(pattern: string, title: string): boolean {
  const parts = pattern.split('*').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  return new RegExp(`^${parts.join('.+')}$`, 'i').test(title.replace(/\s+/g, ' ').trim())
}

/**
 * True when a page shows a value: its readable text (scripts and styles left out) contains the
 * value's letters and digits in order, case, spacing, punctuation and markup aside (wiki
 * markup `**bold**` renders as `bold`). A value with no letter or digit is never shown.
 */
export function pageShowsValue(html: string, value: string): boolean {
  const needle = letters(value)
  if (!needle) return false
  const $ = load(html)
  $('script, style, noscript, template').remove()
  const text = `${$('title').text()} ${$('body').length ? $('body').text() : $.root().text()}`
  return letters(text).includes(needle)
}

function letters(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '')
}
