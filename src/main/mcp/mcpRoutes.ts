import { randomUUID } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js'
import { isServiceError, ServiceError } from '../../shared/errors'
import type { Authenticator, Caller } from '../surface/caller'
import { createMcpSession, type McpDeps, type McpSession } from './mcpServer'
import { ownOriginsOf } from '../surface/localSites'
import { mcpRouteSchema, protectedResourceSchema } from './mcpContracts'
import { resolveToolScopes, type ScopeLookup, type ToolScope } from '../surface/toolsInScope'

export interface McpRouteDeps extends McpDeps {
  auth: Authenticator
  /** Finds a workspace's scope by slug. */
  scopes: ScopeLookup
  /** Milliseconds since the Unix epoch (idle sessions). */
  clock: () => number
  /** The tools of a caller's workspace. */
  toolsFor: (tenant: string) => McpDeps['tools']
}

/** OAuth 2.0 Protected Resource Metadata (RFC 9728 §3) of the MCP endpoint. */
const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource'
/** Scopes an MCP client may ask for; the OAuth server decides what each grants. */
const MCP_OAUTH_SCOPES = ['tools:read', 'tools:execute', 'tools:index']
/** A session no request touched for this long is closed; its client starts a new one on 404. */
const SESSION_IDLE_MS = 60 * 60_000

interface SessionEntry {
  transport: StreamableHTTPServerTransport
  session: McpSession
  tenant: string
  scopeKey: string
  lastSeen: number
}

/**
 * The MCP endpoint (interface.md "C"): Streamable HTTP at `/mcp` and `/mcp/{slug}`
 * (also `?scope=` and `?apps=`), stateful: each client's `initialize` opens a session (its own
 * MCP server and transport, id in `Mcp-Session-Id`), closed by `DELETE`, by idling an hour, or
 * by the server closing. Every request needs the bearer key of the session's workspace; without
 * credentials 401 with `WWW-Authenticate` pointing at the protected-resource metadata (interface.md
 * "Authentication" 6, RFC 9728 §5.1), which this also serves unless the OAuth routes already do.
 */
export function registerMcpRoutes(app: FastifyInstance, deps: McpRouteDeps): void {
  const endpoint: McpEndpoint = { deps, sessions: new Map() }
  const handle = (
    request: FastifyRequest<{ Params: { slug?: string }; Querystring: Record<string, unknown> }>,
    reply: FastifyReply,
  ) => handleMcpRequest(endpoint, request, reply)
  // One route per method: each has its own contract in the OpenAPI document.
  for (const url of ['/mcp', '/mcp/:slug'])
    for (const method of ['GET', 'POST', 'DELETE'] as const)
      app.route({ method, url, schema: mcpRouteSchema(method), handler: handle })
  registerProtectedResource(app)

  const sweep = setInterval(() => {
    const now = deps.clock()
    for (const [id, entry] of endpoint.sessions)
      if (now - entry.lastSeen > SESSION_IDLE_MS) dropSession(endpoint, id)
  }, 5 * 60_000)
  sweep.unref()
  // Before the listener closes: open event streams would hold it open.
  app.addHook('preClose', async () => {
    clearInterval(sweep)
    for (const id of [...endpoint.sessions.keys()]) dropSession(endpoint, id)
  })
}

/** The MCP endpoint's state: its parts and the open sessions by `Mcp-Session-Id`. */
interface McpEndpoint {
  deps: McpRouteDeps
  sessions: Map<string, SessionEntry>
}

/** Ends a session (when open): forgets it, disposes its server and closes its transport. */
function dropSession(endpoint: McpEndpoint, id: string | undefined): void {
  const entry = id === undefined ? undefined : endpoint.sessions.get(id)
  if (!entry) return
  endpoint.sessions.delete(id!)
  entry.session.dispose()
  void entry.transport.close().catch(() => undefined)
}

/**
 * One request to `/mcp`: authenticated, its scopes resolved, then given to its session's
 * transport, or, for an `initialize` without a session id, to a new session's.
 */
async function handleMcpRequest(
  endpoint: McpEndpoint,
  request: FastifyRequest<{ Params: { slug?: string }; Querystring: Record<string, unknown> }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { deps, sessions } = endpoint
  const base = `http://${request.headers.host}`
  const caller = authenticateMcp(deps, request, reply, base)
  if (!caller) return reply
  const scopes = resolveToolScopes(
    [request.params.slug, (request.query ?? {}).scope],
    (request.query ?? {}).apps,
    caller.tenant,
    deps.scopes,
  )
  // The grants belong to the session too: a narrower token must not ride a wider one's session.
  const scopeKey = JSON.stringify([scopes, caller.scopes])
  const sessionId = request.headers['mcp-session-id']
  if (typeof sessionId === 'string') {
    const entry = sessions.get(sessionId)
    // Another workspace's session id is answered like an unknown one: it must not leak.
    if (!entry || entry.tenant !== caller.tenant || entry.scopeKey !== scopeKey)
      throw new ServiceError(
        'not_found',
        'No such MCP session (it ended or expired): initialize a new one.',
      )
    entry.lastSeen = deps.clock()
    reply.hijack()
    await entry.transport.handleRequest(request.raw, reply.raw, request.body)
    return reply
  }
  const body = request.body
  const initializing =
    request.method === 'POST' &&
    (isInitializeRequest(body) || (Array.isArray(body) && body.some(isInitializeRequest)))
  if (!initializing)
    throw new ServiceError(
      'bad_request',
      'Send Mcp-Session-Id, or start a session with an initialize request.',
    )
  return openSession(endpoint, request, reply, { caller, scopes, scopeKey, base })
}

/** A new session for an `initialize` request: its own MCP server and transport. */
async function openSession(
  endpoint: McpEndpoint,
  request: FastifyRequest,
  reply: FastifyReply,
  opening: { caller: Caller; scopes: ToolScope[]; scopeKey: string; base: string },
): Promise<FastifyReply> {
  const { deps, sessions } = endpoint
  const { caller, scopes, scopeKey, base } = opening
  const tools = deps.toolsFor(caller.tenant)
  const session = createMcpSession(
    { ...deps, tools },
    {
      tenant: caller.tenant,
      owner: caller.owner,
      scopes,
      grants: caller.scopes,
      ownOrigins: ownOriginsOf(request),
      usageUrl: `${base}/app/#/usage`,
    },
  )
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: randomUUID,
    // Plain JSON answers: no tool call streams notifications of its own, and JSON is cheaper
    // than an event stream per request. Server-sent notifications use the GET stream.
    enableJsonResponse: true,
    onsessioninitialized: (id) => {
      sessions.set(id, {
        transport,
        session,
        tenant: caller.tenant,
        scopeKey,
        lastSeen: deps.clock(),
      })
    },
    onsessionclosed: (id) => dropSession(endpoint, id),
  })
  session.server.onclose = () => dropSession(endpoint, transport.sessionId)
  await session.server.connect(transport)
  reply.hijack()
  await transport.handleRequest(request.raw, reply.raw, request.body)
  // An initialize the transport refused opened no session: nothing else holds these.
  if (transport.sessionId === undefined || !sessions.has(transport.sessionId)) {
    session.dispose()
    await transport.close().catch(() => undefined)
  }
  return reply
}

/**
 * The caller, or null after answering 401 with the RFC 6750 §3 challenge carrying RFC 9728's
 * `resource_metadata` (and `error="invalid_token"` when a bearer value was sent but unknown).
 */
function authenticateMcp(
  deps: McpRouteDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  base: string,
): Caller | null {
  try {
    return deps.auth.authenticate(request)
  } catch (error) {
    if (!isServiceError(error) || error.status !== 401) throw error
    const sent = request.headers.authorization !== undefined
    void reply
      .status(401)
      .header(
        'www-authenticate',
        `Bearer resource_metadata="${base}${PROTECTED_RESOURCE_PATH}"${sent ? ', error="invalid_token"' : ''}`,
      )
      .send({ error: error.toBody() })
    return null
  }
}

/**
 * The protected-resource metadata (RFC 9728), unless the OAuth routes already serve it; §3.1:
 * the metadata of a resource with a path also lives under that path.
 */
function registerProtectedResource(app: FastifyInstance): void {
  const metadata = (request: FastifyRequest) => {
    const base = `http://${request.headers.host}`
    return {
      resource: `${base}/mcp`,
      authorization_servers: [base],
      scopes_supported: MCP_OAUTH_SCOPES,
      bearer_methods_supported: ['header'],
      resource_name: 'Sitecall MCP',
    }
  }
  for (const url of [PROTECTED_RESOURCE_PATH, `${PROTECTED_RESOURCE_PATH}/mcp`])
    if (!app.hasRoute({ method: 'GET', url }))
      app.get(
        url,
        { schema: protectedResourceSchema(url !== PROTECTED_RESOURCE_PATH) },
        async (request) => metadata(request),
      )
}
