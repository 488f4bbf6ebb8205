import { describe, expect, it } from 'vitest'
import { createAppDispatch } from '../../../src/main/app/appDispatch'
import type { AppHandlers } from '../../../src/main/app/appHandlers'

// Issue 26 item 2.5: input the app's schema refuses is said in the page's words, never the
// validator's ("must NOT have fewer than 1 characters") nor the method's name.

const dispatch = createAppDispatch({} as AppHandlers)

describe('the app’s refusal of input', () => {
  it('says a blank intent in plain words', async () => {
    const answer = await dispatch('recorder.start', { url: 'https://shop.example/', intent: '' })
    expect(answer).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: 'What the tool should do is empty: fill it in.' },
    })
    expect(JSON.stringify(answer.ok ? null : answer.error.message)).not.toMatch(
      /must NOT|recorder\.start|characters/,
    )
  })

  it('names a missing field, a long one and an unknown one', async () => {
    const missing = await dispatch('keys.create', {})
    expect(missing).toMatchObject({ error: { message: 'The name of the key is missing.' } })
    const long = await dispatch('tools.search', { intent: 'x'.repeat(2001) })
    expect(long).toMatchObject({
      error: { message: 'What the tool should do is too long: at most 2000 characters.' },
    })
    const extra = await dispatch('keys.create', { label: 'ci', colour: 'red' })
    expect(extra).toMatchObject({
      error: { message: '"colour" is not something this action takes.' },
    })
  })

  it('says which of two forms a HAR import needs without the validator’s oneOf text', async () => {
    const neither = await dispatch('recorder.importHar', { intent: 'find red things' })
    expect(neither.ok ? '' : neither.error.message).not.toMatch(/oneOf|must match/)
  })
})
