import { randomBytes } from 'node:crypto'
import { isServiceError, ServiceError } from '../../shared/errors'
import type {
  SecretRepository,
  SecretSummary,
  VaultKeyMode,
  VaultMeta,
} from '../store/secretRepository'
import { KEY_BYTES, open as openEnvelope, seal } from './envelope'
import type { Keychain } from './keychain'
import { deriveMasterKey, MAX_PASSPHRASE, MIN_PASSPHRASE, newKdfParams } from './passphrase'
import { createRunSecrets, type BoundSecret, type RunSecrets } from './runSecrets'
import { checkSecretName, checkSecretValue } from './secretPolicy'
import { createUnlockBackoff } from './unlockBackoff'

/** Which mode the vault is in (it always says so, and never falls back to plaintext). */
interface VaultStatus {
  /** `keychain` or `passphrase` when open; `locked` until a key is at hand. */
  mode: VaultKeyMode | 'locked'
  /** What opens a locked vault: a passphrase (the one set, or a first one), or the keychain. */
  unlockWith: 'passphrase' | 'keychain' | null
  /** False for a new vault whose master key is not chosen yet. */
  initialized: boolean
  /** One sentence for a person: the mode, or what to do to unlock. */
  message: string
}

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

const CHECK_PLAINTEXT = Buffer.from('sitecall vault check 1', 'utf8')
const CHECK_CONTEXT = 'vault-check'
/** Secrets this short are not looked for in intents (they would refuse ordinary words). */
const MIN_REFUSED = 4

const keychainAccount = (keyId: string) => `master-key-${keyId}`
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
  const repo = deps.secrets
  let masterKey: Buffer | null = null
  let state: VaultStatus = {
    mode: 'locked',
    unlockWith: null,
    initialized: repo.meta() !== null,
    message: 'The vault has not been opened yet.',
  }
  let opening: Promise<VaultStatus> | null = null
  let queue: Promise<unknown> = Promise.resolve()
  const dataKeys = new Map<string, Buffer>()
  const backoff = createUnlockBackoff(deps.clock)

  const locked = (unlockWith: 'passphrase' | 'keychain', message: string): VaultStatus => {
    masterKey = null
    state = { mode: 'locked', unlockWith, initialized: repo.meta() !== null, message }
    return state
  }
  const unlocked = (mode: VaultKeyMode, key: Buffer): VaultStatus => {
    masterKey = key
    state = {
      mode,
      unlockWith: null,
      initialized: true,
      message:
        mode === 'keychain'
          ? 'Secrets are sealed under a key kept in the OS keychain.'
          : 'Secrets are sealed under a key derived from your passphrase; it is asked once per start.',
    }
    return state
  }
  const opens = (key: Buffer, meta: VaultMeta) =>
    openEnvelope(key, meta.check, CHECK_CONTEXT)?.equals(CHECK_PLAINTEXT) === true
  const newMeta = (mode: VaultKeyMode, key: Buffer, keyId: string, kdf: VaultMeta['kdf']) =>
    repo.createMeta({
      mode,
      keyId,
      kdf,
      check: seal(key, CHECK_PLAINTEXT, CHECK_CONTEXT),
      createdAt: deps.clock(),
    })

  async function setUpKeychain(
    keychain: Keychain,
  ): Promise<{ ok: true; status: VaultStatus } | { ok: false; message: string }> {
    const keyId = randomBytes(12).toString('hex')
    const key = randomBytes(KEY_BYTES)
    const stored = await keychain.set(keychainAccount(keyId), key.toString('base64'))
    if (!stored.ok) return { ok: false, message: stored.message }
    // Read it back: some stores accept a write they do not keep (a session-only collection).
    const back = await keychain.get(keychainAccount(keyId))
    if (!back.ok || back.value !== key.toString('base64'))
      return { ok: false, message: back.ok ? 'the keychain did not keep the key' : back.message }
    if (!newMeta('keychain', key, keyId, null)) {
      // Another process set the vault up first: use its key, drop ours.
      await keychain.remove(keychainAccount(keyId))
      return { ok: true, status: await attemptOpen() }
    }
    return { ok: true, status: unlocked('keychain', key) }
  }

  async function setUpPassphrase(passphrase: string): Promise<VaultStatus> {
    checkPassphrase(passphrase, true)
    const kdf = newKdfParams()
    const key = await deriveMasterKey(passphrase, kdf)
    if (!newMeta('passphrase', key, randomBytes(12).toString('hex'), kdf))
      return unlockWithPassphrase(repo.meta()!, passphrase)
    return unlocked('passphrase', key)
  }

  async function unlockWithPassphrase(meta: VaultMeta, passphrase: string): Promise<VaultStatus> {
    checkPassphrase(passphrase, false)
    const key = await deriveMasterKey(passphrase, meta.kdf!)
    if (!opens(key, meta))
      throw new ServiceError('invalid_input', 'This passphrase does not open the vault.', {}, 422)
    return unlocked('passphrase', key)
  }

  async function openFromKeychain(meta: VaultMeta): Promise<VaultStatus> {
    if (!deps.keychain)
      return locked(
        'keychain',
        'The vault key is in the OS keychain, but keychain use is off (SITECALL_KEYCHAIN=off).',
      )
    const answer = await deps.keychain.get(keychainAccount(meta.keyId))
    if (!answer.ok)
      return locked(
        'keychain',
        `The vault key is in the OS keychain, which did not answer (${answer.message}): unlock the keychain, then POST /v1/vault/unlock with no passphrase.`,
      )
    if (answer.value === null)
      return locked(
        'keychain',
        `The vault key is missing from the OS keychain (service Sitecall, account ${keychainAccount(meta.keyId)}): secrets stored under it cannot be read.`,
      )
    const key = Buffer.from(answer.value, 'base64')
    if (!opens(key, meta))
      return locked('keychain', 'The key in the OS keychain does not open this vault.')
    return unlocked('keychain', key)
  }

  async function attemptOpen(): Promise<VaultStatus> {
    const meta = repo.meta()
    if (meta?.mode === 'keychain') return openFromKeychain(meta)
    if (meta?.mode === 'passphrase') {
      if (!deps.passphrase)
        return locked(
          'passphrase',
          'The vault is locked: send the passphrase (POST /v1/vault/unlock {passphrase}, or start with SITECALL_PASSPHRASE).',
        )
      try {
        return await unlockWithPassphrase(meta, deps.passphrase)
      } catch (error) {
        return locked(
          'passphrase',
          `SITECALL_PASSPHRASE does not open the vault: ${(error as Error).message}`,
        )
      }
    }
    let why = 'keychain use is off (SITECALL_KEYCHAIN=off)'
    if (deps.keychain) {
      const set = await setUpKeychain(deps.keychain)
      if (set.ok) return set.status
      why = set.message
    }
    if (deps.passphrase) {
      try {
        return await setUpPassphrase(deps.passphrase)
      } catch (error) {
        return locked(
          'passphrase',
          `SITECALL_PASSPHRASE cannot be used: ${(error as Error).message}`,
        )
      }
    }
    return locked(
      'passphrase',
      `No OS keychain holds the vault key (${why}): choose a passphrase of at least ${MIN_PASSPHRASE} characters (POST /v1/vault/unlock {passphrase}, or start with SITECALL_PASSPHRASE).`,
    )
  }

  const open = (): Promise<VaultStatus> => (opening ??= attemptOpen())

  /** Runs key changes one at a time, after the first open attempt. */
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(() => open()).then(task)
    queue = run.catch(() => undefined)
    return run
  }

  async function requireKey(): Promise<Buffer> {
    if (!masterKey) await open()
    if (!masterKey) throw new ServiceError('unavailable', state.message)
    return masterKey
  }

  async function dataKey(tenant: string): Promise<Buffer> {
    return dataKeyWith(await requireKey(), tenant)
  }

  function dataKeyWith(master: Buffer, tenant: string): Buffer {
    const cached = dataKeys.get(tenant)
    if (cached) return cached
    let wrapped = repo.wrappedDataKey(tenant)
    if (!wrapped)
      wrapped = repo.saveWrappedDataKey(
        tenant,
        seal(master, randomBytes(KEY_BYTES), dataKeyContext(tenant)),
        deps.clock(),
      )
    const key = openEnvelope(master, wrapped, dataKeyContext(tenant))
    if (!key)
      throw new ServiceError('internal', `The data key of workspace ${tenant} does not open.`)
    dataKeys.set(tenant, key)
    return key
  }

  async function read(tenant: string, name: string): Promise<BoundSecret | null> {
    const record = repo.get(tenant, name)
    if (!record) return null
    const value = openEnvelope(await dataKey(tenant), record.envelope, secretContext(tenant, name))
    if (!value) throw new ServiceError('internal', `The secret "${name}" does not open.`)
    return { name, value: value.toString('utf8'), hosts: record.hosts }
  }

  return {
    open,
    status: () => ({ ...state }),

    unlock(passphrase) {
      return serial(async () => {
        if (masterKey) return { ...state }
        const meta = repo.meta()
        if (passphrase === undefined) {
          if (meta?.mode === 'passphrase')
            throw new ServiceError('invalid_input', '"passphrase" is required.')
          opening = attemptOpen()
          return opening
        }
        if (meta?.mode === 'keychain')
          throw new ServiceError(
            'conflict',
            'This vault keeps its key in the OS keychain: unlock the keychain and call again without a passphrase.',
          )
        if (!meta) return setUpPassphrase(passphrase)
        backoff.check()
        try {
          const opened = await unlockWithPassphrase(meta, passphrase)
          backoff.succeeded()
          return opened
        } catch (error) {
          if (isServiceError(error) && error.status === 422) backoff.failed()
          throw error
        }
      })
    },

    async put(tenant, name, value, hosts) {
      checkSecretName(name)
      checkSecretValue(value)
      const envelope = seal(
        await dataKey(tenant),
        Buffer.from(value, 'utf8'),
        secretContext(tenant, name),
      )
      const { created, record } = repo.put(tenant, name, envelope, hosts, deps.clock())
      return {
        created,
        secret: {
          name: record.name,
          hosts: record.hosts,
          createdAt: record.createdAt,
          updatedAt: record.updatedAt,
        },
      }
    },

    list: (tenant) => repo.list(tenant),

    remove(tenant, name) {
      checkSecretName(name)
      return repo.remove(tenant, name)
    },

    forRun: (tenant) => createRunSecrets((name) => read(tenant, name)),

    async refuseSecretValues(text, tenant) {
      if (!repo.count(tenant)) return
      if (!masterKey) await open()
      if (!masterKey) return
      const key = await dataKey(tenant)
      for (const record of repo.records(tenant)) {
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
    },

    async sealFor(tenant, purpose, plaintext) {
      return seal(await dataKey(tenant), plaintext, sealedContext(tenant, purpose))
    },

    sealerFor(tenant, purpose) {
      if (!masterKey) return null
      const key = dataKeyWith(masterKey, tenant)
      const context = sealedContext(tenant, purpose)
      return {
        seal: (plaintext) => seal(key, plaintext, context),
        open: (envelope) => openEnvelope(key, envelope, context),
      }
    },

    async unsealFor(tenant, purpose, envelope) {
      const plain = openEnvelope(await dataKey(tenant), envelope, sealedContext(tenant, purpose))
      if (!plain) throw new ServiceError('internal', `The sealed ${purpose} does not open.`)
      return plain
    },
  }
}

function checkPassphrase(passphrase: unknown, first: boolean): void {
  const min = first ? MIN_PASSPHRASE : 1
  if (
    typeof passphrase !== 'string' ||
    passphrase.length < min ||
    passphrase.length > MAX_PASSPHRASE
  )
    throw new ServiceError(
      'invalid_input',
      first
        ? `Choose a passphrase of ${MIN_PASSPHRASE} to ${MAX_PASSPHRASE} characters.`
        : '"passphrase" must be a non-empty string.',
    )
}
