import { describe, expect, it } from 'vitest'
import { formControlValue } from '../../../src/shared/formControl'

const PAGE =
  '<form action="/logout"><input type="hidden" name="token" value="first"></form>' +
  '<form action="/edit"><textarea name="note">hello</textarea><input type="hidden" name="token" value="second"></form>'

describe('formControlValue', () => {
  it('reads the control of that name at the index given, the first by default', () => {
    expect(formControlValue(PAGE, 'token')).toBe('first')
    expect(formControlValue(PAGE, 'token', 1)).toBe('second')
    expect(formControlValue(PAGE, 'note')).toBe('hello')
  })

  it('reads the first when the page has fewer controls than the index, and nothing when none', () => {
    expect(formControlValue(PAGE, 'token', 5)).toBe('first')
    expect(formControlValue(PAGE, 'missing', 1)).toBeUndefined()
  })
})
