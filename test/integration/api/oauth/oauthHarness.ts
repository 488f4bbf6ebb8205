import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createCore, type Core } from '../../../../src/main/core'
import type { RateLimits } from '../../../../src/main/api/rateLimit'
import { startDirectorySite, type DirectorySite } from '../../../fixtures/sites/directory'

export const REDIRECT_URI = 'http://127.0.0.1:9/callback'

export interface AuthHarness {
  core: Core
  base: string
  site: DirectorySite
  /** Moves the core's clock forward by `ms`. */
  advance(ms: number): void
  close(): Promise<void>
}

/** A real core (temp SQLite file, port 0) on a fake clock that only moves when told. */
export async function startAuthHarness(
  options: { rateLimits?: RateLimits | null } = {},
): Promise<AuthHarness> {
  let now = Date.now()
  const home = mkdtempSync(join(tmpdir(), 'sitecall-auth-'))
  const site = await startDirectorySite()
  const core = createCore({
    home,
    port: 0,
    rendererDir: null,
    keychain: null,
    clock: () => now,
    rateLimits: options.rateLimits === undefined ? null : options.rateLimits,
  })
  const base = await core.listen()
  return {
    core,
    base,
    site,
    advance: (ms) => {
      now += ms
    },
    async close() {
      await site.close()
      await core.close()
      rmSync(home, { recursive: true, force: true })
    },
  }
}

/** A PKCE pair (RFC 7636): a 43-character verifier and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

/** `POST` of a form (application/x-www-form-urlencoded); redirects are not followed. */
export function postForm(
  base: string,
  path: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
    redirect: 'manual',
  })
}

/** Registers a public client with one loopback redirect URI; returns its client_id. */
export async function registerClient(base: string, name = 'Test agent'): Promise<string> {
  const res = await fetch(`${base}/oauth/clients`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: name, redirect_uris: [REDIRECT_URI] }),
  })
  if (res.status !== 201) throw new Error(`registration answered ${res.status}`)
  return ((await res.json()) as { client_id: string }).client_id
}

/** The authorize URL's query for a client, a challenge and scopes. */
export function authorizeQuery(
  clientId: string,
  challenge: string,
  extra: Record<string, string> = {},
): string {
  return new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    scope: 'tools:read',
    state: 'st-123',
    ...extra,
  }).toString()
}

/**
 * Walks the consent the way a browser does: opens the consent page with the owner token in the
 * query (the page keeps it in its cookie), then posts Approve (or Deny) with that cookie.
 * Resolves with the redirect the client receives.
 */
export async function consent(
  h: Pick<AuthHarness, 'base' | 'core'>,
  query: string,
  decision: 'approve' | 'deny' = 'approve',
): Promise<URL> {
  const page = await fetch(
    `${h.base}/oauth/authorize?${query}&token=${encodeURIComponent(h.core.ownerToken)}`,
    { redirect: 'manual' },
  )
  if (page.status !== 200) throw new Error(`consent page answered ${page.status}`)
  const cookie = page.headers.get('set-cookie')!.split(';')[0]!
  const html = await page.text()
  const id = /name="consent" value="([^"]+)"/.exec(html)![1]!
  const answer = await postForm(h.base, '/oauth/authorize', { consent: id, decision }, { cookie })
  if (answer.status !== 303) throw new Error(`consent answered ${answer.status}`)
  return new URL(answer.headers.get('location')!)
}

export interface TokenAnswer {
  access_token: string
  token_type: string
  expires_in: number
  refresh_token: string
  scope: string
  error?: string
  error_description?: string
}

/** `POST /oauth/token`; resolves with the status and the parsed body. */
export async function token(
  base: string,
  form: Record<string, string>,
): Promise<{ status: number; body: TokenAnswer }> {
  const res = await postForm(base, '/oauth/token', form)
  return { status: res.status, body: (await res.json()) as TokenAnswer }
}

/** The whole code flow: register, consent, exchange. */
export async function signIn(h: Pick<AuthHarness, 'base' | 'core'>, scope = 'tools:read') {
  const clientId = await registerClient(h.base)
  const { verifier, challenge } = pkcePair()
  const back = await consent(h, authorizeQuery(clientId, challenge, { scope }))
  const answer = await token(h.base, {
    grant_type: 'authorization_code',
    code: back.searchParams.get('code')!,
    redirect_uri: REDIRECT_URI,
    client_id: clientId,
    code_verifier: verifier,
  })
  if (answer.status !== 200) throw new Error(`token answered ${answer.status}`)
  return { clientId, tokens: answer.body }
}
