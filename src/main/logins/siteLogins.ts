import { plainLoginSecretName, type LoginSecretPart } from '../../shared/loginSecrets'
import { createHash } from 'node:crypto'
import type { LoginSummary } from '../../shared/appApi'
import { isServiceError, ServiceError } from '../../shared/errors'
import type { StorageState } from '../../shared/trace'
import type { LoginRecord, LoginRepository, LoginSecretNames } from '../store/loginRepository'
import type { Vault } from '../vault/vault'
import { safeUrl } from '../../shared/safeJson'

/** What a person chose to keep of a sign-in besides the storage state. */
interface LoginSaveOptions {
  /** Saved as the secrets `login.<host>.username` / `.password`, bound to the site's host. */
  credentials?: { username: string; password: string } | null
  /** A TOTP seed (Base32, or an `otpauth://totp/…?secret=…` URI), saved as `login.<host>.totp`. */
  totpSeed?: string | null
  /** The page the password was typed on (where an automatic sign-in starts). */
  loginUrl?: string | null
}

/** The saved username, password and TOTP seed of a site: what an automatic sign-in types. */
interface LoginCredentials {
  username: string
  password: string
  /** Base32, or null when no seed was saved (a second factor then needs the person). */
  totpSeed: string | null
}

/** What a run gets: the site's storage state, or why a saved one cannot be read now. */
interface LoadedLogin {
  state: StorageState | null
  /** Set when a login is saved but the vault is locked: what to do, for the run's error. */
  locked: string | null
  /**
   * The saved username and password, read only when the site asks HTTP authentication; absent when
   * the login keeps none.
   */
  httpCredentials?: () => Promise<{ username: string; password: string } | null>
}

export interface SiteLogins {
  /**
   * Seals and saves a site's storage state (and the chosen secrets). Errors: 400
   * `invalid_input` (a TOTP seed that is not Base32 or an otpauth URI), 503 `unavailable` when
   * the vault is locked (nothing is saved then, never in the clear).
   */
  save(
    tenant: string,
    siteHost: string,
    state: StorageState,
    options?: LoginSaveOptions,
  ): Promise<void>
  /**
   * Saves the username and password a site's HTTP authentication (Basic, Digest) accepted as its
   * login, keeping the storage state already saved (an empty one otherwise). Errors: 503
   * `unavailable` when the vault is locked (nothing saved).
   */
  saveHttpAuth(
    tenant: string,
    siteHost: string,
    credentials: { username: string; password: string },
    loginUrl: string,
  ): Promise<void>
  /** The login a run uses (marks it used); `locked` instead of throwing when the vault is. */
  load(tenant: string, siteHost: string): Promise<LoadedLogin>
  /** The saved username and password (with the seed, if any), or null when none were kept. */
  credentials(tenant: string, siteHost: string): Promise<LoginCredentials | null>
  list(tenant: string): LoginSummary[]
  get(tenant: string, siteHost: string): LoginSummary | null
  /** Deletes the login and its secrets; false when there was none. */
  forget(tenant: string, siteHost: string): boolean
  /**
   * Seals the storage states saved in the clear before migration 008 and empties their column
   * (then checkpoints the WAL so the old pages leave the file). Returns how many; 0 and nothing
   * changed while the vault is locked.
   */
  sealPlaintext(): Promise<number>
}

export interface SiteLoginsDeps {
  repo: LoginRepository
  vault: Pick<Vault, 'sealFor' | 'unsealFor' | 'put' | 'remove' | 'forRun' | 'status' | 'open'>
  clock: () => number
  /** Runs after the plaintext pass (a WAL checkpoint); optional. */
  afterSealing?: () => void
}

const BASE32 = /^[A-Z2-7]+=*$/
/** RFC 4226 §4 asks for at least 128 bits of shared secret: 26 Base32 characters. */
const MIN_SEED_CHARS = 16

/** The vault purpose a login's storage state is sealed under (GCM additional data). */
const statePurpose = (siteHost: string) => `login-state:${siteHost}`

/**
 * The secret name of one part of a site's login: `login.<host>.<part>` with `:` written `_`
 * (secret names take letters, digits, `_`, `-`, `.`); a host too long for 64 characters is
 * replaced by its SHA-256 prefix.
 */
export function loginSecretName(siteHost: string, part: LoginSecretPart): string {
  const plain = plainLoginSecretName(siteHost, part)
  if (plain) return plain
  return `login.${createHash('sha256').update(siteHost).digest('hex').slice(0, 24)}.${part}`
}

/**
 * Reads a TOTP seed as a person pastes it: Base32 (spaces, dashes and case ignored) or an
 * `otpauth://totp/...?secret=...` URI (Key Uri Format of Google Authenticator). Returns the
 * Base32 seed. Errors: 400 `invalid_input` (the message never quotes the seed).
 */
export function parseTotpSeed(input: string): string {
  let raw = input.trim()
  if (/^otpauth:/i.test(raw)) {
    const url = safeUrl(raw)
    if (!url) throw new ServiceError('invalid_input', 'The otpauth:// URI cannot be read.')
    if (url.host.toLowerCase() !== 'totp')
      throw new ServiceError('invalid_input', 'Only otpauth://totp/ URIs hold a TOTP seed.')
    raw = url.searchParams.get('secret') ?? ''
  }
  const seed = raw.replace(/[\s-]/g, '').toUpperCase()
  if (!BASE32.test(seed) || seed.replace(/=+$/, '').length < MIN_SEED_CHARS)
    throw new ServiceError(
      'invalid_input',
      `A TOTP seed is Base32 (A-Z, 2-7) of at least ${MIN_SEED_CHARS} characters, or an otpauth://totp/ URI.`,
    )
  return seed
}

const summarize = (r: LoginRecord): LoginSummary => ({
  host: r.siteHost,
  savedAt: r.savedAt,
  lastUsedAt: r.lastUsedAt,
  hasPassword: !!r.secrets.password,
  hasTotp: !!r.secrets.totp,
  loginUrl: r.loginUrl,
})

/**
 * Creates the site-login store of the vault: a login's storage state is
 * an AES-256-GCM envelope under the workspace's data key, and its username, password and TOTP
 * seed are ordinary vault secrets bound to the site's host, so `{{secret:login.<host>.password}}`
 * may also be used by a tool and is refused anywhere else (`policy_denied`).
 */
export function createSiteLogins(deps: SiteLoginsDeps): SiteLogins {
  const { repo, vault } = deps
  const unseal = async (record: LoginRecord): Promise<StorageState | null> => {
    if (record.sealedState)
      return JSON.parse(
        (
          await vault.unsealFor(record.tenant, statePurpose(record.siteHost), record.sealedState)
        ).toString('utf8'),
      ) as StorageState
    return record.plaintextState ? (JSON.parse(record.plaintextState) as StorageState) : null
  }
  const seal = (tenant: string, siteHost: string, state: StorageState) =>
    vault.sealFor(tenant, statePurpose(siteHost), Buffer.from(JSON.stringify(state), 'utf8'))

  const service: SiteLogins = {
    async save(tenant, siteHost, state, options = {}) {
      const seed = options.totpSeed ? parseTotpSeed(options.totpSeed) : null
      const sealed = await seal(tenant, siteHost, state)
      const hosts = [siteHost.toLowerCase()]
      let secrets: LoginSecretNames | undefined
      if (options.credentials || seed) {
        secrets = { ...(repo.get(tenant, siteHost)?.secrets ?? {}) }
        if (options.credentials) {
          secrets.username = loginSecretName(siteHost, 'username')
          secrets.password = loginSecretName(siteHost, 'password')
          await vault.put(tenant, secrets.username, options.credentials.username, hosts)
          await vault.put(tenant, secrets.password, options.credentials.password, hosts)
        }
        if (seed) {
          secrets.totp = loginSecretName(siteHost, 'totp')
          await vault.put(tenant, secrets.totp, seed, hosts)
        }
      }
      repo.save(tenant, siteHost, sealed, deps.clock(), {
        ...(secrets ? { secrets } : {}),
        ...(options.loginUrl !== undefined ? { loginUrl: options.loginUrl } : {}),
      })
    },

    async saveHttpAuth(tenant, siteHost, credentials, loginUrl) {
      const record = repo.get(tenant, siteHost)
      const state = (record ? await unseal(record) : null) ?? { cookies: [], origins: [] }
      await service.save(tenant, siteHost, state, { credentials, loginUrl })
    },

    async load(tenant, siteHost) {
      const record = repo.get(tenant, siteHost)
      if (!record) return { state: null, locked: null }
      try {
        const state = await unseal(record)
        repo.touch(tenant, siteHost, deps.clock())
        const httpCredentials = async () => {
          const saved = await service.credentials(tenant, siteHost)
          return saved ? { username: saved.username, password: saved.password } : null
        }
        return { state, locked: null, ...(record.secrets.password ? { httpCredentials } : {}) }
      } catch (error) {
        if (!isServiceError(error) || error.code !== 'unavailable') throw error
        return {
          state: null,
          locked: `The saved login of ${siteHost} is sealed in the vault, which is locked: unlock it (in the app: Secrets; over the API: POST /v1/vault/unlock), then call again. ${error.message}`,
        }
      }
    },

    async credentials(tenant, siteHost) {
      const names = repo.get(tenant, siteHost)?.secrets
      if (!names?.username || !names.password) return null
      const secrets = vault.forRun(tenant)
      const read = async (name: string | undefined) =>
        name ? ((await secrets.resolve(name))?.value ?? null) : null
      const username = await read(names.username)
      const password = await read(names.password)
      if (username === null || password === null) return null
      return { username, password, totpSeed: await read(names.totp) }
    },

    list: (tenant) => repo.list(tenant).map(summarize),

    get(tenant, siteHost) {
      const record = repo.get(tenant, siteHost)
      return record ? summarize(record) : null
    },

    forget(tenant, siteHost) {
      const record = repo.get(tenant, siteHost)
      if (!record) return false
      for (const name of Object.values(record.secrets)) if (name) vault.remove(tenant, name)
      return repo.remove(tenant, siteHost)
    },

    async sealPlaintext() {
      const rows = repo.plaintext()
      if (!rows.length) return 0
      if ((await vault.open()).mode === 'locked') return 0
      let sealed = 0
      for (const row of rows) {
        const state = JSON.parse(row.plaintextState!) as StorageState
        repo.save(
          row.tenant,
          row.siteHost,
          await seal(row.tenant, row.siteHost, state),
          row.savedAt,
        )
        sealed++
      }
      deps.afterSealing?.()
      return sealed
    },
  }
  return service
}
