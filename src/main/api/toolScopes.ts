import { ServiceError } from '../../shared/errors'
import type { ScopeRepository, ToolScopeRecord } from '../store/scopeRepository'
import { MAX_SCOPE_ENTRIES, SCOPE_SLUG } from './auth'
import type { ScopeLookup, ToolScope } from '../mcp/toolsInScope'

/** Spec "Limits": tool scopes per workspace. */
export const MAX_SCOPES_PER_WORKSPACE = 20
const FIELDS = ['slug', 'apps', 'tools']
const MAX_NAME = 253

/** A stored scope as `inScope` and MCP take it. */
const toToolScope = (r: ToolScopeRecord): ToolScope => ({
  slug: r.slug,
  apps: r.apps,
  tools: r.tools,
})

/** The lookup MCP and the authenticator use: a workspace's scope by slug, or null. */
export function scopeLookup(scopes: ScopeRepository): ScopeLookup {
  return (tenant, slug) => {
    const found = scopes.find(tenant, slug)
    return found ? toToolScope(found) : null
  }
}

/**
 * A workspace's scope by slug (spec "Request shape"): 404 `unknown_scope` when there is none.
 * Pair with `inScope(tool, scope)` of `mcp/toolsInScope.ts`.
 */
export function scopeFor(scopes: ScopeRepository, tenant: string, slug: string): ToolScope {
  const found = SCOPE_SLUG.test(slug) ? scopes.find(tenant, slug) : null
  if (!found)
    throw new ServiceError(
      'unknown_scope',
      `No tool scope "${slug}" in this workspace: POST /api/v1/scopes creates one.`,
    )
  return toToolScope(found)
}

/**
 * Checks a `POST /api/v1/scopes` body (spec "Tool scope", "Limits"): `{slug, apps?, tools?}`
 * with apps as site hosts and tools as tool names. Errors: 400 `bad_request` (not an object),
 * 422 `unknown_argument` (other fields), 400 `invalid_scope` (slug not 1 to 40 of `[a-z0-9-]`,
 * lists not arrays of names, none named, more than 200 apps and tools together).
 */
export function parseScopeBody(body: unknown): { slug: string; apps: string[]; tools: string[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ServiceError('bad_request', 'The body must be a JSON object {slug, apps, tools}.')
  const fields = body as Record<string, unknown>
  const unknown = Object.keys(fields).filter((k) => !FIELDS.includes(k))
  if (unknown.length)
    throw new ServiceError(
      'unknown_argument',
      `Unknown fields ${unknown.join(', ')}. Valid: ${FIELDS.join(', ')}.`,
    )
  const { slug } = fields
  if (typeof slug !== 'string' || !SCOPE_SLUG.test(slug))
    throw new ServiceError(
      'invalid_scope',
      '"slug" takes 1 to 40 lowercase letters, digits or dashes.',
    )
  const list = (name: 'apps' | 'tools'): string[] => {
    const value = fields[name] ?? []
    if (
      !Array.isArray(value) ||
      !value.every(
        (v) => typeof v === 'string' && v.trim() && v.length <= MAX_NAME && !/\s/.test(v),
      )
    )
      throw new ServiceError(
        'invalid_scope',
        `"${name}" takes an array of names (no spaces, at most ${MAX_NAME} characters each).`,
      )
    return [...new Set(value as string[])]
  }
  const apps = list('apps')
  const tools = list('tools')
  if (!apps.length && !tools.length)
    throw new ServiceError('invalid_scope', 'A scope names at least one app or tool.')
  if (apps.length + tools.length > MAX_SCOPE_ENTRIES)
    throw new ServiceError(
      'invalid_scope',
      `A scope lists at most ${MAX_SCOPE_ENTRIES} apps and tools together.`,
    )
  return { slug, apps, tools }
}
