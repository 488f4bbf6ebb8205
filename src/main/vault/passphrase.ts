import { randomBytes, scrypt } from 'node:crypto'
import type { KdfParams } from '../store/secretRepository'
import { KEY_BYTES } from './envelope'

/**
 * scrypt cost for a new passphrase vault: N = 2^16, r = 8, p = 1 (RFC 7914 §2;
 * up from 2^15): 64 MiB and about 0.2 s per try on an idle 2-core machine, 0.5 to 1.3 s
 * under heavy load, so an unlock stays under a second where people wait on it while each
 * offline guess costs twice what it did. Stored with the salt, so vaults made at 2^15 still open.
 */
export const DEFAULT_KDF = { N: 2 ** 16, r: 8, p: 1 } as const

/** Fewer characters than this are refused when a passphrase is first set. */
export const MIN_PASSPHRASE = 8
export const MAX_PASSPHRASE = 1024

/** New scrypt parameters with a fresh 16-byte salt. */
export function newKdfParams(): KdfParams {
  return { salt: randomBytes(16).toString('base64'), ...DEFAULT_KDF }
}

/**
 * Derives the 32-byte master key from a passphrase (UTF-8, NFC-normalised so the same text typed
 * on two keyboards gives one key). Resolves in about 0.2 s at the default cost on an idle machine.
 */
export function deriveMasterKey(passphrase: string, kdf: KdfParams): Promise<Buffer> {
  const { N, r, p } = kdf
  // 128·N·r bytes are needed (64 MiB at N=2^16, r=8), over Node's 32 MiB default ceiling.
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
