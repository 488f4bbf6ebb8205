import { randomBytes } from 'node:crypto'
import { isIP } from 'node:net'
import { RequestError, Server } from 'proxy-chain'
import {
  hostAllowed,
  isMetadataAddress,
  isPrivateAddress,
  screenedLookup,
  systemLookup,
  type HostLookup,
} from './destination'

/**
 * Judges one destination of a browser's request: `url` is the request's URL
 * for plain HTTP, and `https://host:port/` for a tunnel (HTTPS, WebSocket: the proxy sees only
 * the host); `address` is the IP the connection would go to. Answers why it is refused, or null
 * to let it through (`connectedAddressDenied`, `toolSiteCheck`).
 */
export type DestinationCheck = (url: string, address: string) => string | null

/**
 * The destination check of a person's own sign-in window: the sign-in's own
 * sites (`ownHosts`, `host[:port]` exactly, as the sign-in was started for) and the workspace's
 * allowed local sites (`localSites`, `hostAllowed` entries) may be on loopback, private or
 * link-local addresses; any other host there is refused (a redirect into another local port or
 * app), and cloud metadata addresses always. Public addresses pass.
 */
export function signInSiteCheck(
  ownHosts: readonly string[],
  localSites: readonly string[],
): DestinationCheck {
  const own = new Set(ownHosts.map((h) => h.toLowerCase()))
  return (url, address) => {
    const parsed = URL.canParse(url) ? new URL(url) : null
    const host = parsed?.host ?? url
    if (isMetadataAddress(address))
      return `${host} is at a cloud metadata address (${address}): never reachable.`
    if (!isPrivateAddress(address)) return null
    // A URL's `host` drops the scheme's default port; the sign-in's host may name it.
    const lower = host.toLowerCase()
    const withPort =
      parsed && !parsed.port ? `${lower}:${parsed.protocol === 'https:' ? 443 : 80}` : lower
    if (own.has(lower) || own.has(withPort) || hostAllowed(host, localSites)) return null
    return `${host} is on this machine or a private network (${address}) and is not the site being signed in to: the owner allows local sites in the app (Settings, "Local sites").`
  }
}

/** A browser context's proxy settings (Playwright's `proxy` launch and context option). */
export interface GuardedProxySettings {
  server: string
  username: string
  password: string
}

export interface GuardProxy {
  /**
   * Proxy settings under which every request of a browser context (navigations, redirects,
   * subresources, fetches, WebSockets) connects only where `check` allows, to the very address
   * checked. `onDenied` hears each refusal (host, reason). `release` forgets the rule; requests
   * under it are refused from then on (407).
   */
  settingsFor(
    check: DestinationCheck,
    onDenied?: (host: string, reason: string) => void,
  ): { proxy: GuardedProxySettings; release(): void }
  /** Stops listening; open tunnels are cut. */
  close(): Promise<void>
}

/**
 * Starts the local forward proxy (proxy-chain, on 127.0.0.1, an ephemeral port) through which
 * Chromium reaches the web for API callers and runs (docs/architecture.md "Rules that cut across"). A browser
 * resolves names itself and follows redirects without asking Playwright's request interception,
 * so the address checks live where the connection is made: each context authenticates to the
 * proxy with its own credentials, which name its `DestinationCheck`; IP literals are judged
 * before connecting, names through a pinned `lookup` (the address judged is the one connected:
 * no second resolution). A refused destination answers 403 to the browser, which fails that
 * request. `lookup` resolves names (default the system resolver; tests pass their own). The
 * listening socket does not keep the process alive.
 */
export async function startGuardProxy(lookup: HostLookup = systemLookup): Promise<GuardProxy> {
  const rules = new Map<string, { check: DestinationCheck; onDenied?: DenialListener }>()
  const server = new Server({
    host: '127.0.0.1',
    port: 0,
    prepareRequestFunction: ({ username, password, hostname, port, isHttp, request }) => {
      const rule = rules.get(`${username}:${password}`)
      // Playwright sends the context's credentials only once challenged.
      if (!rule) return { requestAuthentication: true, failMsg: 'Proxy credentials required.' }
      const bare = hostname.replace(/^\[|\]$/g, '')
      const host = `${isIP(bare) === 6 ? `[${bare}]` : bare}:${port}`
      const url = isHttp && request.url ? request.url : `https://${host}/`
      const deny = (reason: string) => {
        rule.onDenied?.(host, reason)
        return new RequestError(`destination_denied: ${reason}`, 403)
      }
      if (isIP(bare)) {
        const reason = rule.check(url, bare)
        if (reason) throw deny(reason)
        return {}
      }
      const screen = (_: string, address: string) => {
        const reason = rule.check(url, address)
        return reason ? deny(reason) : null
      }
      return { dnsLookup: screenedLookup(lookup, screen) as never }
    },
  })
  await server.listen()
  server.server.unref()
  const url = `http://127.0.0.1:${server.port}`
  return {
    settingsFor(check, onDenied) {
      const username = `ctx_${randomBytes(9).toString('hex')}`
      const password = randomBytes(18).toString('hex')
      const key = `${username}:${password}`
      rules.set(key, onDenied ? { check, onDenied } : { check })
      return { proxy: { server: url, username, password }, release: () => rules.delete(key) }
    },
    close: () => server.close(true),
  }
}

type DenialListener = (host: string, reason: string) => void

let shared: Promise<GuardProxy> | null = null

/** The process's one guard proxy, started on first use (over the system resolver). */
export function sharedGuardProxy(): Promise<GuardProxy> {
  shared ??= startGuardProxy().catch((error: unknown) => {
    shared = null
    throw error
  })
  return shared
}
