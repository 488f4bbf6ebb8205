/**
 * What the answer keys of graphite-web do by hand: name its requests (dashboards by their name
 * in the URL path, the admin's pages), and read the app's state back as a person with curl would:
 * the dashboard finder and loader (`/dashboard/find/`, `/dashboard/load/<name>`, JSON) and the
 * events' JSON (`/events/get_data`).
 */
import type { AppInstance, RequestKey } from '../types'

/** `/dashboard/<verb>/<name>`: a dashboard named in the path (any name). */
export function dashboardPath(method: string, verb: 'save' | 'delete' | 'load'): RequestKey {
  return { method, path: new RegExp(`^/dashboard/${verb}/[^/]+$`) }
}

/** The path of `/dashboard/<verb>/<name>` for `name`, encoded as a browser sends it. */
export function dashboardUrl(verb: 'save' | 'delete' | 'load', name: string): string {
  return `/dashboard/${verb}/${encodeURIComponent(name)}`
}

/** The names of every saved dashboard (the finder's listing, with an empty query). */
export async function dashboardNames(app: AppInstance): Promise<string[]> {
  const res = await app.fetch('/dashboard/find/?query=')
  const body = (await res.json()) as { dashboards: Array<{ name: string }> }
  return body.dashboards.map((d) => d.name)
}

/** One saved dashboard's state as the dashboard page loads it, or null when there is none. */
export interface DashboardState {
  name: string
  graphs: Array<[string, { target: string[] }, string]>
  timeConfig?: { type?: string; relativeStartQuantity?: string; relativeStartUnits?: string }
}

/** The state of the dashboard `name`, or null when graphite has none by that name. */
export async function dashboardState(
  app: AppInstance,
  name: string,
): Promise<DashboardState | null> {
  const res = await app.fetch(dashboardUrl('load', name))
  const body = (await res.json()) as { state?: DashboardState; error?: string }
  return body.state ?? null
}

/** The metric expressions the graphs of `state` draw. */
export function graphTargets(state: DashboardState): string[] {
  return state.graphs.flatMap((g) => g[1].target)
}

/** An event as `/events/get_data` lists it (`when` in Unix seconds). */
export interface GraphiteEvent {
  id: number
  what: string
  tags: string[]
  data: string
  when: number
}

/** Every event of the last ten years (the events JSON, which by default covers one day only). */
export async function allEvents(app: AppInstance): Promise<GraphiteEvent[]> {
  const res = await app.fetch('/events/get_data?from=-10y')
  return (await res.json()) as GraphiteEvent[]
}

/** Throws when a key's check found a problem (the self-check's replay by hand). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}
