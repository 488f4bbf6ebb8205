import { randomUUID } from 'node:crypto'
import { isServiceError, ServiceError, type ErrorCode, type ErrorStatus } from '../../shared/errors'

/** JSON-RPC error code of a URL elicitation (MCP 2025-11-25 "URL mode elicitation"). */
const URL_ELICITATION_REQUIRED = -32042

/**
 * A JSON-RPC error as the MCP SDK's protocol layer sends it: it copies `code`, `message` and
 * `data` of a thrown value into the response, so the message is not prefixed like `McpError`'s.
 */
export class McpToolError extends Error {
  override readonly name = 'McpToolError'
  constructor(
    readonly code: number,
    message: string,
    readonly data: Record<string, unknown>,
  ) {
    super(message)
  }
}

/**
 * The numeric JSON-RPC code of a refusal by its HTTP status (interface.md "Errors" → "Shapes" 3): 401 is
 * -32001, 403 is -32003, 404 is -32004, anything else -32000.
 */
function jsonRpcCodeOf(status: number): number {
  if (status === 401) return -32001
  if (status === 403) return -32003
  if (status === 404) return -32004
  return -32000
}

/**
 * Renders any thrown value as the interface's MCP error (interface.md "Errors" → "Shapes" 3): the string code
 * in `data.code`, the REST body's extra fields in `data.details`, with `retryAfter` (seconds)
 * where the refusal names one. Non-service errors become `internal`.
 */
export function toMcpError(error: unknown): McpToolError {
  if (error instanceof McpToolError) return error
  const service = isServiceError(error)
    ? error
    : new ServiceError('internal', 'Internal error: retry once, then report it.')
  const { retryAfterSeconds, ...rest } = service.details
  const details: Record<string, unknown> = { ...rest }
  if (typeof retryAfterSeconds === 'number') details.retryAfter ??= retryAfterSeconds
  return new McpToolError(jsonRpcCodeOf(service.status), service.message, {
    code: service.code,
    ...(Object.keys(details).length ? { details } : {}),
  })
}

/**
 * A `ServiceError` rendered for MCP in one call: `mcpError('not_found', '...')`; the status
 * (which picks the JSON-RPC code) comes from the code's `ERROR_STATUS` entry unless given.
 */
export function mcpError<C extends ErrorCode>(
  code: C,
  message: string,
  details: Record<string, unknown> = {},
  status?: ErrorStatus<C>,
): McpToolError {
  return toMcpError(new ServiceError(code, message, details, status))
}

/**
 * The -32042 URL elicitation (interface.md "Errors" → "Shapes" 4): the person opens `url` (a site's
 * sign-in page, or the app's usage page), then the agent calls again. `code` is the error the
 * plain form would carry, kept in `data.code` so callers branch the same way.
 */
export function urlElicitation(
  code: ErrorCode,
  url: string,
  message: string,
  details: Record<string, unknown> = {},
): McpToolError {
  return new McpToolError(URL_ELICITATION_REQUIRED, message, {
    code,
    elicitations: [{ mode: 'url', elicitationId: randomUUID(), url, message }],
    ...(Object.keys(details).length ? { details } : {}),
  })
}
