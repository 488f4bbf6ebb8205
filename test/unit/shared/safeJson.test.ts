import { describe, expect, it } from 'vitest'
import { safeJson, safeUrl } from '../../../src/shared/safeJson'

describe('safeJson', () => {
  it('gives the value of a JSON text, null included', () => {
    expect(safeJson('{"a":[1,"x"]}')).toEqual({ a: [1, 'x'] })
    expect(safeJson('null')).toBeNull()
    expect(safeJson('"text"')).toBe('text')
  })

  it('gives undefined for an empty text and a text that is not JSON', () => {
    expect(safeJson('')).toBeUndefined()
    expect(safeJson('{a:1}')).toBeUndefined()
    expect(safeJson('[1,')).toBeUndefined()
  })
})

describe('safeUrl', () => {
  it('parses an absolute URL of any scheme', () => {
    expect(safeUrl('https://example.com:8443/a?b=1')?.host).toBe('example.com:8443')
    expect(safeUrl('data:text/plain,hi')?.protocol).toBe('data:')
  })

  it('resolves a relative reference against the base', () => {
    expect(safeUrl('../c?d=2', 'http://h.test/a/b/')?.href).toBe('http://h.test/a/c?d=2')
    expect(safeUrl('/x', new URL('https://h.test/y'))?.href).toBe('https://h.test/x')
  })

  it('gives undefined for what is not a URL', () => {
    expect(safeUrl('')).toBeUndefined()
    expect(safeUrl('not a url')).toBeUndefined()
    expect(safeUrl('http://')).toBeUndefined()
    expect(safeUrl('/relative')).toBeUndefined()
    expect(safeUrl('x', 'not a base')).toBeUndefined()
  })
})
