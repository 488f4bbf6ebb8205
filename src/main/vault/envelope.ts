import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'

/** Envelope layout version; a new layout gets a new number and old ones stay readable. */
const VERSION = 1
/** NIST SP 800-38D §8.2: a 96-bit random IV per message under one key. */
const IV_BYTES = 12
const TAG_BYTES = 16
const HEADER_BYTES = 1 + IV_BYTES + TAG_BYTES
export const KEY_BYTES = 32

/**
 * Seals `plaintext` with AES-256-GCM under a 32-byte `key`: `version (1) | IV (12) | tag (16) |
 * ciphertext`. `context` is authenticated but not stored (GCM additional data), so an envelope
 * moved to another row (another workspace, another secret name) no longer opens.
 */
export function seal(key: Buffer, plaintext: Buffer, context: string): Buffer {
  if (key.length !== KEY_BYTES) throw new Error('seal: the key must be 32 bytes')
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES })
  cipher.setAAD(Buffer.from(context, 'utf8'))
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()])
  return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body])
}

/**
 * Opens an envelope made by `seal` with the same key and context. Returns null when the key or
 * context is wrong or a byte changed (the GCM tag does not verify); throws on an unknown version.
 */
export function open(key: Buffer, envelope: Buffer, context: string): Buffer | null {
  if (envelope.length < HEADER_BYTES) return null
  if (envelope[0] !== VERSION) throw new Error(`open: unknown envelope version ${envelope[0]}`)
  const iv = envelope.subarray(1, 1 + IV_BYTES)
  const tag = envelope.subarray(1 + IV_BYTES, HEADER_BYTES)
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES })
  decipher.setAAD(Buffer.from(context, 'utf8'))
  decipher.setAuthTag(tag)
  try {
    return Buffer.concat([decipher.update(envelope.subarray(HEADER_BYTES)), decipher.final()])
  } catch {
    // The GCM tag did not verify: wrong key or context, or a changed byte (see above).
    return null
  }
}
