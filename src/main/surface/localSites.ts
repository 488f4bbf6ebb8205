import { ServiceError } from '../../shared/errors'
import { apiUrlDenied, connectedAddressDenied, type HostLookup } from '../engine/destination'
import type { ConnectedAddressGuard } from '../browse/browseSessions'
import type { Store } from '../store/store'

/** Reads a workspace's allowed local sites (the store's `localSites.list`, hosts only). */
export type LocalSitesOf = (tenant: string) => string[]

/** The allow-list reader over the store. */
export const localSitesOf =
  (store: Pick<Store, 'localSites'>): LocalSitesOf =>
  (tenant) =>
    store.localSites.list(tenant).map((s) => s.host)

/**
 * The workspace whose owner decides: an org key's end user (`tenant::user`) works under the
 * org's owner, who is the one person who can open the app.
 */
export const ownerWorkspace = (tenant: string): string => tenant.split('::')[0]!

/**
 * Refuses a URL that came in through the API with 403 `destination_denied`
 * (interface.md "Why a run failed": "URL private, loopback, or outside the tool's site; do not retry")
 * when it leads to a cloud metadata address, or to a loopback, private or link-local one that
 * the owner did not allow as a local site. The owner (the app, the stdio bridge) is not checked:
 * recording a local app is what the app is for; nor are the service's own `/demo/` pages on one
 * of `ownOrigins` (interface.md "B" rule 3).
 */
export async function guardApiUrl(
  url: string,
  caller: { owner: boolean; tenant: string; ownOrigins?: readonly string[] | undefined },
  localSites: LocalSitesOf | undefined,
  lookup?: HostLookup,
): Promise<void> {
  if (caller.owner) return
  const parsed = new URL(url)
  // Spec B rule 3: the service's own demo pages exist to be indexed through the API.
  if (caller.ownOrigins?.includes(parsed.origin) && parsed.pathname.startsWith('/demo/')) return
  const allowed = localSites?.(ownerWorkspace(caller.tenant)) ?? []
  const denied = await apiUrlDenied(url, allowed, lookup)
  if (denied) throw new ServiceError('destination_denied', denied)
}

/** A URL's host as the allow-list keeps it: `name:port`, `[v6]:port`, or a bare name. */
const HOST = /^(?:[a-z0-9.-]{1,253}|\[[0-9a-f:.]{2,45}\])(?::\d{1,5})?$/

/** Checks and lower-cases a host for the allow-list; 400 `invalid_input` when it is none. */
export function parseLocalSiteHost(value: string): string {
  const host = value.trim().toLowerCase()
  if (!HOST.test(host))
    throw new ServiceError(
      'invalid_input',
      `"${value}" is not a site host: give host:port (127.0.0.1:8080, [::1]:3000) or a host name.`,
    )
  return host
}

/**
 * The origins of this server as a client can name it: the loopback names with the port the
 * request actually arrived on (the socket's, not the `Host` header's claim).
 */
export function ownOriginsOf(request: { socket: { localPort?: number | undefined } }): string[] {
  const port = request.socket.localPort
  if (port === undefined) return []
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`]
}

/**
 * The browse guard of an API caller: judges each response by the address the
 * browser connected to, under the same rule as `guardApiUrl`; undefined for the owner.
 */
export function browseGuardFor(
  caller: { owner: boolean; tenant: string; ownOrigins?: readonly string[] | undefined },
  localSites: LocalSitesOf | undefined,
): ConnectedAddressGuard | undefined {
  if (caller.owner) return undefined
  const allowed = localSites?.(ownerWorkspace(caller.tenant)) ?? []
  return (url, address) => {
    const parsed = URL.canParse(url) ? new URL(url) : null
    if (
      parsed &&
      caller.ownOrigins?.includes(parsed.origin) &&
      parsed.pathname.startsWith('/demo/')
    )
      return null
    return connectedAddressDenied(url, address, allowed)
  }
}
