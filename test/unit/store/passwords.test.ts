import { describe, expect, it } from 'vitest'
import { hashPassword, PASSWORD_KDF, verifyPassword } from '../../../src/main/store/passwords'

describe('account passwords (scrypt)', () => {
  it('stores the parameters and a fresh salt, and verifies only the same password', async () => {
    const [a, b] = await Promise.all([hashPassword('correct horse'), hashPassword('correct horse')])
    expect(a).toMatch(
      new RegExp(`^scrypt\\$${PASSWORD_KDF.N}\\$8\\$1\\$[A-Za-z0-9+/=]{24}\\$[A-Za-z0-9+/=]{44}$`),
    )
    // Two hashes of one password differ (the salt), and never hold the password.
    expect(a).not.toBe(b)
    expect(a).not.toContain('horse')
    expect(await verifyPassword('correct horse', a)).toBe(true)
    expect(await verifyPassword('correct horse ', a)).toBe(false)
    // NFC: the same text typed two ways is one password.
    const composed = await hashPassword('caf\u00e9 au lait')
    expect(await verifyPassword('cafe\u0301 au lait', composed)).toBe(true)
  })

  it('answers false for a malformed stored hash, never throws', async () => {
    for (const stored of ['', 'bcrypt$x', 'scrypt$0$8$1$AAAA$AAAA', 'scrypt$a$b$c$d$e'])
      expect(await verifyPassword('pw', stored)).toBe(false)
  })
})
