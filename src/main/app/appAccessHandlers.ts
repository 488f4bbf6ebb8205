import { ServiceError } from '../../shared/errors'
import { normalizeSecretHosts } from '../vault'
import { parseLocalSiteHost } from '../surface/localSites'
import { saveScope } from '../surface/toolScopes'
import { checkContract } from '../surface/bodyCheck'
import { SCOPE_BODY_SCHEMA, type ScopeBody } from '../../shared/accountApiSchemas'

import type { AppContext, HandlersOf } from './appContext'

/** Who may call the workspace: API keys, tool scopes and allowed local sites. */
export function accessHandlers(
  ctx: AppContext,
): HandlersOf<
  | 'keys.list'
  | 'scopes.list'
  | 'scopes.delete'
  | 'scopes.create'
  | 'keys.revoke'
  | 'localSites.list'
  | 'localSites.allow'
  | 'localSites.remove'
  | 'keys.create'
> {
  const { deps, store } = ctx
  return {
    'keys.list': async () =>
      store.keys
        .list(deps.tenant)
        .map(({ id, label, prefix, createdAt, revokedAt, lastUsedAt }) => ({
          id,
          label,
          prefix,
          createdAt,
          revokedAt,
          lastUsedAt: lastUsedAt ?? null,
        })),
    'scopes.list': async () => store.scopes.list(deps.tenant),
    'scopes.delete': async ({ slug }) => ({ deleted: store.scopes.remove(deps.tenant, slug) }),
    'scopes.create': async (input) => {
      // The contract and rules of POST /api/v1/scopes: slug grammar, 200 entries, 20 scopes.
      const body = checkContract<ScopeBody>(SCOPE_BODY_SCHEMA, input)
      return saveScope(store.scopes, deps.tenant, body, deps.clock()).record
    },
    'keys.revoke': async ({ id }) => {
      // Only this workspace's keys: an id from another workspace is as unknown as a wrong one.
      if (!store.keys.list(deps.tenant).some((k) => k.id === id))
        throw new ServiceError('not_found', `No key ${id}.`)
      return { revoked: store.keys.revoke(id, deps.clock()) }
    },
    'localSites.list': async () => store.localSites.list(deps.tenant),
    'localSites.allow': async ({ host }) => {
      const name = parseLocalSiteHost(host)
      store.localSites.add(deps.tenant, name, deps.clock())
      return store.localSites.list(deps.tenant).find((s) => s.host === name)!
    },
    'localSites.remove': async ({ host }) => ({
      removed: store.localSites.remove(deps.tenant, parseLocalSiteHost(host)),
    }),
    'keys.create': async ({ label }) => {
      const { key, record } = store.keys.create(
        { id: `key_${deps.ulid()}`, tenant: deps.tenant, label },
        deps.clock(),
      )
      const { id, prefix, createdAt, revokedAt } = record
      return { key, summary: { id, label, prefix, createdAt, revokedAt, lastUsedAt: null } }
    },
  }
}

/** Secrets, the vault, saved site logins and sign-in flows (`secrets.*`, `vault.*`, `logins.*`). */
export function vaultHandlers(
  ctx: AppContext,
): HandlersOf<
  | 'secrets.list'
  | 'secrets.set'
  | 'secrets.delete'
  | 'vault.status'
  | 'vault.unlock'
  | 'logins.list'
  | 'logins.signIn'
  | 'logins.signInState'
  | 'logins.finishSignIn'
  | 'logins.cancelSignIn'
  | 'logins.answerAuth'
  | 'logins.forget'
> {
  const { deps } = ctx
  return {
    'secrets.list': async () => deps.vault.list(deps.tenant),
    'secrets.set': async ({ name, value, hosts }) =>
      (await deps.vault.put(deps.tenant, name, value, normalizeSecretHosts(hosts))).secret,
    'secrets.delete': async ({ name }) => ({ deleted: deps.vault.remove(deps.tenant, name) }),
    'vault.status': async () => {
      // open() answers what the first opening found; status() is the vault as it is now.
      await deps.vault.open()
      return deps.vault.status()
    },
    'vault.unlock': async ({ passphrase }) => deps.vault.unlock(passphrase),
    'logins.list': async () => deps.logins.saved.list(deps.tenant),
    'logins.signIn': async (target) => deps.logins.flows.start(deps.tenant, target),
    'logins.signInState': async ({ signInId }) => deps.logins.flows.get(deps.tenant, signInId),
    'logins.finishSignIn': async ({ signInId, ...choice }) =>
      deps.logins.flows.finish(deps.tenant, signInId, choice),
    'logins.cancelSignIn': async ({ signInId }) => deps.logins.flows.cancel(deps.tenant, signInId),
    'logins.answerAuth': async ({ signInId, ...login }) =>
      deps.logins.flows.answerAuth(deps.tenant, signInId, login),
    'logins.forget': async ({ host }) => ({
      forgotten: deps.logins.saved.forget(deps.tenant, host.trim().toLowerCase()),
    }),
  }
}
