import type { ApiScope } from '../../shared/apiScopes'
import { ServiceError } from '../../shared/errors'

/** Service tools that observe sites in the local browser: REST's `tools:index` routes. */
const INDEX_TOOLS = new Set([
  'service_index',
  'service_browse_open',
  'snapshot',
  'act',
  'finish',
  'close',
])

/**
 * The OAuth scope an MCP tool call needs, the same as its REST twin in
 * `oauth/routeScopes.ts`: indexing and browse calls need `tools:index` (`POST /v1/index`,
 * `/v1/browser`); site tools, `service_run`, `service_compose`, `service_resume` and `service_inspect` need
 * `tools:execute` (site calls and `/api/v1/runs`). A name that is no service tool is a site tool.
 */
function requiredScope(toolName: string): ApiScope {
  return INDEX_TOOLS.has(toolName) ? 'tools:index' : 'tools:execute'
}

/** Whether a connection holding `grants` may call (and so see listed) the tool `toolName`. */
export function mayCall(grants: readonly ApiScope[], toolName: string): boolean {
  return grants.includes(requiredScope(toolName))
}

/**
 * Refuses a call the connection's grants do not cover: 403 `forbidden` naming the scope (spec
 * "Authentication" 4, "Account API status meanings"; MCP maps it to -32003 with `data.code`).
 */
export function assertMayCall(grants: readonly ApiScope[], toolName: string): void {
  const scope = requiredScope(toolName)
  if (!grants.includes(scope))
    throw new ServiceError(
      'forbidden',
      `This token lacks the scope "${scope}" that ${toolName} needs: sign in again asking for it.`,
      { scope },
    )
}
