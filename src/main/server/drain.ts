import type { FastifyInstance } from 'fastify'

export interface Drain {
  /** True once `drain()` was called. */
  readonly draining: boolean
  /** HTTP requests being answered now, long-lived streams (event streams, WebSockets) aside. */
  readonly inFlight: number
  /**
   * Starts draining: from now on every request but `exempt` paths is answered 503 `unavailable`
   * (`Retry-After: 1`, `Connection: close`); resolves when the requests being answered have been
   * answered and `idle()` (the run engine's: every run started is final or waiting) resolved, or
   * when `deadlineMs` passed, whichever comes first. `drained` false: the deadline came first.
   */
  drain(): Promise<{ drained: boolean; inFlight: number; ms: number }>
}

export interface DrainOptions {
  /** Resolves when no run is in flight (`engine.idle`). */
  idle: () => Promise<void>
  /** Longest the drain waits, ms (default 30,000). */
  deadlineMs?: number
  /** Paths still answered while draining (health, readiness, metrics). */
  exempt?: ReadonlySet<string>
  /** Who this node is, for the 503's message. */
  nodeId: string
}

/** A request that stays open by design: the UI's event stream or a WebSocket upgrade. */
function longLived(headers: Record<string, string | string[] | undefined>): boolean {
  const accept = headers.accept
  return (
    headers.upgrade !== undefined ||
    (typeof accept === 'string' && accept.includes('text/event-stream'))
  )
}

/**
 * Graceful shutdown for a team server node: the node keeps its port open while it
 * drains, so a request that reaches it during the drain (a load balancer's last one, a keep-alive
 * connection) gets a clear 503 that a client or the balancer retries on another node, rather
 * than a refused connection or a reset. Requests already being answered (a synchronous call
 * waiting for its run) and runs already started finish within the deadline. Adds one `onRequest`
 * hook to `app` (call before it listens).
 */
export function createDrain(app: FastifyInstance, options: DrainOptions): Drain {
  const deadlineMs = options.deadlineMs ?? 30_000
  const exempt = options.exempt ?? new Set<string>()
  let draining = false
  let inFlight = 0
  let settled: (() => void) | null = null
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0]!
    if (draining && !exempt.has(path)) {
      void reply.header('retry-after', '1').header('connection', 'close')
      return reply.status(503).send({
        error: {
          code: 'unavailable',
          message: `Node ${options.nodeId} is shutting down: retry, another node answers.`,
        },
      })
    }
    if (longLived(request.headers)) return
    inFlight++
    reply.raw.once('close', () => {
      inFlight--
      if (inFlight === 0) settled?.()
    })
  })
  return {
    get draining() {
      return draining
    },
    get inFlight() {
      return inFlight
    },
    async drain() {
      draining = true
      const started = Date.now()
      const requestsDone =
        inFlight === 0 ? Promise.resolve() : new Promise<void>((r) => (settled = r))
      let timer: NodeJS.Timeout | undefined
      const deadline = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), deadlineMs)
      })
      const drained = await Promise.race([
        Promise.all([requestsDone, options.idle()]).then(() => true),
        deadline,
      ])
      clearTimeout(timer)
      return { drained, inFlight, ms: Date.now() - started }
    },
  }
}
