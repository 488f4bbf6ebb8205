import { describe, expect, it } from 'vitest'
import { secretNames } from '../../../src/main/engine/template'
import { bindStepSecrets, createRunSecrets, type BoundSecret } from '../../../src/main/vault'

const TOKEN: BoundSecret = { name: 'TOKEN', value: 'tok/en+value 42', hosts: ['api.test'] }
const lookupOf = (secrets: BoundSecret[]) => async (name: string) =>
  secrets.find((s) => s.name === name) ?? null

describe('secrets of a run', () => {
  it('lists the {{secret:NAME}} placeholders of a template, once each', () => {
    expect(
      secretNames({
        method: 'POST',
        url: 'https://api.test/x?k={{secret:KEY}}&q={{input.p0}}',
        headers: { authorization: 'Bearer {{ secret:TOKEN }}' },
        body: { kind: 'json', template: { a: '{{secret:KEY}}', b: '{{secret:pass.word-1}}' } },
      }),
    ).toEqual(['KEY', 'TOKEN', 'pass.word-1'])
    expect(
      secretNames({ method: 'GET', url: 'https://api.test/', headers: {}, body: null }),
    ).toEqual([])
  })

  it('puts resolved secrets in the step scope and refuses a host they are not bound to', async () => {
    const bound = await bindStepSecrets(['TOKEN'], createRunSecrets(lookupOf([TOKEN])))
    if (!bound.ok) throw new Error(bound.message)
    expect(bound.scope).toEqual({ 'secret:TOKEN': TOKEN.value })
    expect(bound.deniedAt('https://api.test/orders')).toBeNull()
    const denied = bound.deniedAt('https://collector.evil/orders')
    expect(denied).toMatchObject({ ok: false, code: 'policy_denied' })
    expect(denied!.message).toContain('"TOKEN"')
    expect(denied!.message).toContain('collector.evil')
    expect(denied!.message).not.toContain(TOKEN.value)
  })

  it('refuses a step whose secret is not stored, or a run with no vault', async () => {
    const missing = await bindStepSecrets(['NOPE'], createRunSecrets(lookupOf([TOKEN])))
    expect(missing).toMatchObject({ ok: false, code: 'session_or_permission' })
    const noVault = await bindStepSecrets(['TOKEN'], undefined)
    expect(noVault).toMatchObject({ ok: false, code: 'policy_denied' })
    const none = await bindStepSecrets([], undefined)
    expect(none.ok).toBe(true)
  })

  it('turns a locked vault into a refusal, not a thrown error', async () => {
    const locked = createRunSecrets(async () => {
      throw new Error('The vault is locked.')
    })
    expect(await bindStepSecrets(['TOKEN'], locked)).toMatchObject({
      ok: false,
      code: 'session_or_permission',
      message: expect.stringContaining('locked'),
    })
  })

  it('redacts every resolved value, raw and URL- or form-encoded, deep in what a run keeps', async () => {
    const secrets = createRunSecrets(lookupOf([TOKEN]))
    const before = { message: `echo ${TOKEN.value}` }
    expect(secrets.redact(before)).toBe(before)
    await secrets.resolve('TOKEN')
    const kept = secrets.redact({
      ok: true,
      result: { echo: [TOKEN.value, { deep: `x${encodeURIComponent(TOKEN.value)}y` }] },
      url: `https://api.test/?t=${encodeURIComponent(TOKEN.value)}`,
      form: new URLSearchParams({ t: TOKEN.value }).toString(),
      n: 3,
    })
    expect(JSON.stringify(kept)).not.toContain('tok/en')
    expect(JSON.stringify(kept)).not.toContain('tok%2Fen')
    expect(kept.result.echo[0]).toBe('[secret:TOKEN]')
    expect(kept.url).toBe('https://api.test/?t=[secret:TOKEN]')
    expect(kept.form).toBe('t=[secret:TOKEN]')
    expect(kept.n).toBe(3)
  })
})
