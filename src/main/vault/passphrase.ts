import { randomBytes, scrypt } from 'node:crypto'
import type { KdfParams } from '../store/secretRepository'
import { KEY_BYTES } from './envelope'

/**
 * scrypt cost for a new passphrase vault: N = 2^15, r = 8, p = 1 (RFC 7914 §2; the interactive
 * setting OWASP's password-storage sheet lists), about 32 MiB and 0.1 s per try. Stored with
 * the salt so later versions can raise it without locking old vaults out.
 */
export const DEFAULT_KDF = { N: 2 ** 15, r: 8, p: 1 } as const

/** Fewer characters than this are refused when a passphrase is first set. */
export const MIN_PASSPHRASE = 8
export const MAX_PASSPHRASE = 1024

/** New scrypt parameters with a fresh 16-byte salt. */
export function newKdfParams(): KdfParams {
  return { salt: randomBytes(16).toString('base64'), ...DEFAULT_KDF }
}

/**
 * Derives the 32-byte master key from a passphrase (UTF-8, NFC-normalised so the same text typed
 * on two keyboards gives one key). Resolves in about 0.1 s at the default cost.
 */
export function deriveMasterKey(passphrase: string, kdf: KdfParams): Promise<Buffer> {
  const { N, r, p } = kdf
  // 128·N·r bytes are needed; Node's default 32 MiB ceiling is exactly that at N=2^15, r=8.
  const maxmem = 256 * N * r
  return new Promise((resolve, reject) =>
    scrypt(
      Buffer.from(passphrase.normalize('NFC'), 'utf8'),
      Buffer.from(kdf.salt, 'base64'),
      KEY_BYTES,
      { N, r, p, maxmem },
      (error, key) => (error ? reject(error) : resolve(key)),
    ),
  )
}
