// MCP tool-call overhead (issue 5 "Done when": `npm run bench`): the same verified search tool
// called through MCP (official SDK client, Streamable HTTP, one session) and through a direct
// surface-A REST call, and as raw JSON-RPC (./mcpRaw.ts), sequential, in batches that go round the
// three; the raw side splits the overhead into the server's and the SDK client's. Writes
// bench-results/mcp.json. Run alone: `npx tsx test/bench/mcp.ts`.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Run } from '../../src/shared/run'
import { createClients, type Call } from './clients'
import { connectRawMcp } from './mcpRaw'
import type { FailureTally } from './failures'
import { startBench, type BenchEnv } from './setup'
import { QUERIES } from './config'
import { ratio, type LatencySummary } from './stats'
import { measureSequential } from './surfaceA'

const OUT = fileURLToPath(new URL('../../bench-results/mcp.json', import.meta.url))

export interface McpBenchResults {
  /** ISO 8601, when this part started. */
  date: string
  tool: string
  /** Measured calls per side (BENCH_MCP_N, default 300), after 30 unmeasured ones each. */
  n: number
  rest: LatencySummary
  mcp: LatencySummary
  /** MCP / REST: how many times slower a tool call over MCP is. */
  ratio: { p50: number; p99: number; mean: number }
  /** MCP p50 − REST p50, in milliseconds: what the MCP layer adds to one call. */
  overheadP50Ms: number
  /**
   * The same call as raw JSON-RPC over the REST side's undici client (./mcpRaw.ts), in the same
   * interleaved batches: `overheadP50Ms` over REST is what the server's MCP layer adds; the SDK
   * client adds the rest of the MCP overhead.
   */
  server: { mcp: LatencySummary; overheadP50Ms: number }
  failures: { rest: FailureTally; mcp: FailureTally; raw: FailureTally }
}

/**
 * `fetch` with a signal of its own per POST, tied to the transport's for as long as the request
 * is in flight. The SDK's client transport passes one signal to every request, and undici's
 * fetch leaves a listener on it per request until GC: after a few thousand calls each new call
 * walks thousands of listeners, so the client, not the server, made MCP look slow (seen in the
 * bench's profile; samanhappy/mcphub#1062 describes the same leak). The GET event stream keeps
 * the shared signal, so closing the client still ends it.
 */
const requestScopedFetch = async (url: string | URL, init?: RequestInit): Promise<Response> => {
  const shared = init?.signal
  if (!shared || init.method !== 'POST') return fetch(url, init)
  const own = new AbortController()
  const abort = () => own.abort(shared.reason)
  shared.addEventListener('abort', abort, { once: true })
  try {
    return await fetch(url, { ...init, signal: own.signal })
  } finally {
    shared.removeEventListener('abort', abort)
  }
}

/** The official SDK client over Streamable HTTP, connected to `env`'s `/mcp` with its key. */
export async function connectMcp(env: BenchEnv): Promise<Client> {
  const client = new Client({ name: 'sitecall-bench', version: '1.0.0' })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${env.base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${env.key}` } },
      fetch: requestScopedFetch,
    }),
  )
  return client
}

/** One MCP `tools/call` of the bench's tool; ok when the run in the result `succeeded`. */
export function mcpCall(client: Client, env: BenchEnv): Call {
  const query = Object.keys(env.tool.inputs.properties).find((k) => /query/i.test(k)) ?? 'query'
  return async (q) => {
    const result = await client.callTool({ name: env.tool.name, arguments: { [query]: q } })
    const run = result.structuredContent as Partial<Run> | undefined
    if (run?.status === 'succeeded') return { ok: true }
    return { ok: false, reason: `${run?.status ?? 'no run'} ${run?.error?.code ?? ''}`.trim() }
  }
}

/**
 * Measures MCP against REST on `env`'s core and prints a short table; the figures are one run's
 * ratios (docs/architecture.md "Tests"), never asserted.
 */
export async function runMcpBench(
  env: BenchEnv,
  queries: readonly string[],
  n = Number(process.env.BENCH_MCP_N ?? 300),
): Promise<McpBenchResults> {
  const date = new Date().toISOString()
  const client = await connectMcp(env)
  const raw = await connectRawMcp(env)
  const rest = createClients(env)
  try {
    const measured = await measureSequential(
      { rest: rest.sitecall, mcp: mcpCall(client, env), raw: raw.call },
      queries,
      { n, warmup: 30, batch: 50 },
    )
    const [r, m, w] = [measured.rest.latency, measured.mcp.latency, measured.raw.latency]
    const results: McpBenchResults = {
      date,
      tool: env.tool.name,
      n,
      rest: r,
      mcp: m,
      ratio: { p50: ratio(m.p50, r.p50), p99: ratio(m.p99, r.p99), mean: ratio(m.mean, r.mean) },
      overheadP50Ms: m.p50 - r.p50,
      server: { mcp: w, overheadP50Ms: w.p50 - r.p50 },
      failures: {
        rest: measured.rest.failures,
        mcp: measured.mcp.failures,
        raw: measured.raw.failures,
      },
    }
    const ms = (x: number) => x.toFixed(2).padStart(8)
    console.log('MCP tool call vs REST surface A (sequential, ms)')
    console.log('           p50      p99     mean')
    console.log(`REST  ${ms(results.rest.p50)} ${ms(results.rest.p99)} ${ms(results.rest.mean)}`)
    console.log(`MCP   ${ms(results.mcp.p50)} ${ms(results.mcp.p99)} ${ms(results.mcp.mean)}`)
    console.log(
      `ratio ${ms(results.ratio.p50)} ${ms(results.ratio.p99)} ${ms(results.ratio.mean)}   (+${results.overheadP50Ms.toFixed(2)} ms at p50)`,
    )
    const s = results.server
    console.log(
      `raw   ${ms(s.mcp.p50)} ${ms(s.mcp.p99)} ${ms(s.mcp.mean)}   (JSON-RPC over REST's undici client, ./mcpRaw.ts: the server adds +${s.overheadP50Ms.toFixed(2)} ms at p50, the SDK client the other ${(results.overheadP50Ms - s.overheadP50Ms).toFixed(2)} ms)`,
    )
    console.log(
      `failures: REST ${results.failures.rest.count}, MCP ${results.failures.mcp.count}, raw MCP ${results.failures.raw.count}`,
    )
    mkdirSync(dirname(OUT), { recursive: true })
    writeFileSync(OUT, `${JSON.stringify(results, null, 2)}\n`)
    console.log(`JSON: ${OUT}`)
    return results
  } finally {
    await client.close()
    await raw.close()
    await rest.close()
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const env = await startBench(QUERIES)
  try {
    const results = await runMcpBench(env, QUERIES)
    process.exitCode = results.failures.mcp.count + results.failures.raw.count ? 1 : 0
  } finally {
    await env.close()
  }
}
