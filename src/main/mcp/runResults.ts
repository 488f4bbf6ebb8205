import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { isServiceError } from '../../shared/errors'
import { toPublicRun } from '../engine/runEngine'
import { publicRunJson } from '../engine/runJson'
import type { RunRecord } from '../store/runRepository'
import { mcpError, urlElicitation, type McpToolError } from './mcpErrors'

/**
 * How long an MCP call waits for its run, in ms: under the 60 s request timeout of the SDK's
 * clients, so the agent gets `run_timeout` with the run id instead of its own timeout.
 */
export const MCP_DEADLINE_MS = 50_000

/** What the presentation of a run needs to know of the connection. */
export interface RunPresentation {
  /** The client declared `capabilities.elicitation.url` at initialize. */
  urlElicitation: boolean
}

/** A JSON value as a tool result: the text for every client, structured content for new ones. */
export function jsonResult(value: unknown, isError = false): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(value) }],
    structuredContent: value as Record<string, unknown>,
    ...(isError ? { isError: true } : {}),
  }
}

/**
 * A run as an MCP tool result (interface.md "Errors" → "Shapes" 3): a run that ended without success
 * (`failed`, `outcome_unknown`, `cancelled`, `expired`) is a normal result with `isError: true`,
 * never a JSON-RPC error; `input_required` is not a failure. Two failures are refused instead:
 * a missing login when the client takes URL elicitations (-32042 with the sign-in URL, spec
 * "Shapes" 4), and `browser_capacity`, which REST answers 429/503 with `Retry-After`.
 */
export function runResult(record: RunRecord, presentation: RunPresentation): CallToolResult {
  const error = record.error
  if (record.status === 'failed' && error?.code === 'browser_capacity')
    throw mcpError(
      'browser_capacity',
      error.message,
      {
        runId: record.runId,
        retryAfter: typeof error.retryAfterSeconds === 'number' ? error.retryAfterSeconds : 30,
      },
      error.waited === false ? 429 : 503,
    )
  if (
    record.status === 'failed' &&
    record.signIn &&
    presentation.urlElicitation &&
    (error?.code === 'session_or_permission' || error?.code === 'mfa_required')
  )
    throw urlElicitation(
      error.code,
      record.signIn.url,
      `Sign in to the site in your browser and save the login in Sitecall, then call again. ${error.message}`,
      { runId: record.runId },
    )
  return plainRunResult(record)
}

/**
 * A run as a tool result without refusals (inspection): `isError` when it ended unsuccessful.
 * The text block carries the result's stored bytes as they are (one serialization per call: the
 * SDK's of the structured content).
 */
export function plainRunResult(record: RunRecord): CallToolResult {
  const run = toPublicRun(record)
  const isError = !['succeeded', 'input_required', 'accepted', 'working'].includes(run.status)
  return {
    content: [{ type: 'text', text: publicRunJson(record) }],
    structuredContent: run as unknown as Record<string, unknown>,
    ...(isError ? { isError: true } : {}),
  }
}

/**
 * An empty balance as a URL elicitation when the client takes them and a usage page is known
 * (interface.md "Errors" → "Shapes" 4); otherwise null and the caller sends the plain 402.
 */
export function balanceElicitation(
  error: unknown,
  presentation: RunPresentation,
  usageUrl: string | null,
): McpToolError | null {
  if (!presentation.urlElicitation || !usageUrl) return null
  if (!isServiceError(error) || error.status !== 402) return null
  return urlElicitation(
    error.code,
    usageUrl,
    `${error.message} Open the usage page, then call again.`,
  )
}
