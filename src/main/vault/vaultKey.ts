import { randomBytes } from 'node:crypto'
import { isServiceError, ServiceError } from '../../shared/errors'
import type { SecretRepository, VaultKeyMode, VaultMeta } from '../store/secretRepository'
import { KEY_BYTES, open as openEnvelope, seal } from './envelope'
import type { Keychain } from './keychain'
import { deriveMasterKey, MAX_PASSPHRASE, MIN_PASSPHRASE, newKdfParams } from './passphrase'
import type { UnlockBackoff } from './unlockBackoff'

/** Which mode the vault is in (it always says so, and never falls back to plaintext). */
export interface VaultStatus {
  /** `keychain` or `passphrase` when open; `locked` until a key is at hand. */
  mode: VaultKeyMode | 'locked'
  /** What opens a locked vault: a passphrase (the one set, or a first one), or the keychain. */
  unlockWith: 'passphrase' | 'keychain' | null
  /** False for a new vault whose master key is not chosen yet. */
  initialized: boolean
  /** One sentence for a person: the mode, or what to do to unlock. */
  message: string
}

/**
 * The vault's master key and what it knows of it: the key once at hand (memory only), the
 * status it reports, the first open attempt, the queue of key changes, the data keys it opened.
 */
export interface VaultKeys {
  repo: SecretRepository
  keychain: Keychain | null
  passphrase: string | null | undefined
  clock: () => number
  masterKey: Buffer | null
  state: VaultStatus
  opening: Promise<VaultStatus> | null
  queue: Promise<unknown>
  /** Each workspace's data key, unwrapped once. */
  dataKeys: Map<string, Buffer>
  backoff: UnlockBackoff
}

const CHECK_PLAINTEXT = Buffer.from('sitecall vault check 1', 'utf8')
const CHECK_CONTEXT = 'vault-check'

const keychainAccount = (keyId: string) => `master-key-${keyId}`

/** Drops the master key: the vault is locked and says what unlocks it. */
function locked(v: VaultKeys, unlockWith: 'passphrase' | 'keychain', message: string): VaultStatus {
  v.masterKey = null
  v.state = { mode: 'locked', unlockWith, initialized: v.repo.meta() !== null, message }
  return v.state
}

/** Keeps `key` as the master key, opened in `mode`. */
function unlocked(v: VaultKeys, mode: VaultKeyMode, key: Buffer): VaultStatus {
  v.masterKey = key
  v.state = {
    mode,
    unlockWith: null,
    initialized: true,
    message:
      mode === 'keychain'
        ? 'Secrets are sealed under a key kept in the OS keychain.'
        : 'Secrets are sealed under a key derived from your passphrase; it is asked once per start.',
  }
  return v.state
}

/** Whether `key` opens the vault's check envelope. */
const opens = (key: Buffer, meta: VaultMeta) =>
  openEnvelope(key, meta.check, CHECK_CONTEXT)?.equals(CHECK_PLAINTEXT) === true

/** Records a new vault's key mode and check envelope; false when another process did first. */
const newMeta = (
  v: VaultKeys,
  mode: VaultKeyMode,
  key: Buffer,
  keyId: string,
  kdf: VaultMeta['kdf'],
) =>
  v.repo.createMeta({
    mode,
    keyId,
    kdf,
    check: seal(key, CHECK_PLAINTEXT, CHECK_CONTEXT),
    createdAt: v.clock(),
  })

/**
 * Sets a new vault up with a random key kept in the OS keychain (read back to be sure it was
 * kept); not ok, with why, when the keychain refuses or loses it.
 */
async function setUpKeychain(
  v: VaultKeys,
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
  if (!newMeta(v, 'keychain', key, keyId, null)) {
    // Another process set the vault up first: use its key, drop ours.
    await keychain.remove(keychainAccount(keyId))
    return { ok: true, status: await attemptOpen(v) }
  }
  return { ok: true, status: unlocked(v, 'keychain', key) }
}

/** Sets a new vault up with a key derived from a first passphrase. */
async function setUpPassphrase(v: VaultKeys, passphrase: string): Promise<VaultStatus> {
  checkPassphrase(passphrase, true)
  const kdf = newKdfParams()
  const key = await deriveMasterKey(passphrase, kdf)
  if (!newMeta(v, 'passphrase', key, randomBytes(12).toString('hex'), kdf))
    return unlockWithPassphrase(v, v.repo.meta()!, passphrase)
  return unlocked(v, 'passphrase', key)
}

/** Derives the key from `passphrase`; 422 `invalid_input` when it does not open the vault. */
async function unlockWithPassphrase(
  v: VaultKeys,
  meta: VaultMeta,
  passphrase: string,
): Promise<VaultStatus> {
  checkPassphrase(passphrase, false)
  const key = await deriveMasterKey(passphrase, meta.kdf!)
  if (!opens(key, meta))
    throw new ServiceError('invalid_input', 'This passphrase does not open the vault.', {}, 422)
  return unlocked(v, 'passphrase', key)
}

/** Reads the master key from the OS keychain; locked, saying why, when it cannot. */
async function openFromKeychain(v: VaultKeys, meta: VaultMeta): Promise<VaultStatus> {
  if (!v.keychain)
    return locked(
      v,
      'keychain',
      'The vault key is in the OS keychain, but keychain use is off (SITECALL_KEYCHAIN=off).',
    )
  const answer = await v.keychain.get(keychainAccount(meta.keyId))
  if (!answer.ok)
    return locked(
      v,
      'keychain',
      `The vault key is in the OS keychain, which did not answer (${answer.message}): unlock the keychain, then POST /v1/vault/unlock with no passphrase.`,
    )
  if (answer.value === null)
    return locked(
      v,
      'keychain',
      `The vault key is missing from the OS keychain (service Sitecall, account ${keychainAccount(meta.keyId)}): secrets stored under it cannot be read.`,
    )
  const key = Buffer.from(answer.value, 'base64')
  if (!opens(key, meta))
    return locked(v, 'keychain', 'The key in the OS keychain does not open this vault.')
  return unlocked(v, 'keychain', key)
}

/**
 * One attempt to open the vault: the keychain's key or `SITECALL_PASSPHRASE` for a vault set up,
 * else a new keychain key or the passphrase for a new one; locked, saying why, otherwise.
 */
async function attemptOpen(v: VaultKeys): Promise<VaultStatus> {
  const meta = v.repo.meta()
  if (meta?.mode === 'keychain') return openFromKeychain(v, meta)
  if (meta?.mode === 'passphrase') {
    if (!v.passphrase)
      return locked(
        v,
        'passphrase',
        'The vault is locked: send the passphrase (POST /v1/vault/unlock {passphrase}, or start with SITECALL_PASSPHRASE).',
      )
    try {
      return await unlockWithPassphrase(v, meta, v.passphrase)
    } catch (error) {
      return locked(
        v,
        'passphrase',
        `SITECALL_PASSPHRASE does not open the vault: ${(error as Error).message}`,
      )
    }
  }
  let why = 'keychain use is off (SITECALL_KEYCHAIN=off)'
  if (v.keychain) {
    const set = await setUpKeychain(v, v.keychain)
    if (set.ok) return set.status
    why = set.message
  }
  if (v.passphrase) {
    try {
      return await setUpPassphrase(v, v.passphrase)
    } catch (error) {
      return locked(
        v,
        'passphrase',
        `SITECALL_PASSPHRASE cannot be used: ${(error as Error).message}`,
      )
    }
  }
  return locked(
    v,
    'passphrase',
    `No OS keychain holds the vault key (${why}): choose a passphrase of at least ${MIN_PASSPHRASE} characters (POST /v1/vault/unlock {passphrase}, or start with SITECALL_PASSPHRASE).`,
  )
}

/** `Vault.open`: the first open attempt, shared by every later call. */
export const openVault = (v: VaultKeys): Promise<VaultStatus> => (v.opening ??= attemptOpen(v))

/** Runs key changes one at a time, after the first open attempt. */
function serial<T>(v: VaultKeys, task: () => Promise<T>): Promise<T> {
  const run = v.queue.then(() => openVault(v)).then(task)
  v.queue = run.catch(() => undefined)
  return run
}

/** `Vault.unlock`: a passphrase (setting a new vault's), or none to retry the keychain. */
export function unlockVault(v: VaultKeys, passphrase: string | undefined): Promise<VaultStatus> {
  return serial(v, async () => {
    if (v.masterKey) return { ...v.state }
    const meta = v.repo.meta()
    if (passphrase === undefined) {
      if (meta?.mode === 'passphrase')
        throw new ServiceError('invalid_input', '"passphrase" is required.')
      v.opening = attemptOpen(v)
      return v.opening
    }
    if (meta?.mode === 'keychain')
      throw new ServiceError(
        'conflict',
        'This vault keeps its key in the OS keychain: unlock the keychain and call again without a passphrase.',
      )
    if (!meta) return setUpPassphrase(v, passphrase)
    v.backoff.check()
    try {
      const opened = await unlockWithPassphrase(v, meta, passphrase)
      v.backoff.succeeded()
      return opened
    } catch (error) {
      if (isServiceError(error) && error.status === 422) v.backoff.failed()
      throw error
    }
  })
}

/** The master key, opening the vault first if needed; 503 `unavailable` while locked. */
export async function requireKey(v: VaultKeys): Promise<Buffer> {
  if (!v.masterKey) await openVault(v)
  if (!v.masterKey) throw new ServiceError('unavailable', v.state.message)
  return v.masterKey
}

/** A passphrase's form: 1 (a first one: MIN_PASSPHRASE) to MAX_PASSPHRASE characters. */
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
