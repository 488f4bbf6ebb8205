import { createHash, randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createSyncServer } from './syncHttp'
import type { SyncLink, SyncLocal } from './syncLocal'
import { keepToken, type TokenPlace } from './syncTokens'
import { safeUrl } from '../../shared/safeJson'

/** The OAuth scopes a desktop asks: pull (`tools:read`) and push (`tools:sync`). */
const LINK_SCOPES = 'tools:read tools:sync'
/** The largest `since` the server takes (15 digits): a pull that answers no change. */
const NO_CHANGES_SINCE = 999_999_999_999_999
/** How long `link` waits for the person to approve in the browser, ms. */
const LINK_WAIT_MS = 10 * 60_000

export interface LinkOptions extends TokenPlace {
  serverUrl: string
  tenant: string
  local: SyncLocal
  clock: () => number
  /** An owner token (`svc_owner_…`) for scripts and tests, instead of OAuth in a browser. */
  token?: string | null
  /** The server workspace to sync with (`ws_…`); default the account's first. */
  workspace?: string | null
  /** Shows the person the URL to open (the CLI prints it); OAuth only. */
  openUrl?: (url: string) => void | Promise<void>
  fetch?: typeof fetch
  /** How long to wait for the browser's approval; default `LINK_WAIT_MS`. */
  waitMs?: number
}

/**
 * Links a workspace of this desktop to a team server (`sitecall link SERVER_URL`).
 * With OAuth (the default): registers a public client (RFC 7591) whose redirect is a loopback
 * listener on a free port (RFC 8252 §7.3), shows the authorize URL with a PKCE S256 challenge
 * (RFC 7636) and a state, waits for the browser's redirect, checks the state, trades the code
 * and the verifier for tokens, and keeps the refresh token in the keychain (else sealed by the
 * vault, see `keepToken`). With `token`: keeps that owner token the same way. Either way it
 * checks the server answers a pull before saving the link, and queues every verified or
 * quarantined tool for the first sync. Rejects with the server's refusal, a denied consent, a
 * state mismatch or a timeout; nothing is saved then.
 */
export async function linkServer(options: LinkOptions): Promise<SyncLink> {
  const serverUrl = normaliseServerUrl(options.serverUrl)
  const doFetch = options.fetch ?? fetch
  let token: string
  let bearer: string
  let clientId: string | null = null
  if (options.token) {
    token = options.token
    bearer = token
  } else {
    const granted = await authorize({ ...options, serverUrl, fetch: doFetch })
    token = granted.refreshToken
    bearer = granted.accessToken
    clientId = granted.clientId
  }
  const workspace = options.workspace ?? null
  // The token works and the workspace is one of the account's: a pull answers (after the
  // highest revision a query takes, so it carries no tool).
  await createSyncServer({ serverUrl, workspace, bearer: async () => bearer, fetch: doFetch }).pull(
    NO_CHANGES_SINCE,
  )
  const place = await keepToken(options, options.tenant, token)
  const link = {
    tenant: options.tenant,
    serverUrl,
    workspace,
    auth: options.token ? ('token' as const) : ('oauth' as const),
    clientId,
    ...place,
    linkedAt: options.clock(),
  }
  options.local.saveLink(link)
  options.local.enqueueAll(options.tenant)
  return { ...link, pulledRevision: 0 }
}

/** `https://host[:port]` without a trailing slash; http only for loopback hosts. */
export function normaliseServerUrl(text: string): string {
  const url = safeUrl(text)
  if (!url) throw new Error(`"${text}" is not a URL (https://sitecall.example.org).`)
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))
    throw new Error('A team server is reached over https (http only on this machine).')
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
}

interface Granted {
  clientId: string
  accessToken: string
  refreshToken: string
}

/** The authorization code flow with PKCE through a loopback redirect (see `linkServer`). */
async function authorize(
  options: LinkOptions & { serverUrl: string; fetch: typeof fetch },
): Promise<Granted> {
  const { serverUrl } = options
  const verifier = randomBytes(32).toString('base64url')
  const challenge = createHash('sha256').update(verifier).digest('base64url')
  const state = randomBytes(16).toString('base64url')
  const callback = await listenForCallback(options.waitMs ?? LINK_WAIT_MS)
  try {
    const redirectUri = `http://127.0.0.1:${callback.port}/callback`
    const registered = await options.fetch(`${serverUrl}/oauth/clients`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Sitecall desktop', redirect_uris: [redirectUri] }),
    })
    if (registered.status !== 201)
      throw new Error(`The server refused to register this desktop (${registered.status}).`)
    const clientId = ((await registered.json()) as { client_id: string }).client_id
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      scope: LINK_SCOPES,
      state,
    })
    await options.openUrl?.(`${serverUrl}/oauth/authorize?${query.toString()}`)
    const back = await callback.answer
    if (back.get('state') !== state) throw new Error('The browser came back with another state.')
    const code = back.get('code')
    if (!code)
      throw new Error(`The server did not grant the link: ${back.get('error') ?? 'no code'}.`)
    const res = await options.fetch(`${serverUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        client_id: clientId,
        code_verifier: verifier,
      }).toString(),
    })
    const tokens = (await res.json()) as {
      access_token?: string
      refresh_token?: string
      error?: string
    }
    if (res.status !== 200 || !tokens.access_token || !tokens.refresh_token)
      throw new Error(`The server refused the code (${tokens.error ?? res.status}).`)
    return { clientId, accessToken: tokens.access_token, refreshToken: tokens.refresh_token }
  } finally {
    callback.close()
  }
}

/**
 * A one-shot HTTP listener on 127.0.0.1 (a free port) for the browser's redirect to
 * `/callback`: resolves `answer` with its query, or rejects after `waitMs`.
 */
async function listenForCallback(waitMs: number): Promise<{
  port: number
  answer: Promise<URLSearchParams>
  close(): void
}> {
  let resolve!: (query: URLSearchParams) => void
  let reject!: (error: Error) => void
  const answer = new Promise<URLSearchParams>((res, rej) => {
    resolve = res
    reject = rej
  })
  answer.catch(() => undefined)
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    if (url.pathname !== '/callback') {
      res.writeHead(404).end()
      return
    }
    const granted = url.searchParams.has('code')
    res
      .writeHead(200, { 'content-type': 'text/plain; charset=utf-8' })
      .end(
        granted
          ? 'Sitecall is linked to the server. You can close this tab.'
          : 'The link was not granted. You can close this tab.',
      )
    resolve(url.searchParams)
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const timer = setTimeout(
    () => reject(new Error(`No approval within ${Math.round(waitMs / 1000)} s.`)),
    waitMs,
  )
  return {
    port: (server.address() as AddressInfo).port,
    answer,
    close() {
      clearTimeout(timer)
      server.close()
      server.closeAllConnections()
    },
  }
}
