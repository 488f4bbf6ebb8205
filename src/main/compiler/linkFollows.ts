/**
 * The links a person followed, read back from the pages of a trace that has no recorded clicks
 * (a plain HAR): a page requested right after a page that links to it was most likely opened by
 * that link, whose text is then the name of the item picked, as a recorded click's name would be.
 */
import type { Exchange } from '../../shared/trace'
import { pageLinks } from '../../shared/pageLinks'
import { safeUrl } from '../../shared/safeJson'
import { isHtmlDocument } from './classify'

/** A link followed: its text, when the page it led to was asked for, and the page it was on. */
export interface LinkFollow {
  value: string
  /** Milliseconds since the Unix epoch, just before the followed page was requested. */
  at: number
  pageUrl: string
}

/**
 * For each GET of a page (`document`) whose URL, without its fragment, is the resolved `href` of
 * a link on the page answered last before it (same origin), that link's text (2–80 characters,
 * white space collapsed). Links whose text is empty (icons) are skipped; with several links to
 * the page, the first with a text counts. Pure; bodies that are not HTML are ignored.
 */
export function linkFollows(exchanges: Exchange[]): LinkFollow[] {
  const out: LinkFollow[] = []
  let last: { url: string; links: Map<string, string> } | null = null
  for (const e of [...exchanges].sort((a, b) => a.startedAt - b.startedAt)) {
    if (e.resourceType !== 'document') continue
    const url = withoutFragment(e.url)
    if (e.method === 'GET' && last && last.url !== url) {
      const text = last.links.get(url)
      if (text) out.push({ value: text, at: e.startedAt - 1, pageUrl: last.url })
    }
    if (isHtmlDocument(e) && e.responseBody?.encoding === 'utf8')
      last = { url, links: linksOf(e.responseBody.text, url) }
  }
  return out
}

function linksOf(html: string, base: string): Map<string, string> {
  const origin = new URL(base).origin
  const out = new Map<string, string>()
  for (const link of pageLinks(html)) {
    const text = link.text.replace(/\s+/g, ' ').trim()
    if (text.length < 2 || text.length > 80 || !link.href) continue
    const target = safeUrl(link.href, base)
    if (!target || target.origin !== origin) continue
    const key = withoutFragment(target.href)
    if (!out.has(key)) out.set(key, text)
  }
  return out
}

function withoutFragment(url: string): string {
  return url.split('#')[0]!
}
