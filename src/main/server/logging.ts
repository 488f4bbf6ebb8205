import type { FastifyReply } from 'fastify'

/** Where log lines go: anything with `write(line)` (stdout; a test's collector). */
export interface LogStream {
  write(line: string): void
}

/**
 * Pino options (Fastify's logger) for a team server node, passed as the core's `logger`: one
 * JSON object per line on `stream`, each with `time` (ISO 8601, UTC), `level` (its name),
 * `node`, `msg`, and for a request `reqId`. A request logs one line when it is answered,
 * `{msg:"request completed" | "request errored", reqId, method, route, path, status, ms}`, where
 * `route` is the route's pattern (`/v1/runs/:id`), `path` the URL without its query string (codes
 * and tokens some links carry in queries stay out), `ms` the time to answer. Fastify's
 * "incoming request" line (the whole URL, host and peer) and its "Server listening at" line (the
 * command logs its own) are not written. No header, cookie,
 * body or query is ever logged. `level` defaults to SITECALL_LOG_LEVEL's or `info`.
 */
export function serverLoggerOptions(
  nodeId: string,
  stream: LogStream,
  level = 'info',
): { level: string; stream: LogStream } {
  const options = {
    level,
    stream,
    base: { node: nodeId },
    timestamp: () => `,"time":"${new Date().toISOString()}"`,
    formatters: {
      level: (label: string) => ({ level: label }),
      log: (object: Record<string, unknown>) => {
        const reply = object.res as FastifyReply | undefined
        if (!reply || typeof reply.statusCode !== 'number' || !reply.request) return object
        const { res: _res, responseTime, req: _req, ...rest } = object
        const request = reply.request
        return {
          ...rest,
          method: request.method,
          route: request.routeOptions.url ?? 'unmatched',
          path: request.url.split('?')[0],
          status: reply.statusCode,
          ms: typeof responseTime === 'number' ? Math.round(responseTime * 100) / 100 : undefined,
        }
      },
    },
    hooks: {
      logMethod(this: unknown, args: unknown[], method: (...rest: unknown[]) => void): void {
        // Fastify's "incoming request" line carries the whole URL: the completed line says enough.
        // Its "Server listening at URL" line ends in the URL, which readers of the command's own
        // line (`listening at URL as node ID`) would take with the JSON's closing quote.
        const msg = typeof args[0] === 'string' ? args[0] : args[1]
        if (msg === 'incoming request') return
        if (typeof msg === 'string' && msg.startsWith('Server listening at ')) return
        method.apply(this, args)
      },
    },
  }
  return options
}

/**
 * Writes one line in the shape of `serverLoggerOptions`' (`level` info, `time`, `node`, `msg`
 * and `fields`) whatever the log level: the line a supervisor or a test waits for (`listening
 * at URL`) must not be filtered out by SITECALL_LOG_LEVEL=warn.
 */
export function writeLifecycleLine(
  stream: LogStream,
  nodeId: string,
  msg: string,
  fields: Record<string, unknown> = {},
): void {
  const line = { level: 'info', time: new Date().toISOString(), node: nodeId, ...fields, msg }
  stream.write(`${JSON.stringify(line)}\n`)
}
