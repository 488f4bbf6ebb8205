import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto'

/**
 * scrypt cost of a team server account's password: N = 2^16, r = 8, p = 1 (RFC 7914), 64 MiB and
 * about 0.2-0.5 s on this 2-core machine — the cost the vault's passphrase already uses
 * (`vault/passphrase.ts`). Why scrypt: it is in Node's own crypto (OpenSSL's, maintained with
 * Node; no native add-on to build, unlike bcrypt or argon2 packages), memory-hard, and listed by
 * OWASP's Password Storage Cheat Sheet. OWASP's minimum is N = 2^17 at r = 8; 2^16 halves it so
 * a login stays under a second on a loaded 2-core node, and the login rate limit bounds online
 * guessing. The parameters are stored with each hash, so raising them later keeps old ones valid.
 */
export const PASSWORD_KDF = { N: 2 ** 16, r: 8, p: 1 } as const

/** Shorter passwords are refused at registration (NIST SP 800-63B §5.1.1.2: at least 8). */
export const MIN_PASSWORD = 8
/** Longer ones too (a bound on the work one request can ask for). */
export const MAX_PASSWORD = 256

const KEY_BYTES = 32

function derive(
  password: string,
  salt: Buffer,
  params: { N: number; r: number; p: number },
): Promise<Buffer> {
  const { N, r, p } = params
  return new Promise((resolve, reject) =>
    scrypt(
      Buffer.from(password.normalize('NFC'), 'utf8'),
      salt,
      KEY_BYTES,
      { N, r, p, maxmem: 256 * N * r },
      (error, key) => (error ? reject(error) : resolve(key)),
    ),
  )
}

/**
 * Hashes a password for storage: `scrypt$N$r$p$<salt b64>$<hash b64>` with a fresh 16-byte
 * salt. Runs on libuv's thread pool (the event loop is not held). NFC-normalised first.
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await derive(password, salt, PASSWORD_KDF)
  const { N, r, p } = PASSWORD_KDF
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$')
}

/**
 * Whether `password` is the one `stored` (from `hashPassword`) was made from, compared in
 * constant time. A malformed `stored` is false, never a throw.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$')
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number]
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0)) return false
  const expected = Buffer.from(parts[5]!, 'base64')
  const key = await derive(password, Buffer.from(parts[4]!, 'base64'), { N, r, p })
  return expected.length === key.length && timingSafeEqual(expected, key)
}

/** A hash of no password: a login for an unknown name costs as much as a wrong password. */
let decoy: Promise<string> | null = null
export function decoyPasswordHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString('base64'))
  return decoy
}
