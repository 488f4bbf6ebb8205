import * as cheerio from 'cheerio'
import { formatLinkQuery, linkQueryValue, parseLinkQuery, queryPairs } from '../../shared/linkQuery'
import type { EvidenceSignal, ToolSpec, ToolStep } from '../../shared/toolSpec'
import { mimeTypeOf, type Exchange, type Trace } from '../../shared/trace'
import { httpUrl } from '../../shared/urls'
import { keptHeaders } from './headers'
import { queryEntries } from './requestValues'
import { dependencyUses } from './stepTemplate'

/** Shorter values match by chance (`1`, `yes`); a token is longer and holds a digit. */
const TOKEN = /^(?=.*\d)[A-Za-z0-9._~*!$'()+,;:@-]{6,}$/
const WHOLE_PLACEHOLDER = /^\{\{\s*([a-zA-Z0-9_.:-]+)\s*\}\}$/

/**
 * Reads a token the target sends in its query from the link the person followed: apps that write
 * through links print a token per record in each row's link (WordPress's
 * `post.php?post=18&action=trash&_wpnonce=…`, nonce `trash-post_18`), so the token
 * is neither fresh per request nor the page's one token. When a page answered before the target
 * holds an `<a href>` whose query carries the token beside values the target sends too (the
 * record's id, the operation), the tool reads that page first and takes the token from the link
 * whose query holds those values as the run sends them (`_wpnonce?post={{input.p0}}&action=trash`,
 * the `link` extractor), so another record gets its own token. Only a query value that the
 * compile left constant, generated (`{{gen.*}}`) or an optional input holding just the recorded
 * token (the input is then dropped) is read so, and only when the recorded page's
 * first matching link is the one that carried it. Pure: the tool (unchanged when nothing
 * applies) out.
 */
export function readLinkTokens(tool: ToolSpec, trace: Trace): ToolSpec {
  const target = tool.steps[tool.steps.length - 1]!
  const exchange = trace.exchanges.find((e) => e.id === tool.evidence.targetExchangeId)
  if (!exchange) return tool
  const sent = queryEntries(exchange.url)
  const placed = templateQuery(target.request.url)
  if (placed.length !== sent.length || placed.some((p, i) => p.key !== sent[i]!.key)) return tool
  let steps = tool.steps.slice(0, -1)
  let url = target.request.url
  const signals: EvidenceSignal[] = []
  const dropped = new Set<string>()
  const unasked = new Set<string>()
  sent.forEach((entry, index) => {
    const text = placed[index]!.text
    const generated = /^\{\{\s*gen\./.test(text)
    // An optional input that only carries the recorded token (the endpoint was sent without it
    // first, so it varied) is no value of the caller's either.
    const slot = recordedSlot(tool, text, entry.value)
    const constant = text === encodeURIComponent(entry.value)
    if (!TOKEN.test(entry.value) || (!generated && !constant && !slot)) return
    const found = linkSource(trace, exchange, entry.key, entry.value, sent, placed)
    if (!found) return
    const { page, path } = found
    let step = steps.find((s) => s.exchangeId === page.id)
    if (!step) {
      step = pageStep(page)
      steps = [...steps, step].sort((a, b) => seqOf(trace, a) - seqOf(trace, b))
    }
    let name = entry.key.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '') || 'token'
    while (step.extract.some((x) => x.name === name)) name = `${name}_${step.extract.length}`
    const withToken = { ...step, extract: [...step.extract, { name, from: 'link' as const, path }] }
    steps = steps.map((s) => (s === step ? withToken : s))
    placed[index] = { key: entry.key, text: `{{step.${step.id}.${name}}}` }
    url = withQuery(url, placed)
    if (generated) dropped.add(`query:${entry.path}`)
    if (slot) unasked.add(slot)
    signals.push({
      name: 'dependency',
      weight: 0,
      detail: `query:${entry.path} comes from the link ${path} of ${page.method} ${new URL(page.url).pathname}`,
    })
  })
  if (!signals.length) return tool
  const last = { ...target, request: { ...target.request, url } }
  const all = [...steps, last]
  const properties = Object.fromEntries(
    Object.entries(tool.inputs.properties).filter(([name]) => !unasked.has(name)),
  )
  return {
    ...tool,
    inputs: { ...tool.inputs, properties },
    steps: all,
    evidence: {
      ...tool.evidence,
      exchangeIds: all.map((s) => s.exchangeId!).filter(Boolean),
      signals: [
        ...tool.evidence.signals.filter(
          (s) => !(s.name === 'generated' && [...dropped].some((d) => s.detail.startsWith(d))),
        ),
        ...signals,
      ],
    },
  }
}

/**
 * The name of the optional input whose whole placeholder is `text` and whose default is the
 * recorded `value`, when no other step sends it; null otherwise.
 */
function recordedSlot(tool: ToolSpec, text: string, value: string): string | null {
  const slot = WHOLE_PLACEHOLDER.exec(text)?.[1]?.replace(/^input\./, '')
  if (!slot || !/^p\d+$/.test(slot)) return null
  const entry = Object.entries(tool.inputs.properties).find(([, p]) => p['x-slot'] === slot)
  if (!entry || entry[1].default !== value || tool.inputs.required?.includes(entry[0])) return null
  return dependencyUses(tool.steps, slot) ? null : entry[0]
}

/**
 * The page before the target whose link carried `key=value`, and the link path that finds that
 * link by the other pairs of its query the target sends too (each as the target's template
 * sends it); null when no page has such a link, or its first match on the page is another link.
 */
function linkSource(
  trace: Trace,
  target: Exchange,
  key: string,
  value: string,
  sent: Array<{ key: string; value: string }>,
  placed: Array<{ key: string; text: string }>,
): { page: Exchange; path: string } | null {
  const host = new URL(target.url).host
  const earlier = trace.exchanges.filter((e) => e.seq < target.seq).reverse()
  for (const page of earlier) {
    const body = page.responseBody
    if (page.method !== 'GET' || page.status < 200 || page.status >= 300) continue
    // The page may write the token escaped (`%2A` for `*`): its longest plain run must be there.
    const core = (value.match(/[A-Za-z0-9]+/g) ?? []).sort((a, b) => b.length - a.length)[0]
    if (!body || body.encoding !== 'utf8' || !body.text.includes(core ?? value)) continue
    if (!mimeTypeOf(page.responseHeaders).includes('html') || new URL(page.url).host !== host)
      continue
    const $ = cheerio.load(body.text)
    const hrefs = $('a[href]')
      .map((_, a) => $(a).attr('href') ?? '')
      .get()
    for (const href of hrefs) {
      const params = new URL(href, page.url).searchParams
      if (params.get(key) !== value) continue
      const match: Array<[string, string]> = []
      sent.forEach((s, i) => {
        if (s.key !== key && params.getAll(s.key).includes(s.value))
          match.push([s.key, decodedText(placed[i]!.text)])
      })
      if (!match.length) continue
      const path = formatLinkQuery(key, match)
      // The run reads the first link that matches: with the recorded values it must be this one.
      const recorded = Object.fromEntries(
        sent.map((s, i) => [WHOLE_PLACEHOLDER.exec(placed[i]!.text)?.[1] ?? '', s.value]),
      )
      const query = parseLinkQuery(path)
      if (query && linkQueryValue(hrefs, query, recorded) === value) return { page, path }
    }
  }
  return null
}

/** A dependency step that reads a page as recorded (a GET with the headers a replay keeps). */
function pageStep(page: Exchange): ToolStep {
  return {
    id: `d${page.seq}`,
    exchangeId: page.id,
    request: {
      method: 'GET',
      url: page.url,
      headers: keptHeaders(page.requestHeaders, 'GET', httpUrl(page.url)?.host, { pageRead: true }),
      body: null,
    },
    extract: [],
  }
}

function seqOf(trace: Trace, step: ToolStep): number {
  return trace.exchanges.find((e) => e.id === step.exchangeId)?.seq ?? 0
}

/** The query of a URL template as `key` (decoded) and the template text of its value. */
function templateQuery(url: string): Array<{ key: string; text: string }> {
  return queryPairs(url).map(({ rawKey, text }) => ({ key: safeDecode(rawKey), text }))
}

/** The URL template with its query rebuilt from `pairs` (key encoded, text as placed). */
function withQuery(url: string, pairs: Array<{ key: string; text: string }>): string {
  const q = url.indexOf('?')
  const base = q < 0 ? url : url.slice(0, q)
  return `${base}?${pairs.map((p) => `${encodeURIComponent(p.key)}=${p.text}`).join('&')}`
}

/** A template's query text as a link path value: a placeholder as is, a literal decoded. */
function decodedText(text: string): string {
  return WHOLE_PLACEHOLDER.test(text) ? text : safeDecode(text)
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    // Malformed percent-encoding (a lone `%`): the text stands as written.
    return text
  }
}
