import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppResult } from '../../../src/shared/appApi'
import { invoke } from '../../../src/renderer/api'
import { attempt, useAppStore } from '../../../src/renderer/stores/useAppStore'

// Issue 26 item 2.5: an error banner stays until the action it is about succeeds; other calls
// that succeed meanwhile (lists, polls) leave it.

/** Answers of the fake desktop bridge, by method: each call takes the next one. */
const answers: Record<string, AppResult<unknown>[]> = {}

beforeAll(() => {
  const transport = {
    invoke: async (method: string) => answers[method]!.shift()!,
    on: () => () => undefined,
  }
  Object.assign(globalThis, { window: { sitecall: transport } })
})

afterAll(() => {
  Reflect.deleteProperty(globalThis, 'window')
})

describe('the error banner', () => {
  it('clears when the same method next succeeds, not when another does', async () => {
    answers['vault.unlock'] = [
      { ok: false, error: { code: 'invalid_input', message: 'That passphrase is not it.' } },
      { ok: true, value: { mode: 'passphrase' } },
    ]
    answers['tools.list'] = [{ ok: true, value: [] }]
    expect(await attempt(invoke('vault.unlock', { passphrase: 'wrong one' }))).toBeUndefined()
    expect(useAppStore.getState().error).toMatchObject({
      code: 'invalid_input',
      method: 'vault.unlock',
    })
    await attempt(invoke('tools.list', {}))
    expect(useAppStore.getState().error?.code).toBe('invalid_input')
    await attempt(invoke('vault.unlock', { passphrase: 'the right one' }))
    expect(useAppStore.getState().error).toBeNull()
  })
})
