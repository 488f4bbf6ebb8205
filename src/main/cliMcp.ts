import { parseArgs } from 'node:util'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { createMcpSession } from './mcp/mcpServer'
import { parseApps } from './mcp/toolsInScope'
import { createCore, LOCAL_TENANT } from './core'
import type { ToolRepository } from './store/toolRepository'
import { lockDataDir } from './store/dataDirLock'
import { dataDir } from './config'

/** How often the bridge looks for tools another process (`sitecall serve`) verified, in ms. */
const TOOL_POLL_MS = 2_000

/**
 * `sitecall mcp [--apps A,B]`: the MCP server over stdio for desktop clients that start a command
 *. It runs an in-process core on SITECALL_HOME's data dir, with no HTTP listener,
 * as the owner workspace. It runs the engine, so it takes the data dir's lock: beside a running
 * `serve` or desktop app it refuses (409 `resource_locked`, naming that process).
 * Stdout carries only JSON-RPC; it ends when the client closes stdin or on SIGINT/SIGTERM.
 */
export async function mcpCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { apps: { type: 'string' } } })
  const apps = parseApps(values.apps)
  // The bridge runs the engine: it refuses beside a running serve or desktop app.
  const lock = lockDataDir(dataDir())
  const core = createCore({ rendererDir: null })
  const session = createMcpSession(
    {
      tools: core.store.tools,
      engine: core.engine,
      events: core.events,
      browse: core.browse,
      indexing: core.indexing,
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
