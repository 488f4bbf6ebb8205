import { describe, expect, it } from 'vitest'
import {
  DEADLINE_DEFAULT_MS,
  DEADLINE_MAX_MS,
  DEADLINE_MIN_MS,
  parseDeadline,
} from '../../../src/main/surface/deadline'
import { isServiceError } from '../../../src/shared/errors'

/** The error parseDeadline throws, or null when it returns. */
function refusal(header: string | string[] | undefined, body: unknown) {
  try {
    parseDeadline(header, body)
    return null
  } catch (error) {
    if (!isServiceError(error)) throw error
    return { code: error.code, status: error.status }
  }
}

const invalid = { code: 'invalid_input', status: 400 }

describe('parseDeadline', () => {
  it('uses docs/interface.md limits: 5000 to 300000 ms, default 60000', () => {
    expect([DEADLINE_MIN_MS, DEADLINE_MAX_MS, DEADLINE_DEFAULT_MS]).toEqual([5000, 300000, 60000])
  })

  it('defaults to 60000 ms when neither header nor body names a deadline', () => {
    expect(parseDeadline(undefined, undefined)).toBe(60_000)
  })

  it('takes the header in milliseconds, inclusive of both limits', () => {
    expect(parseDeadline('5000', undefined)).toBe(5000)
    expect(parseDeadline('300000', undefined)).toBe(300_000)
    expect(parseDeadline(' 12000 ', undefined)).toBe(12_000)
  })

  it('takes the body deadlineMs when there is no header, inclusive of both limits', () => {
    expect(parseDeadline(undefined, 5000)).toBe(5000)
    expect(parseDeadline(undefined, 300_000)).toBe(300_000)
  })

  it('lets the header win over the body, even over an invalid body value', () => {
    expect(parseDeadline('7000', 20_000)).toBe(7000)
    expect(parseDeadline('7000', 999_999)).toBe(7000)
    expect(parseDeadline('7000', 'soon')).toBe(7000)
  })

  it('refuses an invalid header even when the body is valid', () => {
    expect(refusal('1000', 20_000)).toEqual(invalid)
  })

  it('takes the first value of a repeated header', () => {
    expect(parseDeadline(['6000', '9000'], undefined)).toBe(6000)
  })

  it.each(['4999', '300001', '1000', '0', '-6000', '6000.5', '6e3', '', 'soon', '60s'])(
    'refuses the header %j with 400 invalid_input',
    (header) => {
      expect(refusal(header, undefined)).toEqual(invalid)
    },
  )

  it.each([4999, 300_001, 999_999, 0, -6000, 6000.5, '6000', null, true, [6000], { ms: 6000 }])(
    'refuses the body deadlineMs %j with 400 invalid_input',
    (body) => {
      expect(refusal(undefined, body)).toEqual(invalid)
    },
  )
})
