import { describe, expect, it } from 'vitest'
import { applyChanges, parseTitleList } from '../../../src/shared/jsonChanges'

const asIs = (v: unknown) => v

describe('applyChanges', () => {
  const base = {
    rev: 'r1',
    flows: [
      { id: 't1', type: 'tab', label: 'Reports', disabled: false },
      { id: 't2', type: 'tab', label: 'Alerts', disabled: false },
    ],
  }

  it('sets a field of the item a [?field==input] part names, and leaves the base untouched', () => {
    const out = applyChanges(
      base,
      [{ path: 'flows[?label=={{input.p0}}].disabled', op: 'set', value: true }],
      { 'input.p0': 'alerts' },
      asIs,
    )
    expect(out).toEqual({
      ok: true,
      value: {
        rev: 'r1',
        flows: [base.flows[0], { id: 't2', type: 'tab', label: 'Alerts', disabled: true }],
      },
    })
    expect(base.flows[1]!.disabled).toBe(false)
  })

  it('fails not_found when no item has the name, and drift through a scalar', () => {
    const missing = applyChanges(
      base,
      [{ path: 'flows[?label=={{input.p0}}].disabled', op: 'set', value: true }],
      { 'input.p0': 'Cleanup' },
      asIs,
    )
    expect(missing).toMatchObject({ ok: false, reason: 'not_found' })
    expect(!missing.ok && missing.message).toContain('"Cleanup"')
    const drift = applyChanges(base, [{ path: 'rev.x', op: 'set', value: 1 }], {}, asIs)
    expect(drift).toMatchObject({ ok: false, reason: 'drift' })
  })

  it('appends once, to a list or to a title list string read as a list', () => {
    const record = { tags: 'Cooking [[Quick meals]]', list: ['a'] }
    const out = applyChanges(
      record,
      [
        { path: 'tags', op: 'append', value: 'Favourite', split: 'title_list' },
        { path: 'list', op: 'append', value: 'a' },
        { path: 'list', op: 'append', value: 'b' },
        { path: 'fresh', op: 'append', value: 'x' },
      ],
      {},
      asIs,
    )
    expect(out).toEqual({
      ok: true,
      value: { tags: ['Cooking', 'Quick meals', 'Favourite'], list: ['a', 'b'], fresh: ['x'] },
    })
    const unsplit = applyChanges(record, [{ path: 'tags', op: 'append', value: 'x' }], {}, asIs)
    expect(unsplit).toMatchObject({ ok: false, reason: 'drift' })
  })

  it('creates missing keys on set, removes fields, and skips a value that renders to nothing', () => {
    const out = applyChanges(
      { a: 1, b: 2 },
      [
        { path: 'meta.owner', op: 'set', value: 'dana' },
        { path: 'b', op: 'remove' },
        { path: 'a', op: 'set', value: '{{input.p9}}' },
      ],
      {},
      (v) => (v === '{{input.p9}}' ? undefined : v),
    )
    expect(out).toEqual({ ok: true, value: { a: 1, meta: { owner: 'dana' } } })
  })
})

describe('parseTitleList', () => {
  it('splits titles at spaces, keeping [[bracketed titles]] whole', () => {
    expect(parseTitleList('Work [[Team Offsite]] 2026')).toEqual(['Work', 'Team Offsite', '2026'])
    expect(parseTitleList('')).toEqual([])
  })
})
