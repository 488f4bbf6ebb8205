import type { BrowserContext, Page, Response } from 'playwright-core'
import type { HttpAuthChallenge } from '../../shared/appApi'
import { readChallenge, withoutUserinfo } from '../../shared/httpChallenge'

/** A username and password for a site's HTTP authentication. */
export interface HttpLogin {
  username: string
  password: string
}

/**
 * The HTTP authentication of one browser context: Chromium without an answer
 * fails a Basic or Digest challenge (`ERR_INVALID_AUTH_CREDENTIALS`) before a person could type,
 * so each challenge is told to the app, which asks the person; the answer is given to the
 * context per origin (Playwright answers the next challenge with it over CDP
 * `Fetch.continueWithAuth`) and the challenged page is loaded again.
 */
export interface HttpAuthWatch {
  /** The challenge waiting on an answer, or null. */
  pending(): HttpAuthChallenge | null
  /** Gives the context the credentials of `origin` (scheme://host:port). */
  give(origin: string, login: HttpLogin): Promise<void>
  /**
   * Answers the pending challenge: the credentials for its origin, then its page loaded again
   * on `page`. Resolves once that load ended (a refusal is a new pending challenge, `failed`).
   */
  answer(page: Page, login: HttpLogin): Promise<void>
  dispose(): void
}

/**
 * The credentials a URL's userinfo carries (`http://user:pass@host/`, percent-decoded: RFC 3986
 * §3.2.1), or null.
 */
export function userinfoOf(url: string): HttpLogin | null {
  if (!URL.canParse(url)) return null
  const parsed = new URL(url)
  if (!parsed.username && !parsed.password) return null
  return {
    username: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
  }
}

/**
 * Watches `context` for 401 challenges of the pages `own` accepts (a document, or a script's
 * request the person would have been asked for) and tells each to `onChallenge` (null once
 * answered and the page loaded).
 */
export function watchHttpAuth(
  context: BrowserContext,
  own: (response: Response) => boolean,
  onChallenge: (challenge: HttpAuthChallenge | null) => void,
): HttpAuthWatch {
  const given = new Map<string, HttpLogin>()
  let pending: HttpAuthChallenge | null = null
  const onResponse = (response: Response) => {
    if (response.status() !== 401 || !own(response)) return
    const challenge = readChallenge(response.headers()['www-authenticate'])
    if (!challenge) return
    const url = new URL(withoutUserinfo(response.url()))
    const documentUrl = response.request().isNavigationRequest() ? url.href : null
    pending = {
      url: documentUrl ?? pending?.url ?? url.href,
      host: url.host,
      scheme: challenge.scheme,
      realm: challenge.realm,
      failed: given.has(url.origin),
    }
    onChallenge(pending)
  }
  context.on('response', onResponse)
  const apply = () =>
    context.setHTTPCredentials([...given].map(([origin, login]) => ({ ...login, origin })))
  return {
    pending: () => pending,
    async give(origin, login) {
      given.set(origin, login)
      await apply()
    },
    async answer(page, login) {
      const challenge = pending
      if (!challenge) return
      given.set(new URL(challenge.url).origin, login)
      await apply()
      pending = null
      await page.goto(challenge.url, { waitUntil: 'domcontentloaded' }).catch(() => undefined)
      if (!pending) onChallenge(null)
    },
    dispose: () => void context.off('response', onResponse),
  }
}
