import { DigestClient } from 'digest-fetch'
import type { HttpChallenge } from '../../shared/httpChallenge'
import type { HttpAuthScheme } from '../../shared/toolSpec'
import { readChallenge } from '../../shared/httpChallenge'

/** The username and password saved with a site's login. */
export interface HttpCredentials {
  username: string
  password: string
}

/**
 * The `Authorization` value answering `challenge` for a request of `method` to `url`: Basic is
 * `user:password` in UTF-8, base64 (RFC 7617 §2, §2.1); Digest is computed by `digest-fetch`
 * with the algorithm the challenge names (MD5, SHA-256, SHA-512-256 and their `-sess` forms,
 * RFC 7616 §3.4), qop `auth`. Errors: throws when a Basic user-id holds a colon (RFC 7617 §2).
 */
export function authorizationFor(
  challenge: HttpChallenge,
  method: string,
  url: string,
  credentials: HttpCredentials,
): string {
  if (challenge.scheme === 'basic') {
    if (credentials.username.includes(':'))
      throw new Error('A Basic user-id cannot hold a colon (RFC 7617 §2).')
    const pair = `${credentials.username}:${credentials.password}`
    return `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`
  }
  const algorithm = DigestClient.parse(challenge.text, 'algorithm') ?? 'MD5'
  const client = new DigestClient(credentials.username, credentials.password, { algorithm })
  client.parseAuth(challenge.text)
  const answered = client.addAuth(url, { method }) as { headers: { Authorization: string } }
  return answered.headers.Authorization
}

/**
 * A run's answers to its site's HTTP authentication: the saved credentials are
 * read once, only when needed; a Basic answer is sent up front with the run's later requests
 * (RFC 7617 §2.2: the same protection space), a Digest one is made per challenge (its nonce is
 * the server's). A tool whose recorded requests carried Basic (`LoginBinding.httpAuth`) sends it
 * up front from the first request to its site: a page's script that builds the header itself
 * (a sign-in form, as Radicale's) may be answered 401 with no challenge to answer.
 */
export interface RunHttpAuth {
  /** The `Authorization` to send to `url` before any challenge, or null. */
  upFront(url: string): Promise<string | null>
  /**
   * The `Authorization` to send the request again with after its answer was a 401, or null
   * when the answer asks nothing Sitecall can answer, no credentials are saved, or `sent` (the
   * `Authorization` the request carried) was that very answer and was refused.
   */
  answer(
    method: string,
    url: string,
    response: { status: number; headers: Record<string, string> },
    sent?: string | null,
  ): Promise<string | null>
}

/**
 * Creates a run's {@link RunHttpAuth} over the saved login's credentials (null: none saved).
 * `bound`: the scheme and host of the tool's login binding, when it has one; Basic then goes
 * up front to that host only.
 */
export function createRunHttpAuth(
  credentials: (() => Promise<HttpCredentials | null>) | undefined,
  bound: { scheme: HttpAuthScheme; siteHost: string } | null = null,
): RunHttpAuth {
  let basic: string | null = null
  let saved: Promise<HttpCredentials | null> | null = null
  const read = () =>
    (saved ??= credentials ? credentials().catch(() => null) : Promise.resolve(null))
  return {
    async upFront(url) {
      if (basic || !credentials || bound?.scheme !== 'basic') return basic
      if (!URL.canParse(url) || new URL(url).host !== bound.siteHost) return null
      const found = await read()
      if (!found || found.username.includes(':')) return null
      basic = authorizationFor({ scheme: 'basic', realm: null, text: 'Basic' }, 'GET', url, found)
      return basic
    },
    async answer(method, url, response, sent = null) {
      if (response.status !== 401 || !credentials) return null
      const challenge = readChallenge(response.headers['www-authenticate'])
      if (!challenge) return null
      const found = await read()
      if (!found) return null
      const value = authorizationFor(challenge, method, url, found)
      if (challenge.scheme === 'basic') {
        if (value === sent) return null
        basic = value
      }
      return value
    },
  }
}
