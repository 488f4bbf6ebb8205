import { headerValue, type Exchange, type Trace } from '../../../shared/trace'
import { redactSecrets } from '../redactSecrets'
import { entryToExchange } from './importEntry'
import type { HarEntry, HarPage } from './types'
import { safeUrl } from '../../../shared/safeJson'

export interface HarImportOptions {
  /** `trc_<ulid>` of the new trace. */
  traceId: string
  /** The intent the trace is compiled for; HARs carry none. */
  intent: string
  /** Milliseconds since the Unix epoch: `createdAt` when the HAR has no parseable time. */
  now: number
  /** Bodies larger than this many bytes are left out (null); default 25 MiB, as recording. */
  maxBodyBytes?: number
}

const DEFAULT_MAX_BODY_BYTES = 25 * 1024 * 1024

/**
 * Builds a trace from HAR pages and entries fed one at a time, in file order, so a streaming
 * reader keeps only the exchanges (and their bodies) in memory. Page URLs are resolved at the end
 * because a HAR may list `pages` after `entries`.
 */
export class HarTraceBuilder {
  private readonly pages: HarPage[] = []
  private readonly exchanges: Exchange[] = []
  private readonly pagerefs = new Map<number, string>()
  private readonly maxBodyBytes: number

  constructor(private readonly options: HarImportOptions) {
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  }

  addPage(page: HarPage): void {
    if (page && typeof page.id === 'string') this.pages.push(page)
  }

  /** Converts one entry; throws a TypeError naming the entry when it has no method or URL. */
  addEntry(entry: HarEntry): void {
    const seq = this.exchanges.length + 1
    const exchange = entryToExchange(entry, seq, {
      maxBodyBytes: this.maxBodyBytes,
      fallbackStartedAt: this.exchanges.at(-1)?.startedAt ?? this.options.now,
    })
    if (typeof entry.pageref === 'string') this.pagerefs.set(seq, entry.pageref)
    this.exchanges.push(exchange)
  }

  /**
   * The trace: exchanges in order of `startedDateTime` (stable, so equal times keep file order),
   * renumbered `exc_1..n`, each with its page URL, run through the recorder's secret redaction
   * (with the names of the password fields the HAR's own pages show). HARs hold no actions; the
   * storage state is what the requests' `Cookie` headers carried last (an
   * imported HAR carries cookies, which can become the site's login), else null.
   */
  finish(): Trace {
    const documentOfPage = new Map<string, string>()
    for (const exchange of this.exchanges) {
      const ref = this.pagerefs.get(exchange.seq)
      if (ref && !documentOfPage.has(ref) && isDocument(exchange))
        documentOfPage.set(ref, exchange.url)
    }
    const pageUrls = new Map<string, string>()
    for (const page of this.pages) {
      const url = isHttpUrl(page.title) ? page.title : documentOfPage.get(page.id)
      if (url) pageUrls.set(page.id, url)
    }
    const ordered = this.exchanges
      .map((exchange, index) => ({ exchange, index }))
      .sort((a, b) => a.exchange.startedAt - b.exchange.startedAt || a.index - b.index)
    let currentDocument: string | null = null
    const secretNames = passwordFieldNames(this.exchanges)
    const exchanges = ordered.map(({ exchange }, index) => {
      const ref = this.pagerefs.get(exchange.seq)
      const referer = exchange.requestHeaders.referer
      if (isDocument(exchange)) currentDocument = exchange.url
      const pageUrl =
        (ref ? pageUrls.get(ref) : undefined) ??
        (isDocument(exchange) ? exchange.url : undefined) ??
        (referer && isHttpUrl(referer) ? referer : undefined) ??
        currentDocument ??
        exchange.url
      const renumbered = { ...exchange, id: `exc_${index + 1}`, seq: index + 1, pageUrl }
      return redactSecrets(renumbered, secretNames)
    })
    const firstPage = this.pages[0] ? pageUrls.get(this.pages[0].id) : undefined
    const startUrl = firstPage ?? exchanges.find(isDocument)?.url ?? exchanges[0]?.url ?? ''
    const pageStart = Date.parse(this.pages[0]?.startedDateTime ?? '')
    return {
      id: this.options.traceId,
      intent: this.options.intent,
      startUrl,
      createdAt: Number.isNaN(pageStart)
        ? (exchanges[0]?.startedAt ?? this.options.now)
        : pageStart,
      exchanges,
      actions: [],
      storageState: cookiesSent(exchanges),
    }
  }
}

/** The `name`s of `<input type="password">` fields in the HTML pages of a HAR. */
function passwordFieldNames(exchanges: Exchange[]): string[] {
  const names = new Set<string>()
  for (const e of exchanges) {
    const body = e.responseBody
    if (!body || body.encoding !== 'utf8' || !/<input/i.test(body.text)) continue
    for (const tag of body.text.match(/<input\b[^>]*>/gi) ?? []) {
      if (!/\btype\s*=\s*["']?password\b/i.test(tag)) continue
      const name = /\bname\s*=\s*["']([^"']+)["']/i.exec(tag)?.[1]
      if (name) names.add(name)
    }
  }
  return [...names]
}

/**
 * The cookies the browser sent, as a storage state: per host, each cookie's last value from the
 * requests' `Cookie` headers (RFC 6265 §5.4); session cookies on path `/`. Null when none.
 */
function cookiesSent(exchanges: Exchange[]): Trace['storageState'] {
  const byKey = new Map<string, { name: string; value: string; domain: string }>()
  for (const e of exchanges) {
    const header = headerValue(e.requestHeaders, 'cookie')
    if (!header) continue
    const host = safeUrl(e.url)?.hostname
    if (host === undefined) continue
    for (const pair of header.split(/;\s*/)) {
      const eq = pair.indexOf('=')
      if (eq <= 0) continue
      const name = pair.slice(0, eq).trim()
      byKey.set(`${host} ${name}`, { name, value: pair.slice(eq + 1).trim(), domain: host })
    }
  }
  if (!byKey.size) return null
  return {
    cookies: [...byKey.values()].map((c) => ({ ...c, path: '/', expires: -1 })),
    origins: [],
  }
}

function isDocument(exchange: Exchange): boolean {
  return exchange.resourceType === 'document'
}

function isHttpUrl(text: string | undefined): text is string {
  return typeof text === 'string' && /^https?:\/\/\S+$/i.test(text)
}
