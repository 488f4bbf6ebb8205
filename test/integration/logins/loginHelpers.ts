import { randomUUID } from 'node:crypto'
import { createCore, type Core } from '../../../src/main/core'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import type { StorageState } from '../../../src/shared/trace'
import type { OrdersSite } from '../../fixtures/sites/orders'

/** The passphrase of test vaults (no Secret Service on these machines). */
export const TEST_PASSPHRASE = 'correct horse battery staple'

/**
 * Saves a site's login the way the app does (sealed in the vault), unlocking a locked test vault
 * with {@link TEST_PASSPHRASE} first (a new keychain-less vault takes it as its passphrase).
 */
export async function saveTestLogin(
  core: Core,
  tenant: string,
  siteHost: string,
  state: StorageState,
): Promise<void> {
  if ((await core.vault.open()).mode === 'locked') await core.vault.unlock(TEST_PASSPHRASE)
  await core.logins.save(tenant, siteHost, state)
}

/**
 * Environment under which a core (or a `sitecall serve` child) opens its vault by itself with
 * {@link TEST_PASSPHRASE} and never asks the OS keychain.
 */
export const TEST_VAULT_ENV = { SITECALL_KEYCHAIN: 'off', SITECALL_PASSPHRASE: TEST_PASSPHRASE }

/**
 * Seals a site's login into the data dir `home` before the app using it starts: a short-lived
 * core on that dir saves it under a vault keyed by {@link TEST_PASSPHRASE}, so the app must
 * start with {@link TEST_VAULT_ENV} to read it.
 */
export async function saveTestLoginAt(
  home: string,
  tenant: string,
  siteHost: string,
  state: StorageState,
): Promise<void> {
  const core = createCore({
    home,
    rendererDir: null,
    keychain: null,
    env: { ...process.env, ...TEST_VAULT_ENV },
  })
  try {
    await saveTestLogin(core, tenant, siteHost, state)
  } finally {
    await core.close()
  }
}

/**
 * The site host a one-time sign-in link of `core` (`<base>/signin/<token>`, the run field
 * `signIn.url`) was minted for, or null when `url` is no open link of it. Reading it declines the
 * link, so it cannot be used afterwards.
 */
export function signInLinkHost(
  core: Core,
  base: string,
  url: string | null | undefined,
): string | null {
  const prefix = `${base}/signin/`
  if (!url?.startsWith(prefix)) return null
  try {
    return core.signInLinks.decline(url.slice(prefix.length)).host
  } catch {
    return null
  }
}

/** `GET /api/orders` of the orders site, bound to its cookie login (`parcel_session`). */
export function cookieOrdersTool(site: OrdersSite): ToolSpec {
  return {
    id: randomUUID(),
    siteHost: site.host,
    name: 'orders__list_orders',
    capabilityId: `${site.host}/orders__list_orders`,
    intent: 'list my orders',
    description: 'The signed-in person’s orders.',
    version: '2026.1.1',
    mutating: false,
    status: 'verified',
    inputs: { type: 'object', properties: {}, required: [] },
    steps: [
      {
        id: 'target',
        request: {
          method: 'GET',
          url: `${site.url}/api/orders`,
          headers: { accept: 'application/json' },
          body: null,
        },
        extract: [],
      },
    ],
    login: { cookies: ['parcel_session'], values: [] },
    output: { type: 'object' },
    verify: {
      status: [200, 299],
      mimeType: 'application/json',
      required: [{ path: 'orders', type: 'array' }],
    },
    via: 'http',
    evidence: {
      traceId: 'trc_handwritten',
      targetExchangeId: 'exc_1',
      exchangeIds: ['exc_1'],
      score: 1,
      signals: [],
      alternatives: [],
    },
    createdAt: 0,
    updatedAt: 0,
  }
}

/** The site's `POST path` requests so far (a fresh sign-in posts `/login`, then `/login/otp`). */
export const postsTo = (site: OrdersSite, path: string) =>
  site.state.requests.filter((r) => r.method === 'POST' && r.path === path).length
