import { randomBytes } from 'node:crypto'
import { ServiceError } from '../../shared/errors'
import type { SecretRepository, SecretSummary } from '../store/secretRepository'
import { KEY_BYTES, open as openEnvelope, seal } from './envelope'
import type { Keychain } from './keychain'
import { createRunSecrets, type BoundSecret, type RunSecrets } from './runSecrets'
import { checkSecretName, checkSecretValue } from './secretPolicy'
import { createUnlockBackoff } from './unlockBackoff'
import { openVault, requireKey, unlockVault, type VaultKeys, type VaultStatus } from './vaultKey'

export interface VaultDeps {
  secrets: SecretRepository
  /** The OS keychain; null skips it (`SITECALL_KEYCHAIN=off`), so a new vault asks a passphrase. */
  keychain: Keychain | null
  /** `SITECALL_PASSPHRASE`, used where no keychain holds the key. */
  passphrase?: string | null
  /** Milliseconds since the Unix epoch. */
  clock: () => number
}

export interface Vault {
  /**
   * Opens the vault once (later calls share the first attempt): the keychain's key, else the
   * `SITECALL_PASSPHRASE`, else it stays `locked` and says what unlocks it. Never rejects.
   */
  open(): Promise<VaultStatus>
  status(): VaultStatus
  /**
   * Unlocks with a passphrase (the first one given to a new keychain-less vault sets it), or with
   * no passphrase retries the keychain. Errors: 400 `invalid_input` (passphrase missing, or
   * shorter than 8 characters when first set), 422 `invalid_input` (wrong passphrase), 409
   * `conflict` (a passphrase given to a vault whose key is in the keychain), 429 `rate_limited`
   * with `retryAfterSeconds` while the back-off after wrong passphrases runs (`unlockBackoff.ts`).
   */
  unlock(passphrase?: string): Promise<VaultStatus>
  /**
   * Stores or replaces a secret (spec B `PUT /v1/accounts/{name}`); `hosts` null keeps an
   * existing secret's hosts. Errors: 400 `invalid_input`, 503 `unavailable` when locked.
   */
  put(
    tenant: string,
    name: string,
    value: string,
    hosts: string[] | null,
  ): Promise<{ created: boolean; secret: SecretSummary }>
  /** Names and bound hosts (spec B `GET /v1/accounts`); needs no unlock. */
  list(tenant: string): SecretSummary[]
  /** Deletes a secret; false when there was none. Needs no unlock. */
  remove(tenant: string, name: string): boolean
  /** A run's access to its workspace's secrets (the engine's `RunContext.secrets`). */
  forRun(tenant: string): RunSecrets
  /**
   * Refuses text that holds a stored secret's value (spec B rule 4: intents reference
   * `{{secret:NAME}}`): 422 `invalid_input` naming the secret, never its value. Values under 4
   * characters are not searched for; a locked vault cannot check and lets the text pass.
   */
  refuseSecretValues(text: string, tenant: string): Promise<void>
  /**
   * Seals bytes under the workspace's data key for another record of the vault (a login's
   * storage state): `purpose` names the record and must be the same to unseal.
   */
  sealFor(tenant: string, purpose: string, plaintext: Buffer): Promise<Buffer>
  /** Opens what `sealFor` sealed; 500 `internal` when it does not open, 503 when locked. */
  unsealFor(tenant: string, purpose: string, envelope: Buffer): Promise<Buffer>
  /**
   * `sealFor`/`unsealFor` without waiting, for writers inside a database transaction (a trace's
   * credentials): null while the vault is locked. `open` answers null for an
   * envelope that does not open.
   */
  sealerFor(tenant: string, purpose: string): SyncSealer | null
}

/** Seals and opens bytes synchronously under one workspace's data key and one purpose. */
interface SyncSealer {
  seal(plaintext: Buffer): Buffer
  open(envelope: Buffer): Buffer | null
}

/** Secrets this short are not looked for in intents (they would refuse ordinary words). */
const MIN_REFUSED = 4

const dataKeyContext = (tenant: string) => JSON.stringify(['data-key', tenant])
const secretContext = (tenant: string, name: string) => JSON.stringify(['secret', tenant, name])
const sealedContext = (tenant: string, purpose: string) =>
  JSON.stringify(['sealed', tenant, purpose])

/**
 * Creates the vault (docs/architecture.md "The pipeline and the rooms" `vault/`): a master key held in the OS
 * keychain or derived from a passphrase with scrypt wraps one AES-256 data key per workspace,
 * which seals each secret as an AES-256-GCM envelope (interface.md "Authentication" 8). The database
 * holds ciphertext only; keys live in this process's memory once unlocked.
 */
export function createVault(deps: VaultDeps): Vault {
  const v: VaultKeys = {
    repo: deps.secrets,
    keychain: deps.keychain,
    passphrase: deps.passphrase,
    clock: deps.clock,
    masterKey: null,
    state: {
      mode: 'locked',
      unlockWith: null,
      initialized: deps.secrets.meta() !== null,
      message: 'The vault has not been opened yet.',
    },
    opening: null,
    queue: Promise.resolve(),
    dataKeys: new Map(),
    backoff: createUnlockBackoff(deps.clock),
  }
  const repo = v.repo
  return {
    open: () => openVault(v),
    status: () => ({ ...v.state }),
    unlock: (passphrase) => unlockVault(v, passphrase),
    async put(tenant, name, value, hosts) {
      checkSecretName(name)
      checkSecretValue(value)
      const envelope = seal(
        await dataKey(v, tenant),
        Buffer.from(value, 'utf8'),
        secretContext(tenant, name),
      )
      const { created, record } = repo.put(tenant, name, envelope, hosts, deps.clock())
      const { createdAt, updatedAt } = record
      return { created, secret: { name: record.name, hosts: record.hosts, createdAt, updatedAt } }
    },
    list: (tenant) => repo.list(tenant),
    remove(tenant, name) {
      checkSecretName(name)
      return repo.remove(tenant, name)
    },
    forRun: (tenant) => createRunSecrets((name) => read(v, tenant, name)),
    refuseSecretValues: (text, tenant) => refuseSecretValues(v, text, tenant),
    async sealFor(tenant, purpose, plaintext) {
      return seal(await dataKey(v, tenant), plaintext, sealedContext(tenant, purpose))
    },
    sealerFor(tenant, purpose) {
      if (!v.masterKey) return null
      const key = dataKeyWith(v, v.masterKey, tenant)
      const context = sealedContext(tenant, purpose)
      return {
        seal: (plaintext) => seal(key, plaintext, context),
        open: (envelope) => openEnvelope(key, envelope, context),
      }
    },
    async unsealFor(tenant, purpose, envelope) {
      const plain = openEnvelope(await dataKey(v, tenant), envelope, sealedContext(tenant, purpose))
      if (!plain) throw new ServiceError('internal', `The sealed ${purpose} does not open.`)
      return plain
    },
  }
}

/** The workspace's data key, under the master key (opening the vault first if needed). */
async function dataKey(v: VaultKeys, tenant: string): Promise<Buffer> {
  return dataKeyWith(v, await requireKey(v), tenant)
}

/**
 * The workspace's data key, made and wrapped under `master` on first use, then kept in memory;
 * 500 `internal` when the wrapped key does not open.
 */
function dataKeyWith(v: VaultKeys, master: Buffer, tenant: string): Buffer {
  const cached = v.dataKeys.get(tenant)
  if (cached) return cached
  let wrapped = v.repo.wrappedDataKey(tenant)
  if (!wrapped)
    wrapped = v.repo.saveWrappedDataKey(
      tenant,
      seal(master, randomBytes(KEY_BYTES), dataKeyContext(tenant)),
      v.clock(),
    )
  const key = openEnvelope(master, wrapped, dataKeyContext(tenant))
  if (!key) throw new ServiceError('internal', `The data key of workspace ${tenant} does not open.`)
  v.dataKeys.set(tenant, key)
  return key
}

/** A secret's value and hosts, or null when there is none; 500 `internal` when it does not open. */
async function read(v: VaultKeys, tenant: string, name: string): Promise<BoundSecret | null> {
  const record = v.repo.get(tenant, name)
  if (!record) return null
  const value = openEnvelope(await dataKey(v, tenant), record.envelope, secretContext(tenant, name))
  if (!value) throw new ServiceError('internal', `The secret "${name}" does not open.`)
  return { name, value: value.toString('utf8'), hosts: record.hosts }
}

/** `Vault.refuseSecretValues`: 422 `invalid_input` naming the secret whose value `text` holds. */
async function refuseSecretValues(v: VaultKeys, text: string, tenant: string): Promise<void> {
  if (!v.repo.count(tenant)) return
  if (!v.masterKey) await openVault(v)
  if (!v.masterKey) return
  const key = await dataKey(v, tenant)
  for (const record of v.repo.records(tenant)) {
    const value = openEnvelope(key, record.envelope, secretContext(tenant, record.name))
    const plain = value?.toString('utf8') ?? ''
    if (plain.length >= MIN_REFUSED && text.includes(plain))
      throw new ServiceError(
        'invalid_input',
        `This text holds the value of the secret "${record.name}": write {{secret:${record.name}}} instead (secret values never go into an intent).`,
        { secret: record.name },
        422,
      )
  }
}
