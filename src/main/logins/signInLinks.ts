import { randomBytes } from 'node:crypto'
import { ServiceError } from '../../shared/errors'

/** interface.md "Limits": a one-time login link lives 30 minutes. */
const SIGN_IN_LINK_MS = 30 * 60_000

/** One minted link: a bearer capability for starting one sign-in of one site. */
interface SignInLink {
  token: string
  tenant: string
  /** host[:port] of the site to sign in to. */
  host: string
  /** Where the sign-in starts (a sign-in wall's page), or null for the site's origin. */
  startUrl: string | null
  /** Milliseconds since the Unix epoch. */
  expiresAt: number
  state: 'open' | 'used' | 'declined'
  /** The sign-in flow the link started, once used. */
  signInId: string | null
}

export interface SignInLinks {
  /** Mints a link `<base>/signin/<token>` for a site; returns its URL. */
  mint(tenant: string, host: string, startUrl?: string | null): string
  /**
   * Uses a link once (it opens the sign-in flow). Errors: 409 `request_closed` when the link is
   * used, declined, expired after 30 minutes, or unknown (interface.md "Logins", "Other time-bound
   * states").
   */
  use(token: string): SignInLink
  /** Declines an open link: it is closed without a sign-in. Same errors as `use`. */
  decline(token: string): SignInLink
  /** A used link within its 30 minutes (its page reads the flow's progress), else the error. */
  opened(token: string): SignInLink
  /** Records which flow a used link started. */
  attach(token: string, signInId: string): void
}

export interface SignInLinksDeps {
  /** Milliseconds since the Unix epoch (tests pass a fake clock for the 30-minute rule). */
  clock: () => number
  /** The local server's base URL, e.g. `http://127.0.0.1:7411`. */
  baseUrl: () => string
}

const closed = (why: string) =>
  new ServiceError(
    'request_closed',
    `This sign-in link ${why}: start the call again to get a new link, or sign in from the app.`,
  )

/**
 * Creates the one-time sign-in links of the runs that met a sign-in wall with no saved login
 * (interface.md "Authentication" 7, run field `signIn.url`). Links live in this process's memory only:
 * a restart closes them all, which callers see as `request_closed`, like an expired link.
 */
export function createSignInLinks(deps: SignInLinksDeps): SignInLinks {
  const links = new Map<string, SignInLink>()
  const prune = () => {
    const now = deps.clock()
    for (const [token, link] of links) if (link.expiresAt <= now) links.delete(token)
  }
  const find = (token: string): SignInLink => {
    const link = links.get(token)
    if (!link) throw closed('is unknown or has expired')
    if (link.expiresAt <= deps.clock()) {
      links.delete(token)
      throw closed('expired after 30 minutes')
    }
    return link
  }
  const openOne = (token: string): SignInLink => {
    const link = find(token)
    if (link.state !== 'open') throw closed(`was already ${link.state}`)
    return link
  }
  return {
    mint(tenant, host, startUrl = null) {
      prune()
      const token = randomBytes(24).toString('base64url')
      links.set(token, {
        token,
        tenant,
        host,
        startUrl,
        expiresAt: deps.clock() + SIGN_IN_LINK_MS,
        state: 'open',
        signInId: null,
      })
      return `${deps.baseUrl()}/signin/${token}`
    },
    use(token) {
      const link = openOne(token)
      link.state = 'used'
      return { ...link }
    },
    decline(token) {
      const link = openOne(token)
      link.state = 'declined'
      return { ...link }
    },
    opened(token) {
      const link = find(token)
      if (link.state !== 'used')
        throw closed(link.state === 'open' ? 'is not open yet' : 'was declined')
      return { ...link }
    },
    attach(token, signInId) {
      const link = links.get(token)
      if (link) link.signInId = signInId
    },
  }
}
