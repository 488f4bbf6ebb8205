import { describe, expect, it } from 'vitest'
import { plainText } from '../../../src/renderer/format'

describe('plainText', () => {
  it('drops terminal colour codes and keeps the words', () => {
    const esc = String.fromCharCode(27)
    expect(plainText(`${esc}[31mbrowser closed${esc}[39m: ${esc}[1;2mretry${esc}[0m`)).toBe(
      'browser closed: retry',
    )
    expect(plainText('no codes [here]')).toBe('no codes [here]')
  })
})
