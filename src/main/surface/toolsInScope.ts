import { ServiceError } from '../../shared/errors'
import type { ToolSpec } from '../../shared/toolSpec'

/**
 * A tool scope (interface.md "Authentication" 5): the apps and tools a connection may use. An app is a
 * site, named by its host (`127.0.0.1:8080`), its host name without port, or the site part of
 * its tools' names (`local`, `example`); a tool is named by its name, id or capability id.
 */
export interface ToolScope {
  /** The scope's slug, or null for an ad-hoc scope (`?apps=`). */
  slug: string | null
  apps: string[]
  tools: string[]
}

/** Finds a workspace's scope by slug (the scopes store, built with `POST /api/v1/scopes`). */
export type ScopeLookup = (tenant: string, slug: string) => ToolScope | null

/** The fields of a tool (or its summary) that scopes name it by. */
export type ScopedTool = Pick<ToolSpec, 'id' | 'name' | 'siteHost' | 'capabilityId'>

/** Whether one scope admits a tool: its app or the tool itself is named. */
export function inScope(tool: ScopedTool, scope: ToolScope): boolean {
  const site = tool.name.includes('__') ? tool.name.slice(0, tool.name.indexOf('__')) : null
  const hostname = tool.siteHost.replace(/:\d+$/, '')
  const apps = new Set(scope.apps.map((a) => a.toLowerCase()))
  if (apps.has(tool.siteHost.toLowerCase()) || apps.has(hostname.toLowerCase())) return true
  if (site !== null && apps.has(site.toLowerCase())) return true
  return scope.tools.some((t) => t === tool.name || t === tool.id || t === tool.capabilityId)
}

/**
 * The tools a connection may use (interface.md "C", `/mcp/{slug}`, `?scope=`, `?apps=`): all of them
 * when it is unscoped (null or no scopes), else those every given scope admits (a slug scope and
 * `?apps=` together narrow each other). Order is kept.
 */
export function toolsInScope<T extends ScopedTool>(
  tools: T[],
  scope: ToolScope | ToolScope[] | null,
): T[] {
  const scopes = scope === null ? [] : Array.isArray(scope) ? scope : [scope]
  return tools.filter((tool) => scopes.every((s) => inScope(tool, s)))
}

/** `?apps=a,b` (or repeated `apps=`) as a list of app names; empty entries dropped. */
export function parseApps(raw: unknown): string[] | null {
  if (raw === undefined) return null
  const values = Array.isArray(raw) ? raw : [raw]
  return values
    .flatMap((v) => (typeof v === 'string' ? v.split(',') : []))
    .map((v) => v.trim())
    .filter(Boolean)
}

/** interface.md "Limits" and "Request shape": slug of 1 to 40 lowercase letters, digits or dashes. */
const SCOPE_SLUG = /^[a-z0-9-]{1,40}$/
/** interface.md "Limits": a scope lists at most 200 apps and tools. */
export const MAX_SCOPE_ENTRIES = 200

/**
 * The tool scopes a connection names (REST: `X-Service-Scope` or `?scope=`; MCP: `/mcp/{slug}` or
 * `?scope=`) plus an ad-hoc scope of `?apps=` site hosts. Errors: 404 `unknown_scope` for a slug
 * the workspace lacks, 400 `invalid_scope` for an empty or over-long `apps` list (interface.md "Request
 * shape").
 */
export function resolveToolScopes(
  slugs: unknown[],
  rawApps: unknown,
  tenant: string,
  lookup: ScopeLookup,
): ToolScope[] {
  const found: ToolScope[] = []
  for (const slug of new Set(slugs.filter((s) => s !== undefined))) {
    const scope = typeof slug === 'string' && SCOPE_SLUG.test(slug) ? lookup(tenant, slug) : null
    if (!scope)
      throw new ServiceError(
        'unknown_scope',
        `No tool scope "${String(slug)}" in this workspace: POST /api/v1/scopes creates one.`,
      )
    found.push(scope)
  }
  const apps = parseApps(rawApps)
  if (apps !== null) {
    if (!apps.length || apps.length > MAX_SCOPE_ENTRIES)
      throw new ServiceError(
        'invalid_scope',
        `"apps" takes 1 to ${MAX_SCOPE_ENTRIES} comma-separated site hosts.`,
      )
    found.push({ slug: null, apps, tools: [] })
  }
  return found
}
