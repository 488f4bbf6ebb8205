import { createToolRouter, type ToolRouter } from '../router/router'
import type { ToolRepository } from '../store/toolRepository'

/**
 * The tool routers of the service, made once by the composition root (`core.ts`) and shared by
 * every surface (REST search and tasks, MCP `service_run`, the UI's search, `POST /v1/index`).
 *
 * A router's index holds exactly the list of tools it was last given (`router/factIndex.ts`
 * `sync`), and what it learned of a tool is kept until that list changes. So a router is kept per
 * tool repository (one per workspace: a search of one workspace never drops another's index) and
 * per list: the whole list (searches) and the verified tools (what a task or `service_run` may
 * call) each have their own, so neither undoes the other's index between requests.
 */
export interface ToolRouters {
  /** The router of every tool of `tools` (search, the UI's search); the same one per repository. */
  searching(tools: ToolRepository): ToolRouter
  /** The router of the verified tools of `tools` (a task, `service_run`); one per repository. */
  running(tools: ToolRepository): ToolRouter
  /** The router that scores a just-compiled candidate alone (`POST /v1/index`'s receipt). */
  candidates: ToolRouter
}

/** Routers made on first use, one per repository and list; see {@link ToolRouters}. */
export function createToolRouters(): ToolRouters {
  const perRepository = () => {
    const routers = new Map<ToolRepository, ToolRouter>()
    return (tools: ToolRepository) => {
      const router = routers.get(tools) ?? createToolRouter()
      routers.set(tools, router)
      return router
    }
  }
  return { searching: perRepository(), running: perRepository(), candidates: createToolRouter() }
}
