import type { ToolRouter } from '../router/router'
import type { ToolRepository } from '../store/toolRepository'
import type { RouteIntent } from './serviceTools'

/**
 * `service_run`'s routing (docs/architecture.md "router"): the verified tools that match the intent with
 * a score of at least 0.9, best first, as `POST /api/v1/runs` routes a task; empty when none does.
 * `router` is the one the service keeps for the verified tools of `tools` (`surface/toolRouters.ts`).
 */
export function createRouteIntent(tools: ToolRepository, router: ToolRouter): RouteIntent {
  return (_tenant, intent) => {
    const verified = tools.list({ status: 'verified' })
    const routing = router.route(intent, verified)
    if (routing.status !== 'matched') return []
    const byId = new Map(verified.map((t) => [t.id, t]))
    return routing.tools.flatMap((match) => byId.get(match.id) ?? [])
  }
}
