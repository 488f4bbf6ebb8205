/**
 * What the page did with an answer after the person committed: the names they clicked and the
 * addresses the page loaded. An answer holding one of them is an answer the page showed.
 */
import type { Action, Exchange } from '../../shared/trace'
import { httpUrl } from '../../shared/urls'

/** The trace around the candidates: what tells which answer the page showed. */
export interface PageContext {
  actions: Action[]
  /** Every exchange of the trace, in order (assets included: the page loads what it shows). */
  exchanges: Exchange[]
  intent?: string
}

/** A text the page used after the commit, with when and how. */
export interface Probe {
  text: string
  at: number
  what: string
  /** The route of the request the probe came from (see {@link routeOf}); null for a click. */
  route?: string
}

/** Display strings after the commit are matched against answers only when at least this long. */
const MIN_SHOWN_LENGTH = 4
const MAX_SHOWN_PROBES = 120

/** A request's route: method, host and path but its last segment (`GET h/-/data/search/*`). */
export function routeOf(exchange: Exchange): string {
  const url = httpUrl(exchange.url)
  const path = (url?.pathname ?? '').replace(/\/[^/]*\/?$/, '/*')
  return `${exchange.method} ${url?.host ?? ''}${path}`
}

/**
 * What the page did with an answer after the commit: the names of what the person clicked and
 * the URLs the page loaded (images, pages, API calls). An answer holding them is one the page
 * showed. Bounded, so the scan stays linear in the trace.
 */
export function shownProbes(context: PageContext, committedAt: number | null): Probe[] {
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
    const url = httpUrl(e.url)
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
