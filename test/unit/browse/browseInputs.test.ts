import { describe, expect, it } from 'vitest'
import { checkActInput, type BrowseActInput } from '../../../src/main/browse/browseAction'
import { checkSessionId, createBrowseSessions } from '../../../src/main/browse/browseSessions'
import { isServiceError } from '../../../src/shared/errors'

const ID = 'bs_01JABCDEFGHJKMNPQRSTVWXYZ0'
const PAGE = 'http://127.0.0.1:4000/search?q=x'

function codeOf(work: () => unknown): string | null {
  try {
    work()
    return null
  } catch (error) {
    if (!isServiceError(error)) throw error
    return `${error.code} ${error.status}`
  }
}

describe('checkSessionId', () => {
  it('accepts the exact bs_<ulid> form', () => {
    expect(checkSessionId(ID)).toBe(ID)
  })

  it.each([undefined, null, 42, {}, '', '   ', 'abc', `${ID} `, ` ${ID}`, ID.toLowerCase(), 'bs_'])(
    'refuses %j with invalid_argument',
    (value) => {
      expect(codeOf(() => checkSessionId(value))).toBe('invalid_argument 400')
    },
  )
})

describe('checkActInput', () => {
  const check = (input: Record<string, unknown>) =>
    checkActInput(input as unknown as BrowseActInput, PAGE)

  it('takes navigate value as a URL relative to the page and ignores ref', () => {
    expect(check({ action: 'navigate', value: '/tool/nova', ref: 'whatever' })).toEqual({
      action: 'navigate',
      url: 'http://127.0.0.1:4000/tool/nova',
    })
  })

  it('strips the @ of a ref and lets fill set an empty value', () => {
    expect(check({ action: 'fill', ref: '@e3', value: '' })).toEqual({
      action: 'fill',
      ref: 'e3',
      value: '',
    })
    expect(check({ action: 'click', ref: 'e1', value: 'ignored' })).toEqual({
      action: 'click',
      ref: 'e1',
    })
  })

  it.each([
    { action: 'hover', ref: 'e1' },
    { action: 'click' },
    { action: 'click', ref: '  ' },
    { action: 'fill', ref: 'e1' },
    { action: 'select', ref: 'e1', value: '' },
    { action: 'press', ref: 'e1' },
    { action: 'fill', ref: 'e1', value: 7 },
    { action: 'navigate' },
    { action: 'navigate', value: 'javascript:alert(1)' },
    { action: 'navigate', value: 'file:///etc/passwd' },
  ])('refuses %j with invalid_argument', (input) => {
    expect(codeOf(() => check(input))).toBe('invalid_argument 400')
  })
})

describe('createBrowseSessions', () => {
  // Refusals that need no browser: nothing may be launched for them.
  const sessions = createBrowseSessions({
    store: {} as never,
    clock: () => 0,
    ulid: () => '01JABCDEFGHJKMNPQRSTVWXYZ0',
    uuid: () => 'uuid',
    chromiumPath: () => {
      throw new Error('no browser may start')
    },
    startRecording: () => Promise.reject(new Error('no browser may start')),
  })

  it.each([
    {},
    { url: 'not a url' },
    { url: 'ftp://example.com/' },
    { url: 'https://x.test/', intent: 3 },
  ])('refuses to open %j with invalid_argument', async (input) => {
    const error = await sessions.open('local', input as { url: string }).catch((e) => e)
    expect(error).toMatchObject({ code: 'invalid_argument', status: 400 })
  })

  it('answers session_expired for a well-formed id it never issued, in every call', async () => {
    for (const call of [
      sessions.snapshot('local', ID),
      sessions.act('local', ID, { ref: 'e1', action: 'click' }),
      sessions.finish('local', ID, {}),
      sessions.close('local', ID),
    ])
      await expect(call).rejects.toMatchObject({ code: 'session_expired', status: 410 })
  })

  it('refuses a blank id before looking the session up', async () => {
    await expect(sessions.finish('local', ' ', {})).rejects.toMatchObject({
      code: 'invalid_argument',
    })
  })
})
