/**
 * The workspace of the person who runs the app (core's `LOCAL_TENANT`): rows written before
 * tools and traces had a workspace belong to it (migration 011).
 */
export const OWNER_WORKSPACE = 'local'

/**
 * The workspace whose tools and traces a caller works with. An org key's end user (tenant
 * `org::user`, interface.md "Authentication": `X-Service-End-User`) runs in their own workspace for runs
 * and logins but calls the org's tools, so tools and traces belong to the part before `::`.
 */
export const workspaceOf = (tenant: string): string => tenant.split('::')[0]!
