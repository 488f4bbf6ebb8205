// MCP without the SDK's client: JSON-RPC over Streamable HTTP (MCP 2025-06-18, "Transports") with
// the same undici client and keep-alive Agent the REST side uses, so the time an MCP call takes
// beyond a REST call splits into what the server adds (this side) and what the SDK's client adds
// (the difference to ./mcp.ts's SDK side): the SDK client sends with `fetch` and checks every
// message with its schemas, which a server cannot make cheaper.
import { Agent, request } from 'undici'
import type { Run } from '../../src/shared/run'
import type { Call } from './clients'
import type { BenchEnv } from './setup'

/** The protocol version the raw client asks for and then names in `Mcp-Protocol-Version`. */
const PROTOCOL_VERSION = '2025-06-18'

export interface RawMcp {
  call: Call
  close(): Promise<void>
}

/**
 * Opens an MCP session on `env`'s `/mcp` by hand (initialize, then the initialized notification)
 * and returns a `tools/call` of the bench's tool that is ok when the run in the result succeeded.
 */
export async function connectRawMcp(env: BenchEnv): Promise<RawMcp> {
  const agent = new Agent({ keepAliveTimeout: 30_000 })
  const url = `${env.base}/mcp`
  const headers: Record<string, string> = {
    authorization: `Bearer ${env.key}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  }
  const post = (message: unknown) =>
    request(url, { method: 'POST', headers, body: JSON.stringify(message), dispatcher: agent })
  const opened = await post({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'sitecall-bench-raw', version: '1.0.0' },
    },
  })
  await opened.body.text()
  const session = opened.headers['mcp-session-id']
  if (opened.statusCode !== 200 || typeof session !== 'string')
    throw new Error(`MCP initialize answered HTTP ${opened.statusCode} without a session id.`)
  headers['mcp-session-id'] = session
  headers['mcp-protocol-version'] = PROTOCOL_VERSION
  await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).body.text()
  const query = Object.keys(env.tool.inputs.properties).find((k) => /query/i.test(k)) ?? 'query'
  let id = 1
  const call: Call = async (q) => {
    const res = await post({
      jsonrpc: '2.0',
      id: id++,
      method: 'tools/call',
      params: { name: env.tool.name, arguments: { [query]: q } },
    })
    const body = (await res.body.json()) as { result?: { structuredContent?: Partial<Run> } }
    const run = body.result?.structuredContent
    if (res.statusCode === 200 && run?.status === 'succeeded') return { ok: true }
    return { ok: false, reason: `HTTP ${res.statusCode} ${run?.status ?? 'no run'}` }
  }
  return {
    call,
    close: async () => {
      await (await request(url, { method: 'DELETE', headers, dispatcher: agent })).body.text()
      await agent.close()
    },
  }
}
