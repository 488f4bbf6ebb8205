import { parseArgs } from 'node:util'
import { setTimeout as delay } from 'node:timers/promises'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { isServiceError, ServiceError } from '../shared/errors'
import { readServeFile, SERVE_FILE, type ServeFile } from './mcp/serveFile'
import { createMcpSession } from './mcp/mcpServer'
import { parseApps } from './surface/toolsInScope'
import { createCore, LOCAL_TENANT } from './core'
import type { ToolRepository } from './store/toolRepository'
import { lockDataDir } from './store/dataDirLock'
import { dataDir } from './config'

/** How often the bridge looks for tools another process (`sitecall serve`) verified, in ms. */
const TOOL_POLL_MS = 2_000

/** How long `mcp` waits for a `serve` that holds the lock to write its serve file (starting). */
const SERVE_FILE_WAIT_MS = 15_000

/**
 * `sitecall mcp [--apps A,B]`: the MCP server over stdio for desktop clients that start a command.
 * Where nothing else runs the engine on SITECALL_HOME's data dir, it runs an
 * in-process core there (no HTTP listener) as the owner workspace, holding the data dir's lock.
 * Beside a running `sitecall serve` it bridges instead: every JSON-RPC message goes to that
 * process's `/mcp` (with `?apps=`) under the owner token the serve file gives (`serveFile.ts`),
 * so the same tools, runs and approvals are served by the one engine; the desktop app writes the
 * same file. Beside a holder that writes none (another `sitecall mcp`) it refuses, 409
 * `resource_locked`, saying to use the app's URL. Stdout carries only JSON-RPC; it ends when the
 * client closes stdin or on SIGINT/SIGTERM.
 */
export async function mcpCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { apps: { type: 'string' } } })
  const apps = parseApps(values.apps)
  const home = dataDir()
  let lock: ReturnType<typeof lockDataDir>
  try {
    lock = lockDataDir(home)
  } catch (error) {
    if (!isServiceError(error) || error.code !== 'resource_locked') throw error
    const holder = (error.details.holder ?? null) as { command?: unknown } | null
    const serving =
      typeof holder?.command === 'string' && /\bserve\b|desktop app/.test(holder.command)
    const running = serving ? await waitForServeFile(home) : readServeFile(home)
    if (!running)
      throw new ServiceError(
        'resource_locked',
        `${error.message} Only a running \`sitecall serve\` or desktop app can be bridged to (they write ${SERVE_FILE}); another \`sitecall mcp\` cannot: close it, or connect this client to the app's /mcp URL with an API key (Connect an agent).`,
        error.details,
      )
    return await bridge(home, running, apps)
  }
  const core = createCore({ rendererDir: null })
  const session = createMcpSession(
    {
      tools: core.store.tools,
      engine: core.engine,
      events: core.events,
      browse: core.browse,
      indexing: core.indexing,
      routers: core.routers,
    },
    {
      tenant: LOCAL_TENANT,
      owner: true,
      scopes: apps?.length ? [{ slug: null, apps, tools: [] }] : [],
      usageUrl: null,
    },
  )
  const transport = new StdioServerTransport()
  const ended = new Promise<void>((resolve) => {
    transport.onclose = resolve
    process.stdin.once('end', resolve)
    process.once('SIGINT', resolve)
    process.once('SIGTERM', resolve)
  })
  await session.server.connect(transport)
  // Tools verified by another process never reach this core's event bus: compare the table.
  let seen = toolsFingerprint(core.store.tools)
  const poll = setInterval(() => {
    const now = toolsFingerprint(core.store.tools)
    if (now === seen) return
    seen = now
    void session.server.sendToolListChanged().catch(() => undefined)
  }, TOOL_POLL_MS)
  poll.unref()
  try {
    await ended
  } finally {
    clearInterval(poll)
    session.dispose()
    await session.server.close().catch(() => undefined)
    // Runs in flight finish (a write left working would end outcome_unknown), but not forever.
    await Promise.race([core.engine.idle(), new Promise((resolve) => setTimeout(resolve, 10_000))])
    await core.close()
    lock.release()
  }
  return 0
}

/** Every tool's id, status and version time: changes when one is verified or quarantined. */
function toolsFingerprint(tools: ToolRepository): string {
  return tools
    .list()
    .map((t) => `${t.id}:${t.status}:${t.updatedAt}`)
    .join(',')
}

/** The serve file of a process that holds the lock, once it is written (null: none in time). */
async function waitForServeFile(home: string): Promise<ServeFile | null> {
  const until = Date.now() + SERVE_FILE_WAIT_MS
  for (;;) {
    const found = readServeFile(home)
    if (found || Date.now() >= until) return found
    await delay(200)
  }
}

/**
 * Relays JSON-RPC between this process's stdio and the running service's Streamable HTTP
 * `/mcp`: requests, answers and notifications both ways (the HTTP transport keeps the session
 * id, and the protocol version once the initialize answer names it). Each HTTP request carries
 * the owner token the serve file holds at that moment (serve renews it every 20 minutes). A
 * request the service cannot be reached for is answered with a JSON-RPC error saying so.
 */
async function bridge(home: string, running: ServeFile, apps: string[] | null): Promise<number> {
  const url = new URL('/mcp', running.url)
  if (apps?.length) url.searchParams.set('apps', apps.join(','))
  let token = running.token
  const remote = new StreamableHTTPClientTransport(url, {
    fetch: (input, init) => {
      token = readServeFile(home)?.token ?? token
      const headers = new Headers(init?.headers)
      headers.set('authorization', `Bearer ${token}`)
      return fetch(input, { ...init, headers })
    },
  })
  const local = new StdioServerTransport()
  const ended = new Promise<void>((resolve) => {
    local.onclose = resolve
    process.stdin.once('end', resolve)
    process.once('SIGINT', resolve)
    process.once('SIGTERM', resolve)
  })
  const initializing = new Set<string | number>()
  local.onmessage = (message: JSONRPCMessage) => {
    if (isJSONRPCRequest(message) && message.method === 'initialize') initializing.add(message.id)
    remote.send(message).catch((error: unknown) => {
      if (!isJSONRPCRequest(message)) return
      void local.send({
        jsonrpc: '2.0',
        id: message.id,
        error: {
          code: -32000,
          message: `Sitecall at ${running.url} did not answer (${(error as Error).message}): is \`sitecall serve\` still running?`,
        },
      })
    })
  }
  remote.onmessage = (message: JSONRPCMessage) => {
    if ('result' in message && initializing.delete(message.id)) {
      const version = (message.result as { protocolVersion?: unknown }).protocolVersion
      if (typeof version === 'string') remote.setProtocolVersion(version)
    }
    void local.send(message).catch(() => undefined)
  }
  remote.onerror = (error) => process.stderr.write(`sitecall mcp: ${error.message}\n`)
  await remote.start()
  await local.start()
  process.stderr.write(
    `sitecall mcp: bridging to ${url.origin}/mcp (sitecall serve, pid ${running.pid})\n`,
  )
  try {
    await ended
  } finally {
    await remote.terminateSession().catch(() => undefined)
    await remote.close().catch(() => undefined)
    await local.close().catch(() => undefined)
  }
  return 0
}
