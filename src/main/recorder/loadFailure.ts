/**
 * What a browser's failed page load means, in a sentence a person can act on. Playwright's
 * errors carry a `net::ERR_…` name, the URL and a call log with terminal colour codes; CDP's
 * `Page.navigate` gives the bare name; the guard proxy (proxy-chain) answers a plain-HTTP page it
 * could not reach with a status of its own (593 name not found, 594 refused, 595 reset, 599). None
 * of that is for people: this reads the cause and says it, naming the site.
 */
export interface LoadFailure {
  /** The site could not be reached at all (no page of it was shown). */
  unreachable: boolean
  /** One or two plain sentences, naming the site; no error names, no call log. */
  message: string
}

/** proxy-chain's own statuses for an upstream it could not reach (`badGatewayStatusCodes`). */
const PROXY_STATUS_CAUSE: Record<number, string> = {
  593: 'ERR_NAME_NOT_RESOLVED',
  594: 'ERR_CONNECTION_REFUSED',
  595: 'ERR_CONNECTION_RESET',
  596: 'ERR_CONNECTION_RESET',
  599: 'ERR_CONNECTION_FAILED',
}

/**
 * The reason of a failed load, from the error (Playwright's or CDP's text) or from the status the
 * guard proxy answered instead of the site; null when it names nothing known (then the load is
 * not treated as unreachable).
 */
function causeOf(failure: unknown): string | null {
  if (typeof failure === 'number') return PROXY_STATUS_CAUSE[failure] ?? null
  const text = failure instanceof Error ? failure.message : String(failure ?? '')
  const name = /net::(ERR_[A-Z0-9_]+)/.exec(text)?.[1] ?? /\b(ERR_[A-Z0-9_]+)\b/.exec(text)?.[1]
  if (name) return name
  if (/Timeout \d+ms exceeded/i.test(text)) return 'ERR_TIMED_OUT'
  if (/ECONNREFUSED/.test(text)) return 'ERR_CONNECTION_REFUSED'
  if (/ENOTFOUND|EAI_AGAIN/.test(text)) return 'ERR_NAME_NOT_RESOLVED'
  return null
}

/**
 * Says why `url` did not open in a browser (`failure`: the thrown error, CDP's `errorText`, or
 * the guard proxy's status code). Chromium's error names are listed in its
 * `net/base/net_error_list.h`; the unknown ones are said without their name.
 */
export function describeLoadFailure(url: string, failure: unknown): LoadFailure {
  const where = URL.canParse(url) ? new URL(url) : null
  const origin = where?.origin ?? url
  const host = where?.hostname ?? url
  const cause = causeOf(failure)
  const unreachable = (message: string): LoadFailure => ({ unreachable: true, message })
  switch (cause) {
    case 'ERR_NAME_NOT_RESOLVED':
    case 'ERR_NAME_RESOLUTION_FAILED':
      return unreachable(
        `${host} cannot be reached: no site of that name was found. Check the address.`,
      )
    case 'ERR_CONNECTION_REFUSED':
      return unreachable(
        `${origin} cannot be reached: nothing answers there. Check the address and port, or that the site is running.`,
      )
    case 'ERR_TIMED_OUT':
    case 'ERR_CONNECTION_TIMED_OUT':
      return unreachable(`${origin} cannot be reached: it did not answer in time.`)
    case 'ERR_CONNECTION_RESET':
    case 'ERR_CONNECTION_CLOSED':
    case 'ERR_EMPTY_RESPONSE':
      return unreachable(`${origin} cannot be reached: it closed the connection without answering.`)
    case 'ERR_ADDRESS_UNREACHABLE':
    case 'ERR_INTERNET_DISCONNECTED':
    case 'ERR_NETWORK_CHANGED':
    case 'ERR_CONNECTION_FAILED':
    case 'ERR_TUNNEL_CONNECTION_FAILED':
    case 'ERR_PROXY_CONNECTION_FAILED':
      return unreachable(`${origin} cannot be reached from this machine.`)
    case 'ERR_UNSAFE_PORT':
      return unreachable(
        `${origin} cannot be opened: browsers refuse port ${where?.port || '?'}, which belongs to another kind of service. Check the address and port.`,
      )
    case 'ERR_ABORTED':
      return { unreachable: false, message: `${origin} stopped loading before the page was shown.` }
    default:
      if (cause?.startsWith('ERR_CERT_') || cause?.startsWith('ERR_SSL_'))
        return unreachable(
          `${origin} cannot be opened safely: its security certificate is not valid for this address.`,
        )
      return { unreachable: false, message: `${origin} did not open.` }
  }
}
