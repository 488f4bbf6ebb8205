import type { ToolRepository } from '../store/toolRepository'
import type { ToolSpec } from '../../shared/toolSpec'

/**
 * The workspace's tools, parsed once per version: a search after no write reads nothing; else it
 * reads ids, versions and statuses, and parses the specs of tools that are new or changed (specs
 * are kilobytes each).
 */
function createToolCache(repository: ToolRepository): () => ToolSpec[] {
  const cache = new Map<string, { version: string; tool: ToolSpec }>()
  let last: { revision: string; tools: ToolSpec[] } | null = null
  return () => {
    // Nothing written since the last search: the same tools, the same objects (the router keeps
    // its index for them).
    const revision = repository.revision()
    if (last && last.revision === revision) return last.tools
    const seen = new Set<string>()
    const out: ToolSpec[] = []
    for (const { id, updatedAt, status } of repository.versions()) {
      seen.add(id)
      const version = `${updatedAt}:${status}`
      let entry = cache.get(id)
      if (!entry || entry.version !== version) {
        const tool = repository.get(id)
        if (!tool) continue
        entry = { version, tool }
        cache.set(id, entry)
      }
      out.push(entry.tool)
    }
    for (const id of cache.keys()) if (!seen.has(id)) cache.delete(id)
    last = { revision, tools: out }
    return out
  }
}

/**
 * One {@link createToolCache} per workspace: `(tenant) => tools` gives the
 * tools of the workspace that tenant works in (`toolsFor`, the store's), never another's.
 */
export function createWorkspaceToolCache(
  toolsFor: (tenant: string) => ToolRepository,
): (tenant: string) => ToolSpec[] {
  const caches = new Map<ToolRepository, () => ToolSpec[]>()
  return (tenant) => {
    const repository = toolsFor(tenant)
    const cache = caches.get(repository) ?? createToolCache(repository)
    caches.set(repository, cache)
    return cache()
  }
}
