/**
 * The OAuth scopes of the local service (interface.md "Authentication" 3-4: clients request only the
 * scopes they need; `tools:read` is the interface's, the others are ours because docs/interface.md leaves them
 * "not shown"). API keys and the owner token hold every scope; an OAuth access token holds the
 * ones its owner approved on the consent page. A route that needs a scope the token lacks answers
 * 403 `forbidden` naming the scope.
 */
export const API_SCOPES = {
  'tools:read': 'Search your tools by intent, list them and their inputs, read usage and scopes.',
  'tools:execute': 'Call your tools and run tasks, read those runs and answer their requests.',
  'tools:index':
    'Observe sites with the local browser (indexing, browse sessions) and prepare candidates.',
  'accounts:read': 'List the names of your stored secrets (never their values).',
  'accounts:write': 'Store, replace and delete your secrets.',
  'scopes:write': 'Create tool scopes that restrict a connection to named apps and tools.',
  'tools:sync': "Push tools made, changed, quarantined or deleted on a desktop to the workspace's.",
} as const

/** One OAuth scope name, e.g. `tools:read`. */
export type ApiScope = keyof typeof API_SCOPES

/** Every scope, in the order above (what API keys and the owner token hold). */
export const ALL_API_SCOPES = Object.keys(API_SCOPES) as ApiScope[]

/** Whether a string names one of our scopes. */
export function isApiScope(value: string): value is ApiScope {
  return Object.hasOwn(API_SCOPES, value)
}

/**
 * Parses an OAuth `scope` parameter (RFC 6749 §3.3: space-delimited, order-free) into distinct
 * scope names; returns null when any name is not one of ours.
 */
export function parseScopeParam(value: string): ApiScope[] | null {
  const names = [...new Set(value.split(' ').filter(Boolean))]
  return names.every(isApiScope) ? names : null
}
