import type { TraceExchangeRow } from '../shared/appApi'
import type { Action } from '../shared/trace'

/** One step of a recording: what the person did and the requests that followed it. */
export interface TimelineStep {
  /** null: requests before the first action (the start page loading). */
  action: Action | null
  exchanges: TraceExchangeRow[]
}

/**
 * Ties each request to the action that caused it: a request belongs to the
 * last action at or before the time it started, until the next action. The recorder gives no
 * causal link, so time order is the best evidence it keeps; requests before the first action
 * form a first step with no action. Actions and requests keep their recorded order.
 */
export function timelineOf(actions: Action[], exchanges: TraceExchangeRow[]): TimelineStep[] {
  const ordered = [...actions].sort((a, b) => a.at - b.at || a.seq - b.seq)
  const steps: TimelineStep[] = [{ action: null, exchanges: [] }]
  for (const action of ordered) steps.push({ action, exchanges: [] })
  for (const exchange of [...exchanges].sort(
    (a, b) => a.startedAt - b.startedAt || a.seq - b.seq,
  )) {
    let index = 0
    for (let i = 0; i < ordered.length; i++) if (ordered[i]!.at <= exchange.startedAt) index = i + 1
    steps[index]!.exchanges.push(exchange)
  }
  return steps[0]!.exchanges.length ? steps : steps.slice(1)
}

/** The request types the filter offers, as DevTools groups them. */
export const EXCHANGE_FILTERS = ['all', 'fetch', 'document', 'other'] as const
export type ExchangeFilter = (typeof EXCHANGE_FILTERS)[number]

/** Resource types that carry data a tool is compiled from. */
const FETCH_TYPES = new Set(['fetch', 'xhr', 'eventsource', 'websocket'])

/**
 * The requests shown for a filter and a search text: `fetch` keeps fetch/XHR, `document` page
 * loads and form posts, `other` the rest (scripts, images…); the search matches the method, URL
 * or status, ignoring case.
 */
export function filterExchanges(
  rows: TraceExchangeRow[],
  filter: ExchangeFilter,
  search: string,
): TraceExchangeRow[] {
  const term = search.trim().toLowerCase()
  return rows.filter((row) => {
    const kind = FETCH_TYPES.has(row.resourceType)
      ? 'fetch'
      : row.resourceType === 'document'
        ? 'document'
        : 'other'
    if (filter !== 'all' && kind !== filter) return false
    if (!term) return true
    return `${row.method} ${row.url} ${row.status}`.toLowerCase().includes(term)
  })
}
