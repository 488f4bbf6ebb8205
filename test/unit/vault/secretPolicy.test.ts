import { describe, expect, it } from 'vitest'
import {
  checkSecretName,
  checkSecretValue,
  hostAllowed,
  normalizeSecretHosts,
} from '../../../src/main/vault/secretPolicy'

describe('secret names, values and hosts', () => {
  it('takes names of 1 to 64 letters, digits, "_", "-", "."', () => {
    for (const ok of ['a', 'GITHUB_TOKEN', 'shop.password-2', 'x'.repeat(64)])
      expect(() => checkSecretName(ok)).not.toThrow()
    for (const bad of ['', 'x'.repeat(65), 'has space', 'a/b', 'a:b', 'ü'])
      expect(() => checkSecretName(bad)).toThrow(/1 to 64/)
  })

  it('takes a non-empty string value of at most 64 KiB and never quotes it', () => {
    expect(checkSecretValue('s3cret')).toBe('s3cret')
    expect(() => checkSecretValue('')).toThrow(/non-empty/)
    expect(() => checkSecretValue(42)).toThrow(/non-empty/)
    const big = 'é'.repeat(32 * 1024 + 1)
    try {
      checkSecretValue(big)
      expect.unreachable()
    } catch (error) {
      expect((error as Error).message).toMatch(/64 KiB/)
      expect((error as Error).message).not.toContain('éé')
    }
  })

  it('normalises bound hosts to lowercase host[:port], deduplicated', () => {
    expect(normalizeSecretHosts(['API.Example.com', 'api.example.com', 'shop.test:8443'])).toEqual([
      'api.example.com',
      'shop.test:8443',
    ])
    expect(normalizeSecretHosts([])).toEqual([])
    for (const bad of [['https://x.com'], ['x.com/path'], [''], [7], 'x.com'])
      expect(() => normalizeSecretHosts(bad)).toThrow(/host/)
    expect(() => normalizeSecretHosts(Array.from({ length: 21 }, (_, i) => `h${i}.test`))).toThrow(
      /at most 20/,
    )
  })

  it('lets a secret go only to its hosts: exact host, any port for a bare name, no subdomains', () => {
    expect(hostAllowed('https://api.example.com/x', ['api.example.com'])).toBe(true)
    expect(hostAllowed('http://api.example.com:8080/x', ['api.example.com'])).toBe(true)
    expect(hostAllowed('http://127.0.0.1:5000/x', ['127.0.0.1:5000'])).toBe(true)
    expect(hostAllowed('http://127.0.0.1:5001/x', ['127.0.0.1:5000'])).toBe(false)
    expect(hostAllowed('https://evil.example.com/x', ['api.example.com'])).toBe(false)
    expect(hostAllowed('https://x.api.example.com/', ['api.example.com'])).toBe(false)
    expect(hostAllowed('https://api.example.com/', [])).toBe(false)
    expect(hostAllowed('not a url', ['api.example.com'])).toBe(false)
  })
})
