import { DigestClient } from 'digest-fetch'
import type { HttpChallenge } from '../../shared/httpChallenge'
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
 * read once, only when a challenge comes; a Basic answer is then sent up front with the run's later
 * requests (RFC 7617 §2.2: the same protection space), a Digest one is made per challenge (its
 * nonce is the server's).
 */
export interface RunHttpAuth {
  /** The `Authorization` to send before any challenge (a Basic one already accepted), or null. */
  upFront(): string | null
  /**
   * The `Authorization` to send the request again with after its answer was a 401, or null
   * when the answer asks nothing Sitecall can answer or no credentials are saved.
   */
  answer(
    method: string,
    url: string,
    response: { status: number; headers: Record<string, string> },
  ): Promise<string | null>
}

/** Creates a run's {@link RunHttpAuth} over the saved login's credentials (null: none saved). */
export function createRunHttpAuth(
  credentials: (() => Promise<HttpCredentials | null>) | undefined,
): RunHttpAuth {
  let basic: string | null = null
  let saved: Promise<HttpCredentials | null> | null = null
  return {
    upFront: () => basic,
    async answer(method, url, response) {
      if (response.status !== 401 || !credentials) return null
      const challenge = readChallenge(response.headers['www-authenticate'])
      if (!challenge) return null
      const found = await (saved ??= credentials().catch(() => null))
      if (!found) return null
      const value = authorizationFor(challenge, method, url, found)
      if (challenge.scheme === 'basic') basic = value
      return value
    },
  }
}
