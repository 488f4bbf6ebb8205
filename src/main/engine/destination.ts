import { lookup as dnsLookup } from 'node:dns/promises'
import { BlockList, isIP } from 'node:net'

/** Resolves a host name to all its addresses (node:dns `lookup` with `all: true`). */
export type HostLookup = (hostname: string) => Promise<Array<{ address: string; family: number }>>

/** The system resolver, as undici will use it to connect. */
export const systemLookup: HostLookup = (hostname) =>
  dnsLookup(hostname, { all: true, verbatim: true })

// Loopback, private (RFC 1918, RFC 4193), link-local (RFC 3927, RFC 4291) and "this host"
// (0.0.0.0/8 reaches the local machine on Linux) ranges: where a public site's name must not lead.
const PRIVATE = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv4')
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv6')

/** True for a loopback, private or link-local IPv4 or IPv6 address (IPv4-mapped IPv6 too). */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '')
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare)
  if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4')
  const family = isIP(bare)
  if (family === 4) return PRIVATE.check(bare, 'ipv4')
  if (family === 6) return PRIVATE.check(bare, 'ipv6')
  return false
}

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
 * Why `url` may not be sent for a tool of the public site `siteHost`, or null (spec "Why a run
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
  if (isLocalSite(siteHost)) return null
  const hostname = hostnameOf(new URL(url).host)
  if (seen.has(hostname)) return seen.get(hostname)!
  let verdict: string | null = null
  if (isIP(hostname)) {
    if (isPrivateAddress(hostname)) verdict = `${hostname} is a private or loopback address.`
  } else {
    let addresses: Array<{ address: string }> = []
    try {
      addresses = await lookup(hostname)
    } catch {
      addresses = []
    }
    const inside = addresses.find((a) => isPrivateAddress(a.address))
    if (inside)
      verdict = `${hostname} resolves to ${inside.address}, a private or loopback address: a tool of a public site may not reach it.`
  }
  seen.set(hostname, verdict)
  return verdict
}
