import { lookup as dnsLookup } from 'node:dns/promises'
import { isIP, type LookupFunction } from 'node:net'
import ipaddr from 'ipaddr.js'
import { Agent } from 'undici'

/** Resolves a host name to all its addresses (node:dns `lookup` with `all: true`). */
export type HostLookup = (hostname: string) => Promise<Array<{ address: string; family: number }>>

/** The system resolver, as undici will use it to connect. */
export const systemLookup: HostLookup = (hostname) =>
  dnsLookup(hostname, { all: true, verbatim: true })

/**
 * The IPv4 address an IPv6 address carries, or null: IPv4-mapped and -translated (RFC 4291
 * §2.5.5.2, RFC 6145), IPv4-compatible `::a.b.c.d` (RFC 4291 §2.5.5.1), NAT64 `64:ff9b::/96`
 * (RFC 6052), 6to4 `2002:AABB:CCDD::/48` (RFC 3056) and a Teredo client (RFC 4380 §4: the
 * last 32 bits, inverted). Traffic to such an address reaches that IPv4 host, so it is judged as
 * that host.
 */
function embeddedIpv4(v6: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = v6.parts
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 255, lo >> 8, lo & 255])
  const range = v6.range()
  if (range === 'ipv4Mapped' || range === 'rfc6145') return v4(p[6]!, p[7]!)
  if (range === 'rfc6052' && p[1] === 0xff9b && p[2] === 0) return v4(p[6]!, p[7]!)
  if (range === '6to4') return v4(p[1]!, p[2]!)
  if (range === 'teredo') return v4(~p[6]! & 0xffff, ~p[7]! & 0xffff)
  if (p.slice(0, 6).every((x) => x === 0) && (p[6] !== 0 || p[7]! > 1)) return v4(p[6]!, p[7]!)
  return null
}

/**
 * An IP literal as the address traffic to it reaches: IPv4 as is, an IPv6 address that carries
 * an IPv4 one as that IPv4 address, other IPv6 as is; null for anything that is not an IP.
 */
function reached(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = address.replace(/^\[|\]$/g, '')
  if (!ipaddr.isValid(bare)) return null
  const parsed = ipaddr.parse(bare)
  return parsed.kind() === 'ipv6' ? (embeddedIpv4(parsed as ipaddr.IPv6) ?? parsed) : parsed
}

/**
 * A check remembered by address: parsing and range lookups on every call would be a measurable
 * part of each run, and the ranges never change.
 */
function remembered(check: (address: string) => boolean): (address: string) => boolean {
  const known = new Map<string, boolean>()
  return (address) => {
    let verdict = known.get(address)
    if (verdict === undefined) {
      verdict = check(address)
      if (known.size >= 4096) known.clear()
      known.set(address, verdict)
    }
    return verdict
  }
}

/**
 * True for an address that is not a public unicast address in ipaddr.js's ranges: loopback,
 * "this host" (0.0.0.0/8 reaches the local machine on Linux), private (RFC 1918, RFC 4193),
 * link-local, carrier-grade NAT (RFC 6598 100.64.0.0/10, where VPN meshes live), benchmarking
 * (RFC 2544 198.18.0.0/15), documentation, multicast and other reserved ranges. An IPv6 address
 * that carries an IPv4 one is judged by that one. False for anything that is not an IP literal.
 */
export const isPrivateAddress = remembered(function privateAddress(address: string): boolean {
  const ip = reached(address)
  return ip !== null && ip.range() !== 'unicast'
})

/** The host name of `host[:port]` or `[v6]:port`, lower-cased, without brackets or port. */
function hostnameOf(siteHost: string): string {
  const v6 = /^\[([^\]]+)\]/.exec(siteHost)
  if (v6) return v6[1]!.toLowerCase()
  return siteHost.replace(/:\d+$/, '').toLowerCase()
}

/**
 * True when a tool's site is itself on this machine or a private network (an IP literal in those
 * ranges, or `localhost`): such a tool was recorded there, so its requests may go there.
 */
export function isLocalSite(siteHost: string): boolean {
  const name = hostnameOf(siteHost)
  return name === 'localhost' || name.endsWith('.localhost') || isPrivateAddress(name)
}

/**
 * Why `url` may not be sent for a tool of the public site `siteHost`, or null (interface.md "Why a run
 * failed": `destination_denied` for a private or loopback URL). The host is resolved with
 * `lookup` and refused when any of its addresses is loopback, private or link-local, so a public
 * name pointed at an internal address (DNS rebinding, a poisoned record) reaches nothing inside.
 * Tools of a local site are not checked, nor are IP-literal URLs of public addresses. A host that
 * does not resolve is left to the send, which fails `network_error`. Resolved once per host per
 * `seen` map (one run), so a multi-step tool asks the resolver once.
 */
export async function addressDenied(
  url: string,
  siteHost: string,
  lookup: HostLookup = systemLookup,
  seen: Map<string, string | null> = new Map(),
): Promise<string | null> {
  const hostname = hostnameOf(new URL(url).host)
  // Before the local-site exemption: a "site" at a metadata address is no site.
  if (isMetadataAddress(hostname))
    return `${hostname} is a cloud metadata address: never reachable.`
  if (isLocalSite(siteHost)) return null
  if (seen.has(hostname)) return seen.get(hostname)!
  let verdict: string | null = null
  if (isIP(hostname)) {
    if (isPrivateAddress(hostname)) verdict = `${hostname} is a private or loopback address.`
  } else {
    let addresses: Array<{ address: string }> = []
    try {
      addresses = await lookup(hostname)
    } catch {
      // A name that does not resolve has no private address: the request itself then fails.
      addresses = []
    }
    const inside = addresses.find((a) => isPrivateAddress(a.address))
    if (inside)
      verdict = `${hostname} resolves to ${inside.address}, a private or loopback address: a tool of a public site may not reach it.`
  }
  seen.set(hostname, verdict)
  return verdict
}

// Cloud metadata services (AWS, GCP, Azure, OpenStack: 169.254.169.254; AWS ECS: 169.254.170.2;
// AWS DNS/NTP: 169.254.169.253, .123; AWS IPv6: fd00:ec2::254; Alibaba: 100.100.100.200): they
// hand out the machine's credentials to whoever asks, so no URL of anyone's may reach them.
const METADATA = new Set(
  [
    '169.254.169.254',
    '169.254.169.253',
    '169.254.169.123',
    '169.254.170.2',
    '100.100.100.200',
    'fd00:ec2::254',
    'fd00:ec2::23',
  ].map((a) => ipaddr.parse(a).toNormalizedString()),
)

/** True for a cloud metadata address, however an IPv6 address carries it: never reachable. */
export const isMetadataAddress = remembered(function metadataAddress(address: string): boolean {
  const ip = reached(address)
  return ip !== null && METADATA.has(ip.toNormalizedString())
})

/**
 * Whether `host` (`name[:port]`, as a URL's `host`) is on an allow-list of local sites: an entry
 * names the host with its port, or the host name for any port. Case-insensitive.
 */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const lower = host.toLowerCase()
  const name = hostnameOf(lower)
  return allowed.some((entry) => {
    const e = entry.toLowerCase()
    return e === lower || e === name || (e.startsWith('[') && e === `[${name}]`)
  })
}

/**
 * Why a URL that came in through the API (an API key or an OAuth client asking to index or
 * browse it) may not be loaded, or null. Metadata addresses never; loopback,
 * private, link-local and "this host" addresses only when the URL's host is on `allowed`, the
 * workspace's list of local sites the owner allowed in the app. The host is resolved with
 * `lookup` and every address counts. A name that does not resolve is left to the load.
 */
export async function apiUrlDenied(
  url: string,
  allowed: readonly string[],
  lookup: HostLookup = systemLookup,
): Promise<string | null> {
  const parsed = new URL(url)
  const hostname = hostnameOf(parsed.host)
  let addresses: string[]
  if (isIP(hostname)) addresses = [hostname]
  else {
    try {
      addresses = (await lookup(hostname)).map((a) => a.address)
    } catch {
      // A name that does not resolve has no private address: the request itself then fails.
      addresses = []
    }
  }
  const metadata = addresses.find(isMetadataAddress)
  if (metadata) return `${parsed.host} is a cloud metadata address (${metadata}): never reachable.`
  const inside = addresses.find(isPrivateAddress)
  if (inside && !hostAllowed(parsed.host, allowed))
    return `${parsed.host} is on this machine or a private network (${inside}): the owner allows local sites in the app (Settings, "Local sites").`
  return null
}

/**
 * Why a response from `url` that a browser got from the IP `address` may not be used by an API
 * caller, or null: the same rule as `apiUrlDenied`, on the address actually
 * connected (a browser resolves names itself, so this is where rebinding and redirects show).
 */
export function connectedAddressDenied(
  url: string,
  address: string,
  allowed: readonly string[],
): string | null {
  const host = URL.canParse(url) ? new URL(url).host : url
  if (isMetadataAddress(address))
    return `${host} was served from a cloud metadata address (${address}): never reachable.`
  if (isPrivateAddress(address) && !hostAllowed(host, allowed))
    return `${host} was served from this machine or a private network (${address}): the owner allows local sites in the app (Settings, "Local sites").`
  return null
}

/** The error code undici reports when `pinnedLookup` refused the address it was to connect. */
export const DENIED_CONNECT_CODE = 'EDESTINATIONDENIED'

/**
 * A `net.connect` `lookup` (docs/architecture.md "Rules that cut across" outbound checks) that checks the
 * addresses actually connected to, so no second resolution after the run's own check can swap
 * in an internal address (DNS rebinding): metadata addresses fail always; a name other than
 * `localhost` that resolves to a loopback, private or link-local address fails too (a local
 * site is reached by its IP literal or `localhost`, which connect without a lookup or pass).
 * Fails with code `EDESTINATIONDENIED`. Handles both the single-address and `all` forms.
 * `lookup` resolves names (default the system resolver; tests pass their own).
 */
export function createPinnedLookup(lookup: HostLookup = systemLookup): LookupFunction {
  return screenedLookup(lookup, (hostname, address) => {
    const local = hostname === 'localhost' || hostname.endsWith('.localhost')
    if (!isMetadataAddress(address) && (local || !isPrivateAddress(address))) return null
    return new Error(`${hostname} resolved to ${address}, which a run may not reach.`)
  })
}

/**
 * A `net.connect` `lookup` that resolves with `lookup` and hands back only addresses `screen`
 * lets through: the first address it answers with an error fails the whole lookup, with that
 * error under code `EDESTINATIONDENIED` (`DENIED_CONNECT_CODE`); no address of the asked family
 * fails with `ENOTFOUND`. Handles both the single-address and `all` forms of Node's contract.
 */
export function screenedLookup(
  lookup: HostLookup,
  screen: (hostname: string, address: string) => Error | null,
): LookupFunction {
  return (hostname, options, callback) => {
    const family =
      options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0)
    const all = options.all === true
    const fail = (error: NodeJS.ErrnoException) => callback(error, all ? [] : '', 0)
    lookup(hostname).then((found) => {
      const usable = found.filter((a) => family === 0 || a.family === family)
      for (const { address } of usable) {
        const refused: NodeJS.ErrnoException | null = screen(hostname, address)
        if (refused) return fail(Object.assign(refused, { code: DENIED_CONNECT_CODE }))
      }
      if (!usable.length)
        return fail(
          Object.assign(new Error(`${hostname} has no address of family ${family}.`), {
            code: 'ENOTFOUND',
          }),
        )
      if (all) callback(null, usable)
      else callback(null, usable[0]!.address, usable[0]!.family)
    }, fail)
  }
}

/** `createPinnedLookup` over the system resolver. */
const pinnedLookup = createPinnedLookup()

/**
 * The undici dispatcher of the HTTP executor: connects through `pinnedLookup`, so the address a
 * request goes to is the one checked. Keeps undici's default pooling.
 */
export const pinnedDispatcher = new Agent({ connect: { lookup: pinnedLookup } })

/**
 * The destination check of a browser running a tool of `siteHost` (the rendered executor, a
 * sign-in): the HTTP executor's rule on the address actually connected. Cloud
 * metadata addresses never; loopback, private and link-local addresses only for a tool of a local
 * site (recorded there). Answers why `url` at `address` is refused, or null.
 */
export function toolSiteCheck(siteHost: string): (url: string, address: string) => string | null {
  const local = isLocalSite(siteHost)
  return (url, address) => {
    const host = URL.canParse(url) ? new URL(url).host : url
    if (isMetadataAddress(address))
      return `${host} is at a cloud metadata address (${address}): never reachable.`
    if (isPrivateAddress(address) && !local)
      return `${host} is at ${address}, a private or loopback address: a page of the public site ${siteHost} may not reach it.`
    return null
  }
}
