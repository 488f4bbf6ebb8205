import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { open, seal } from '../../../src/main/vault/envelope'

describe('AES-256-GCM envelopes', () => {
  const key = randomBytes(32)
  const plain = Buffer.from('hunter2-correct-horse', 'utf8')

  it('opens what it sealed with the same key and context', () => {
    const envelope = seal(key, plain, 'ctx')
    expect(open(key, envelope, 'ctx')?.toString('utf8')).toBe('hunter2-correct-horse')
  })

  it('lays out version, 96-bit IV, 128-bit tag, then ciphertext of the same length', () => {
    const envelope = seal(key, plain, 'ctx')
    expect(envelope[0]).toBe(1)
    expect(envelope.length).toBe(1 + 12 + 16 + plain.length)
    expect(envelope.includes(plain)).toBe(false)
  })

  it('draws a fresh IV each time, so equal plaintexts seal differently', () => {
    const a = seal(key, plain, 'ctx')
    const b = seal(key, plain, 'ctx')
    expect(a.subarray(1, 13).equals(b.subarray(1, 13))).toBe(false)
    expect(a.equals(b)).toBe(false)
  })

  it('refuses another key, another context, and any changed byte', () => {
    const envelope = seal(key, plain, 'ctx')
    expect(open(randomBytes(32), envelope, 'ctx')).toBeNull()
    expect(open(key, envelope, 'other')).toBeNull()
    for (const at of [1, 14, envelope.length - 1]) {
      const tampered = Buffer.from(envelope)
      tampered[at]! ^= 1
      expect(open(key, tampered, 'ctx')).toBeNull()
    }
    expect(open(key, envelope.subarray(0, 20), 'ctx')).toBeNull()
  })

  it('throws on an envelope version it does not know', () => {
    const envelope = seal(key, plain, 'ctx')
    envelope[0] = 9
    expect(() => open(key, envelope, 'ctx')).toThrow(/version 9/)
  })
})
