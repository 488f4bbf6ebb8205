/**
 * The site's own names, read from a recording: the compiler stores them
 * on the tool (`ToolSpec.site`) so the router can match "on the wiki", "in Redmine" even when the
 * site runs on `127.0.0.1:PORT`. Pure: reads only the trace.
 */
import type { ToolSite } from '../../shared/toolSpec'
import { headerValue, type Trace } from '../../shared/trace'

/** At most this many page titles are kept, each cut to {@link TITLE_CHARS} characters. */
const MAX_TITLES = 20
const TITLE_CHARS = 120
const MAX_BODY = 400_000

/** Separators between a page's own title and the site's name (`Issues - Redmine`). */
const TITLE_PARTS = /\s+[-|–—·:»]\s+|\s*\[|\]\s*/

/**
 * The site's names and the titles of the HTML pages of `trace` (documents and HTML answers, in
 * order). Names come from `<meta name="application-name">`, `<meta property="og:site_name">`,
 * `<meta name="generator">` without its version (`MediaWiki 1.39.3` → `MediaWiki`), the `alt` of
 * an image whose tag says `logo`, a lone page title (`Node-RED`), and the
 * part of the titles that two or more pages share (the site's name in `Home - Team Wiki`,
 * `Budget - Team Wiki`), or the last part of a lone title.
 */
export function siteOfTrace(trace: Trace): ToolSite {
  const titles: string[] = []
  const names: string[] = []
  for (const exchange of trace.exchanges) {
    const type = headerValue(exchange.responseHeaders, 'content-type') ?? ''
    const body = exchange.responseBody
    if (!body || body.encoding !== 'utf8' || !/html/i.test(type)) continue
    const html = body.text.slice(0, MAX_BODY)
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1]
    if (title) {
      const clean = decode(title).replace(/\s+/g, ' ').trim().slice(0, TITLE_CHARS)
      if (clean && !titles.includes(clean) && titles.length < MAX_TITLES) titles.push(clean)
    }
    // The site's logo names it (`<img src="/static/logo.png" alt="Jupyter Notebook">`).
    for (const m of html.matchAll(/<img\s[^>]*>/gi)) {
      const tag = m[0]
      const alt = /\balt\s*=\s*["']([^"']+)["']/i.exec(tag)?.[1]
      if (alt && /logo/i.test(tag.replace(/\balt\s*=\s*["'][^"']*["']/i, '')))
        names.push(decode(alt).trim())
    }
    for (const m of html.matchAll(/<meta\s[^>]*>/gi)) {
      const tag = m[0]
      const key = /(?:name|property)\s*=\s*["']([^"']+)["']/i.exec(tag)?.[1]?.toLowerCase()
      const content = /content\s*=\s*["']([^"']*)["']/i.exec(tag)?.[1]
      if (!key || !content) continue
      if (key === 'application-name' || key === 'og:site_name' || key === 'generator')
        names.push(
          decode(content)
            .replace(/\s+v?\d[\w.-]*$/, '')
            .trim(),
        )
    }
  }
  const parts = titles.map((t) =>
    t
      .split(TITLE_PARTS)
      .map((p) => p.trim())
      .filter(Boolean),
  )
  const count = new Map<string, number>()
  for (const list of parts) for (const p of new Set(list)) count.set(p, (count.get(p) ?? 0) + 1)
  if (titles.length >= 2) for (const [p, n] of count) if (n >= 2) names.push(p)
  if (titles.length === 1 && parts[0]!.length > 1) names.push(parts[0]!.at(-1)!)
  // A title of one part that is the only title (`Redmine` of its login page) names the site.
  if (titles.length === 1 && parts[0]!.length === 1) names.push(parts[0]![0]!)
  return { names: [...new Set(names.filter((n) => n && n.length <= 60))], titles }
}

function decode(text: string): string {
  return text
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;|&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
}
