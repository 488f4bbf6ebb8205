import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js'
import type { EventBus } from '../events'
import type { Indexing } from '../browse/indexJobs'
import type { RunEngine } from '../engine/runEngine'
import type { ToolRepository } from '../store/toolRepository'
import type { LocalSitesOf } from '../surface/localSites'
import { mcpError, toMcpError } from './mcpErrors'
import { callServiceTool, isServiceTool, listServiceTools, type McpBrowse } from './serviceTools'
import { createRouteIntent } from './routeIntent'
import type { ToolRouters } from '../surface/toolRouters'
import { callSiteTool, findSiteTool, listSiteTools } from './siteTools'
import { createToolNameTable } from './toolNames'
import { inScope, type ToolScope } from '../surface/toolsInScope'
import { assertMayCall, mayCall } from './mcpScopes'
import { ALL_API_SCOPES, type ApiScope } from '../../shared/apiScopes'

/** The parts of the core an MCP server uses. */
export interface McpDeps {
  tools: ToolRepository
  engine: RunEngine
  events: EventBus
  /** Browse sessions (the browser calls). */
  browse: McpBrowse
  /** The service's tool routers: `service_run` ranks with the one of this session's verified tools. */
  routers: ToolRouters
  /** Observes a URL and compiles a tool (`service_index`). */
  indexing: Pick<Indexing, 'index'>
  /** The owner's allowed local sites per workspace; absent: none. */
  localSites?: LocalSitesOf | undefined
  /** How long a tool call waits for its run, in ms; default `MCP_DEADLINE_MS` (50 s). */
  deadlineMs?: number | undefined
}

/** Who an MCP connection acts for, and what it may see. */
export interface McpConnection {
  tenant: string
  owner: boolean
  /** Every scope must admit a tool (a slug scope and `?apps=`); empty: unscoped. */
  scopes: ToolScope[]
  /**
   * The OAuth scopes the bearer holds: a tool whose call needs one it lacks is
   * neither listed nor called. Default every scope (API keys, the owner, the stdio bridge).
   */
  grants?: readonly ApiScope[] | undefined
  /** This server's own origins (its `/demo/` pages may be indexed, interface.md "B" rule 3). */
  ownOrigins?: readonly string[] | undefined
  /** The app's usage page for balance elicitations, or null (no page to send the person to). */
  usageUrl: string | null
}

export interface McpSession {
  server: Server
  /** Stops listening for tool changes; the transport is closed by its owner. */
  dispose(): void
}

const MCP_SERVER_INFO = { name: 'sitecall', version: '0.1.0' }

/**
 * One MCP server per client connection (the SDK binds a `Server` to one transport), on the
 * low-level `Server` so a thrown refusal stays a JSON-RPC error with the interface's `data.code`
 * (interface.md "Errors" → "Shapes" 3) instead of becoming an `isError` result. Lists the scope's
 * verified site tools and the service tools; tells the client `notifications/tools/list_changed`
 * when a tool of its scope is verified, quarantined or let out (the core's `tools.changed`).
 */
export function createMcpSession(deps: McpDeps, connection: McpConnection): McpSession {
  const server = new Server(MCP_SERVER_INFO, {
    capabilities: { tools: { listChanged: true } },
    instructions:
      'Sitecall runs private tools compiled from web workflows. Call a site tool by name; a run that waits on input_required is continued with service_resume; browse a site with service_browse_open, snapshot, act, finish to make a new tool.',
  })

  const route = createRouteIntent(deps.tools, deps.routers.running(deps.tools))
  const services = { ...deps, route }
  const names = createToolNameTable(deps.tools)
  const grants = connection.grants ?? ALL_API_SCOPES
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...listSiteTools(deps.tools, connection.scopes), ...listServiceTools()].filter((t) =>
      mayCall(grants, t.name),
    ),
  }))

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name } = request.params
    const args = request.params.arguments ?? {}
    const elicitUrl = server.getClientCapabilities()?.elicitation?.url !== undefined
    const context = { ...connection, urlElicitation: elicitUrl, deadlineMs: deps.deadlineMs }
    try {
      assertMayCall(grants, name)
      if (isServiceTool(name)) return await callServiceTool(services, context, name, args)
      const tool = findSiteTool(names(), name, connection.scopes)
      if (!tool) throw mcpError('not_found', `No tool ${name}: tools/list names them.`)
      return await callSiteTool(deps.engine, { tool }, args, context)
    } catch (error) {
      throw toMcpError(error)
    }
  })

  const unsubscribe = deps.events.on('tools.changed', ({ tool }) => {
    if (connection.scopes.every((s) => inScope(tool, s)))
      void server.sendToolListChanged().catch(() => undefined)
  })
  return { server, dispose: unsubscribe }
}
