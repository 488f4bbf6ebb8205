import { createHmac } from 'node:crypto'

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

function base32Bytes(key: string): Buffer {
  let bits = ''
  for (const ch of key.replace(/=+$/, '').toUpperCase()) {
    const index = BASE32.indexOf(ch)
    if (index < 0) throw new Error(`not base32: ${ch}`)
    bits += index.toString(2).padStart(5, '0')
  }
  const bytes: number[] = []
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2))
  return Buffer.from(bytes)
}

/**
 * The RFC 6238 code (HMAC-SHA1, 30 s steps, 6 digits, the defaults of the ROTP gem Redmine uses)
 * an authenticator app shows for the base32 `key` at `at` (ms since the epoch).
 */
export function totpCode(key: string, at = Date.now()): string {
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)))
  const mac = createHmac('sha1', base32Bytes(key)).update(counter).digest()
  const offset = mac[mac.length - 1]! & 0x0f
  const value = mac.readUInt32BE(offset) & 0x7fffffff
  return String(value % 1_000_000).padStart(6, '0')
}
