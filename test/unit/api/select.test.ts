import { describe, expect, it } from 'vitest'
import { applySelect } from '../../../src/main/api/select'

const result = {
  count: 2,
  data: [
    { toolName: 'Quill AI', slug: { current: 'quill-ai' }, rating: 4, tags: ['blog'] },
    { toolName: 'Draftly', slug: { current: 'draftly' }, rating: 5, tags: [] },
  ],
  meta: { page: { number: 1, size: 12 }, source: 'search' },
}

describe('applySelect', () => {
  it('keeps a top-level key', () => {
    expect(applySelect(result, ['count'])).toEqual({ value: { count: 2 }, missing: [] })
  })

  it('walks nested keys with dots', () => {
    expect(applySelect(result, ['meta.page.size'])).toEqual({
      value: { meta: { page: { size: 12 } } },
      missing: [],
    })
  })

  it('maps over a list with []', () => {
    expect(applySelect(result, ['data[].toolName'])).toEqual({
      value: { data: [{ toolName: 'Quill AI' }, { toolName: 'Draftly' }] },
      missing: [],
    })
  })

  it('keeps several keys of each item with a final brace group', () => {
    expect(applySelect(result, ['data[].{toolName,slug}'])).toEqual({
      value: {
        data: [
          { toolName: 'Quill AI', slug: { current: 'quill-ai' } },
          { toolName: 'Draftly', slug: { current: 'draftly' } },
        ],
      },
      missing: [],
    })
  })

  it('accepts spaces inside the brace group and a brace group at the top level', () => {
    expect(applySelect(result, ['{ count , meta }']).value).toEqual({
      count: 2,
      meta: result.meta,
    })
  })

  it('merges several paths into one result, item by item', () => {
    expect(applySelect(result, ['count', 'data[].toolName', 'data[].slug.current'])).toEqual({
      value: {
        count: 2,
        data: [
          { toolName: 'Quill AI', slug: { current: 'quill-ai' } },
          { toolName: 'Draftly', slug: { current: 'draftly' } },
        ],
      },
      missing: [],
    })
  })

  it('reports each path that matches nothing in missing, in order, and keeps the rest', () => {
    expect(applySelect(result, ['nope', 'count', 'data[].price', 'meta.page.next'])).toEqual({
      value: { count: 2 },
      missing: ['nope', 'data[].price', 'meta.page.next'],
    })
  })

  it('answers an empty object when nothing matches', () => {
    expect(applySelect(result, ['nope'])).toEqual({ value: {}, missing: ['nope'] })
  })

  it('answers an empty object and no missing paths for an empty select', () => {
    expect(applySelect(result, [])).toEqual({ value: {}, missing: [] })
  })

  it('keeps falsy values: 0, false, null and the empty string', () => {
    const value = { zero: 0, no: false, nothing: null, empty: '' }
    expect(applySelect(value, ['zero', 'no', 'nothing', 'empty'])).toEqual({
      value,
      missing: [],
    })
  })

  it('keeps list positions: an item without the path becomes null', () => {
    const value = { data: [{ x: 1 }, { y: 2 }, { x: 3 }] }
    expect(applySelect(value, ['data[].x'])).toEqual({
      value: { data: [{ x: 1 }, null, { x: 3 }] },
      missing: [],
    })
  })

  it('keeps the present keys of a brace group and drops the absent ones', () => {
    expect(applySelect(result, ['data[].{toolName,price}']).value).toEqual({
      data: [{ toolName: 'Quill AI' }, { toolName: 'Draftly' }],
    })
  })

  it('maps an empty list to an empty list, not a missing path', () => {
    expect(applySelect({ data: [] }, ['data[].x'])).toEqual({ value: { data: [] }, missing: [] })
  })

  it('walks nested lists with [][]', () => {
    const value = { rows: [[{ v: 1, w: 0 }], [{ v: 2, w: 0 }]] }
    expect(applySelect(value, ['rows[][].v'])).toEqual({
      value: { rows: [[{ v: 1 }], [{ v: 2 }]] },
      missing: [],
    })
  })

  it('reports [] over a value that is not a list as missing', () => {
    expect(applySelect(result, ['meta[].source'])).toEqual({
      value: {},
      missing: ['meta[].source'],
    })
  })

  it('reports a path through a scalar as missing', () => {
    expect(applySelect(result, ['count.value'])).toEqual({ value: {}, missing: ['count.value'] })
  })

  it('does not change the value it selects from', () => {
    const before = JSON.stringify(result)
    applySelect(result, ['count', 'data[].{toolName,slug}', 'meta.page'])
    expect(JSON.stringify(result)).toBe(before)
  })

  it('reports names of inherited properties (toString, constructor) as missing', () => {
    // A JSON result has only own keys: an Object.prototype member is not part of it.
    expect(
      applySelect(result, ['toString', 'data[].constructor', 'meta.{hasOwnProperty}']),
    ).toEqual({
      value: {},
      missing: ['toString', 'data[].constructor', 'meta.{hasOwnProperty}'],
    })
  })
})
