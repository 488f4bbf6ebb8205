/**
 * What the answer keys send by hand: the admin API calls a person with curl would make, signed in
 * with the saved token. `GET /flows` with `Node-RED-API-Version: v2` answers `{rev, flows}`.
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance } from '../types'
import type { FlowNode } from './seed'

/** The flows as the admin API gives them, with the revision a deploy must echo. */
export interface FlowsState {
  rev: string
  flows: FlowNode[]
}

/** `GET /flows` in the v2 shape (what the editor reads on load). */
export async function readFlows(app: AppInstance, session: StorageState): Promise<FlowsState> {
  const res = await app.fetch('/flows', {
    session,
    headers: { 'Node-RED-API-Version': 'v2', accept: 'application/json' },
  })
  if (!res.ok) throw new Error(`GET /flows answered ${res.status}`)
  return (await res.json()) as FlowsState
}

/** A full deploy as the editor sends it: every node, plus the revision last read. */
export async function deployFlows(
  app: AppInstance,
  session: StorageState,
  state: FlowsState,
): Promise<void> {
  const res = await app.fetch('/flows', {
    method: 'POST',
    session,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'Node-RED-API-Version': 'v2',
      'Node-RED-Deployment-Type': 'full',
    },
    body: JSON.stringify({ flows: state.flows, rev: state.rev }),
  })
  if (!res.ok) throw new Error(`POST /flows answered ${res.status}: ${await res.text()}`)
}

/** The tab with this label, or undefined. */
export function tabByLabel(state: FlowsState, label: string): FlowNode | undefined {
  return state.flows.find((n) => n.type === 'tab' && n.label === label)
}

/** How often each inject ran (the seeded "count runs" functions keep it in global context). */
export async function injectRuns(
  app: AppInstance,
  session: StorageState,
): Promise<Record<string, number>> {
  const res = await app.fetch('/context/global/runs', { session })
  if (!res.ok) throw new Error(`GET /context/global/runs answered ${res.status}`)
  const body = (await res.json()) as { msg?: string; format?: string }
  return body.format === 'Object' && body.msg
    ? (JSON.parse(body.msg) as Record<string, number>)
    : {}
}

/** A run's result as text, to look for a value in it whatever shape the engine gave it. */
export function resultText(result: unknown): string {
  return typeof result === 'string' ? result : JSON.stringify(result ?? null)
}

/** Tries `read` up to `times` times, 200 ms apart, until it gives a non-null answer. */
export async function poll<T>(read: () => Promise<T | null>, times = 10): Promise<T | null> {
  for (let i = 0; i < times; i++) {
    const value = await read()
    if (value !== null) return value
    await new Promise((r) => setTimeout(r, 200))
  }
  return null
}
