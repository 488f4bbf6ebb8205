import { createHash } from 'node:crypto'
import type { ToolSpec } from '../../shared/toolSpec'
import type { ToolRepository } from '../store/toolRepository'

/** MCP tool names (MCP 2025-11-25 "Tool names"): 1 to 64 of letters, digits, `_` and `-`. */
const MCP_NAME = /^[a-zA-Z0-9_-]{1,64}$/
const MAX_NAME = 64

/** Replaces what MCP names cannot hold (dots, colons of `127.0.0.1:8080`) with `_`. */
function sanitizeName(raw: string): string {
  return raw.replace(/[^a-zA-Z0-9_-]/g, '_')
}

/** A name cut to 64 characters, made unique again by a short hash of what it stands for. */
function fit(name: string, identity: string): string {
  if (name.length <= MAX_NAME) return name
  const hash = createHash('sha256').update(identity).digest('hex').slice(0, 8)
  return `${name.slice(0, MAX_NAME - 9)}_${hash}`
}

/**
 * The MCP name of every tool (docs/architecture.md "The records" `<site>__<verb_object>`): the tool's `name` when no
 * other site has a tool of that name; on a clash, the site part becomes the sanitized host
 * (`127_0_0_1_8080__post_search`). Names are computed over all tools, whatever their status or
 * scope, so a tool keeps one name everywhere and a call maps back by the same table.
 * Returns name → tool; every name matches `^[a-zA-Z0-9_-]{1,64}$`.
 */
export function mcpToolNames(tools: ToolSpec[]): Map<string, ToolSpec> {
  const byBase = new Map<string, ToolSpec[]>()
  for (const tool of tools) {
    const base = sanitizeName(tool.name)
    byBase.set(base, [...(byBase.get(base) ?? []), tool])
  }
  const names = new Map<string, ToolSpec>()
  // Oldest first: the tool that had a name first keeps it when a later one clashes.
  const ordered = [...tools].sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id))
  for (const tool of ordered) {
    const base = sanitizeName(tool.name)
    const identity = `${tool.siteHost}/${tool.name}`
    let name = fit(base, identity)
    if (byBase.get(base)!.length > 1 || names.has(name)) {
      const verb = tool.name.includes('__') ? tool.name.slice(tool.name.indexOf('__') + 2) : base
      name = fit(sanitizeName(`${tool.siteHost}__${verb}`), identity)
    }
    if (names.has(name) || !MCP_NAME.test(name))
      name = fit(`tool_${tool.id.replace(/-/g, '')}`, tool.id)
    names.set(name, tool)
  }
  return names
}

/**
 * `mcpToolNames` of the store's tools, computed again only when the tools changed (the
 * repository's revision): a tool call maps its name back without reading every tool.
 */
export function createToolNameTable(
  tools: Pick<ToolRepository, 'list' | 'revision'>,
): () => Map<string, ToolSpec> {
  let at = ''
  let names = new Map<string, ToolSpec>()
  return () => {
    const revision = tools.revision()
    if (revision !== at) {
      names = mcpToolNames(tools.list())
      at = revision
    }
    return names
  }
}
