import type { ScopeBody } from '../../shared/accountApiSchemas'
import { ServiceError } from '../../shared/errors'
import type { ScopeRepository, ToolScopeRecord } from '../store/scopeRepository'
import { MAX_SCOPE_ENTRIES, type ScopeLookup, type ToolScope } from './toolsInScope'

/** interface.md "Limits": tool scopes per workspace. */
const MAX_SCOPES_PER_WORKSPACE = 20

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
 * Creates or replaces a workspace's scope (interface.md "C" `POST /api/v1/scopes`, "Limits") from a body
 * that passed `SCOPE_BODY_SCHEMA`: its lists without repeats, at least one app or tool and at most
 * 200 together (400 `invalid_scope`), at most 20 scopes a workspace (400 `too_many_scopes`). A
 * replaced scope keeps its `createdAt`. The REST route and the app's `scopes.create` both save
 * through here.
 */
export function saveScope(
  scopes: ScopeRepository,
  tenant: string,
  body: ScopeBody,
  now: number,
): { record: ToolScopeRecord; replaced: boolean } {
  const apps = [...new Set(body.apps ?? [])]
  const tools = [...new Set(body.tools ?? [])]
  if (!apps.length && !tools.length)
    throw new ServiceError('invalid_scope', 'A scope names at least one app or tool.')
  if (apps.length + tools.length > MAX_SCOPE_ENTRIES)
    throw new ServiceError(
      'invalid_scope',
      `A scope lists at most ${MAX_SCOPE_ENTRIES} apps and tools together.`,
    )
  const existed = scopes.find(tenant, body.slug)
  const record: ToolScopeRecord = {
    slug: body.slug,
    apps,
    tools,
    createdAt: existed?.createdAt ?? now,
  }
  if (!scopes.put(tenant, record, MAX_SCOPES_PER_WORKSPACE))
    throw new ServiceError(
      'too_many_scopes',
      `This workspace already has ${MAX_SCOPES_PER_WORKSPACE} tool scopes.`,
    )
  return { record, replaced: existed !== null }
}
