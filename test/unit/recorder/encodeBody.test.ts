import { describe, expect, it } from 'vitest'
import { encodeBody, isTextualContentType } from '../../../src/main/recorder/encodeBody'

describe('isTextualContentType', () => {
  it('recognises text, JSON, JavaScript, XML, forms and +json/+xml suffixes', () => {
    for (const type of [
      'text/html; charset=utf-8',
      'application/json',
      'application/javascript',
      'application/xml',
      'application/x-www-form-urlencoded',
      'application/problem+json',
      'application/vnd.api+json; charset=utf-8',
      'image/svg+xml',
    ]) {
      expect(isTextualContentType(type), type).toBe(true)
    }
    for (const type of ['image/png', 'application/octet-stream', 'font/woff2', '', undefined]) {
      expect(isTextualContentType(type), String(type)).toBe(false)
    }
  })
})

describe('encodeBody', () => {
  it('keeps textual bodies as utf8', () => {
    expect(encodeBody(Buffer.from('{"a":"é"}'), 'application/json')).toEqual({
      text: '{"a":"é"}',
      encoding: 'utf8',
    })
  })

  it('keeps valid UTF-8 without NULs as utf8 whatever the content type', () => {
    expect(encodeBody(Buffer.from('plain words'), 'application/octet-stream')).toEqual({
      text: 'plain words',
      encoding: 'utf8',
    })
  })

  it('stores binary bytes as base64', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    expect(encodeBody(png, 'image/png')).toEqual({
      text: png.toString('base64'),
      encoding: 'base64',
    })
    const nul = Buffer.from([0x61, 0x00, 0x62])
    expect(encodeBody(nul, null)?.encoding).toBe('base64')
  })

  it('keeps non-UTF-8 text as base64 rather than decoding it lossily', () => {
    const latin1 = Buffer.from('café', 'latin1')
    expect(encodeBody(latin1, 'text/html; charset=iso-8859-1')).toEqual({
      text: latin1.toString('base64'),
      encoding: 'base64',
    })
  })

  it('maps a missing body to null and an empty one to empty text', () => {
    expect(encodeBody(null, 'text/plain')).toBeNull()
    expect(encodeBody(Buffer.alloc(0), 'image/png')).toEqual({ text: '', encoding: 'utf8' })
  })
})
