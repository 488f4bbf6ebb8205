import type { TraceDetail } from '../../shared/appApi'
import { ServiceError } from '../../shared/errors'
import { summarizeTool } from '../../shared/toolSpec'
import { summarizeExchange, type Exchange, type Trace } from '../../shared/trace'
import { exportHar, type Har } from '../recorder/har'
import type { Store } from '../store/store'
import { exchangeWithoutCredentials, withoutCredentials } from '../store/traceCredentials'

/** Sitecall's version as HAR's `log.creator.version`. */
const VERSION = '0.1.0'

function traceOr404(store: Pick<Store, 'traces'>, id: string): Trace {
  const trace = store.traces.get(id)
  if (!trace) throw new ServiceError('not_found', `No trace ${id}.`)
  return trace
}

/**
 * A trace as the Traces view opens it: its requests without bodies (those come
 * one at a time, `traceExchange`), its actions, and the tools compiled from it. 404 `not_found`.
 */
export function traceDetail(store: Pick<Store, 'traces' | 'tools'>, id: string): TraceDetail {
  // The UI shows requests, not logins: no cookie, Authorization or userinfo.
  const trace = withoutCredentials(traceOr404(store, id))
  const { exchanges, actions, intent, startUrl, createdAt } = trace
  return {
    trace: { id, intent, startUrl, createdAt, exchangeCount: exchanges.length },
    exchanges: exchanges.map((e) => ({
      ...summarizeExchange(e),
      startedAt: e.startedAt,
      pageUrl: e.pageUrl,
    })),
    actions,
    tools: store.tools
      .list()
      .filter((t) => t.evidence.traceId === id)
      .map(summarizeTool),
  }
}

/** One exchange of a trace, bodies included; 404 `not_found` for either id. */
export function traceExchange(
  store: Pick<Store, 'traces'>,
  traceId: string,
  exchangeId: string,
): Exchange {
  const exchange = store.traces.getExchange(traceId, exchangeId)
  if (!exchange) throw new ServiceError('not_found', `No exchange ${exchangeId} in ${traceId}.`)
  return exchangeWithoutCredentials(exchange)
}

/** The trace as HAR 1.2, credentials left out, with a file name from its id (`trc_….har`); 404 `not_found`. */
export function traceHar(store: Pick<Store, 'traces'>, id: string): { fileName: string; har: Har } {
  const trace = withoutCredentials(traceOr404(store, id))
  return { fileName: `${id}.har`, har: exportHar(trace, { version: VERSION }) }
}
