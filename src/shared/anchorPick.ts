/**
 * The grammar and reading of an `anchor` extractor (ToolSpec `ExtractorSource`): the value a
 * server-rendered list hands out in a link (`<a href="/tktview/4f2a…">Crash on empty list</a>`),
 * picked by the link's text, the name a person sees and clicks, never by its place in the page.
 * The path is JSON: `{"text": "Crash on empty list" | "{{input.p0}}", "segment": 1}` reads path
 * segment 1 of the link's URL; `{"text": …, "param": "name"}` its query parameter `name`. Shared
 * by the compiler that writes the path and the engine that reads it. Pure, no Node, no DOM.
 */

import { safeJson, safeUrl } from './safeJson'
import { decodeOrKeep } from './urls'

/**
 * What an anchor extractor picks and reads: the first link of that `text`, or with `row` the
 * first link of the first table row or list item whose text holds `text` (a report row whose
 * title is a cell beside the link).
 */
export type AnchorPick = { text: string; row?: boolean } & ({ segment: number } | { param: string })

/** Writes an anchor path. */
export function formatAnchorPick(pick: AnchorPick): string {
  return JSON.stringify(pick)
}

/** Reads an anchor path; null when it is not one. */
export function parseAnchorPick(path: string): AnchorPick | null {
  const value = safeJson(path) as Record<string, unknown> | null | undefined
  if (typeof value?.text !== 'string') return null
  const row = value.row === true ? { row: true } : {}
  if (typeof value.segment === 'number' && Number.isInteger(value.segment))
    return { text: value.text, segment: value.segment, ...row }
  if (typeof value.param === 'string') return { text: value.text, param: value.param, ...row }
  return null
}

/** Lower case with runs of white space as one space, trimmed: how a link's text compares. */
export function foldText(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase()
}

/** A link as a page holds it: its text, its href, and the text of its table row or list item. */
export interface PageLink {
  text: string
  href: string
  /** The text of the closest `<tr>` or `<li>` around it, '' when none. */
  row: string
}

/**
 * The value `pick` reads from the first of `links` (in page order) whose text is the pick's (its
 * `{{name}}` resolved from `scope`; case and spacing aside), or with `row` whose row holds it and
 * whose URL has the part; the href resolved against `base`. Undefined when no link fits.
 */
export function anchorValue(
  links: ReadonlyArray<PageLink>,
  pick: AnchorPick,
  base: string,
  scope: Readonly<Record<string, unknown>> = {},
): string | undefined {
  const placeholder = /^\{\{\s*([a-zA-Z0-9_.:-]+)\s*\}\}$/.exec(pick.text)
  const wanted = placeholder ? scope[placeholder[1]!] : pick.text
  if (typeof wanted !== 'string' && typeof wanted !== 'number') return undefined
  const text = foldText(String(wanted))
  const fits = pick.row
    ? (l: PageLink) => foldText(l.row).includes(text) && linkPart(l.href, pick, base) !== undefined
    : (l: PageLink) => foldText(l.text) === text
  const link = links.find(fits)
  return link ? linkPart(link.href, pick, base) : undefined
}

/** The part of a link's URL a pick reads: a path segment or a query parameter. */
/**
 * The part of a link's `href` (resolved against `base`, the page's URL) that `pick` reads: its
 * query parameter, or its path segment decoded (RFC 3986 §2.1; kept as sent when it is no valid
 * escape). Undefined for an href that is no URL or a link without that part.
 */
export function linkPart(href: string, pick: AnchorPick, base: string): string | undefined {
  const url = safeUrl(href, base)
  if (!url) return undefined
  if ('param' in pick) return url.searchParams.get(pick.param) ?? undefined
  const segments = url.pathname.split('/').filter(Boolean)
  const segment = segments[pick.segment]
  if (segment === undefined) return undefined
  return decodeOrKeep(segment)
}
