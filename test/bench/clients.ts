import { Agent, request } from 'undici'
import type { Run } from '../../src/shared/run'
import type { BenchEnv } from './setup'

/** One call's verdict: ok, or why it does not count as a success. */
export type CallResult = { ok: true } | { ok: false; reason: string }

export type Call = (query: string) => Promise<CallResult>

export interface Clients {
  direct: Call
  sitecall: Call
  close(): Promise<void>
}

/**
 * The two sides being compared, with one client for both: undici `request` over the bench's own
 * keep-alive Agent, so the bench's sockets neither share a pool with the engine's outbound calls
 * (undici's global dispatcher) nor give one side a different HTTP stack. Both sides read and parse
 * the whole JSON body, since a caller of either would.
 */
export function createClients(env: BenchEnv): Clients {
  const agent = new Agent({ keepAliveTimeout: 30_000 })
  const searchUrl = `${env.site.url}/api/search`
  const callUrl = `${env.base}/api/v1/sites/${env.tool.siteHost}/call/${env.tool.name}`
  const json = { 'content-type': 'application/json', accept: 'application/json' }
  const sitecallHeaders = { ...json, authorization: `Bearer ${env.key}` }

  const direct: Call = async (query) => {
    const res = await request(searchUrl, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ query, verified: false, page: 1, perPage: 12 }),
      dispatcher: agent,
    })
    const body = (await res.body.json()) as { data?: unknown[] }
    if (res.statusCode !== 200) return { ok: false, reason: `HTTP ${res.statusCode}` }
    if (!Array.isArray(body.data) || !body.data.length) return { ok: false, reason: 'no data' }
    return { ok: true }
  }

  const sitecall: Call = async (query) => {
    const res = await request(callUrl, {
      method: 'POST',
      headers: sitecallHeaders,
      body: JSON.stringify({ query }),
      dispatcher: agent,
    })
    const run = (await res.body.json()) as Partial<Run> & { error?: { code?: string } | null }
    if (res.statusCode === 200 && run.status === 'succeeded') return { ok: true }
    return {
      ok: false,
      reason: `HTTP ${res.statusCode} ${run.status ?? ''} ${run.error?.code ?? ''}`.trim(),
    }
  }

  return { direct, sitecall, close: () => agent.close() }
}

/** Calls `call`, turning a thrown error (refused socket, bad JSON) into a failed result. */
export async function attempt(call: Call, query: string): Promise<CallResult> {
  try {
    return await call(query)
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) }
  }
}
