import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js'
import { isServiceError } from '../../shared/errors'
import type { JsonSchema, ToolSpec } from '../../shared/toolSpec'
import { capacityError, timeoutError, type ToolRef } from '../engine/callTool'
import type { RunEngine } from '../engine/runEngine'
import type { ToolRepository } from '../store/toolRepository'
import { mcpError, toMcpError } from './mcpErrors'
import { mcpToolNames } from './toolNames'
import { inScope, toolsInScope, type ToolScope } from '../surface/toolsInScope'
import { balanceElicitation, MCP_DEADLINE_MS, runResult, type RunPresentation } from './runResults'

/** What a site-tool call knows of its connection. */
export interface SiteToolConnection extends RunPresentation {
  tenant: string
  scopes: ToolScope[]
  /** The app's usage page for balance elicitations, or null when none is served. */
  usageUrl: string | null
  /** How long a call waits for its run, in ms; default `MCP_DEADLINE_MS`. */
  deadlineMs?: number | undefined
}

/** JSON Schema keywords whose values are schemas (or maps or lists of them). */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions'])
const SCHEMA_VALUES = new Set(['items', 'additionalProperties', 'not', 'contains'])
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems'])

/**
 * A tool's input schema without the compiler's `x-` keywords (`x-slot`, `x-in`, `x-path`):
 * they are for the executor, and strict JSON Schema validators in clients refuse unknown
 * keywords. Property names are kept as they are.
 */
export function publicSchema(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {}
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith('x-')) continue
    if (SCHEMA_MAPS.has(key) && value && typeof value === 'object')
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, JsonSchema>).map(([k, v]) => [k, publicSchema(v)]),
      )
    else if (SCHEMA_VALUES.has(key) && value && typeof value === 'object')
      out[key] = publicSchema(value as JsonSchema)
    else if (SCHEMA_LISTS.has(key) && Array.isArray(value))
      out[key] = value.map((v: JsonSchema) => publicSchema(v))
    else out[key] = value
  }
  return out
}

/** A verified tool as MCP lists it: its schema, and hints from `mutating`. */
function toMcpTool(name: string, tool: ToolSpec): Tool {
  return {
    name,
    title: tool.intent || tool.name,
    description: `${tool.description} (site ${tool.siteHost}${tool.mutating ? '; changes data on the site' : ''})`,
    inputSchema: { ...publicSchema(tool.inputs), type: 'object' },
    annotations: {
      readOnlyHint: !tool.mutating,
      destructiveHint: tool.mutating,
      idempotentHint: !tool.mutating,
      openWorldHint: true,
    },
  }
}

/** Every verified tool of the connection's scope, as MCP tools, in the store's order. */
export function listSiteTools(tools: ToolRepository, scopes: ToolScope[]): Tool[] {
  const names = mcpToolNames(tools.list())
  const inView = new Set(
    toolsInScope(
      [...names.values()].filter((t) => t.status === 'verified'),
      scopes,
    ).map((t) => t.id),
  )
  return [...names].filter(([, tool]) => inView.has(tool.id)).map(([n, t]) => toMcpTool(n, t))
}

/**
 * The site tool an MCP name stands for, or null when the name is not a site tool; 403
 * `not_in_scope` outside the connection's scope. Its status rules (candidate, quarantined) are
 * the call operation's, as on every surface.
 */
export function findSiteTool(
  names: Map<string, ToolSpec>,
  name: string,
  scopes: ToolScope[],
): ToolSpec | null {
  const tool = names.get(name)
  if (!tool) return null
  if (!scopes.every((s) => inScope(tool, s)))
    throw mcpError('not_in_scope', `${name} is outside this connection's tool scope.`)
  return tool
}

/**
 * Calls a site tool through the engine's call operation as surface A does (may ask, bills on
 * success), waits up to the connection's deadline (default `MCP_DEADLINE_MS`), and answers the
 * run (see `runResult`). Refusals are thrown as MCP errors; an empty balance is a URL elicitation
 * for clients that take them. `pinned` calls (service_run's `capabilityId`) may run a candidate,
 * which its success verifies.
 */
export async function callSiteTool(
  engine: RunEngine,
  tool: ToolRef,
  args: Record<string, unknown>,
  connection: SiteToolConnection,
  pinned = false,
): Promise<CallToolResult> {
  try {
    const outcome = await engine.call({
      tool,
      inputs: args,
      tenant: connection.tenant,
      deadlineMs: connection.deadlineMs ?? MCP_DEADLINE_MS,
      mayAsk: true,
      billOnSuccess: true,
      candidates: pinned,
      admit: (t) => connection.scopes.every((s) => inScope(t, s)),
    })
    if (outcome.kind === 'timed_out') throw timeoutError(outcome)
    if (outcome.kind === 'refused_capacity') throw capacityError(outcome)
    return runResult(outcome.run, connection)
  } catch (error) {
    if (isServiceError(error))
      throw balanceElicitation(error, connection, connection.usageUrl) ?? toMcpError(error)
    throw toMcpError(error)
  }
}
