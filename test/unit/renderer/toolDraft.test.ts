import { describe, expect, it } from 'vitest'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { draftOf, editFromDraft } from '../../../src/renderer/toolDraft'

const tool = {
  name: 'shop__post_search',
  description: 'Searches the shop.',
  inputs: {
    type: 'object',
    required: ['query'],
    properties: {
      query: { type: 'string', 'x-slot': 'p0', 'x-in': 'body', 'x-path': 'query' },
      page: {
        type: 'integer',
        default: 1,
        'x-slot': 'p1',
        'x-in': 'body',
        'x-path': 'paging.page',
      },
    },
  },
  steps: [
    {
      id: 's1',
      extract: [],
      request: {
        method: 'POST',
        url: 'https://shop.test/api/search',
        headers: { accept: 'application/json', 'x-token': 'abc' },
        body: {
          kind: 'json',
          template: { query: '{{input.p0}}', paging: { page: '{{input.p1}}', size: 20 } },
        },
      },
    },
  ],
  verify: {
    status: [200, 299],
    mimeType: 'application/json',
    required: [{ path: 'items', type: 'array' }],
  },
} as unknown as ToolSpec

describe('the tool editor draft', () => {
  it('lists the inputs, headers and body leaves of the target request', () => {
    const draft = draftOf(tool)
    expect(draft.inputs.map((i) => [i.slot, i.name, i.type, i.required, i.default])).toEqual([
      ['p0', 'query', 'string', true, ''],
      ['p1', 'page', 'integer', false, '1'],
    ])
    expect(draft.body.map((f) => f.path)).toEqual(['query', 'paging.page', 'paging.size'])
    expect(draft.required).toBe('items: array')
  })

  it('sends removed headers as null, only changed body fields, and typed defaults and options', () => {
    const draft = draftOf(tool)
    draft.headers = draft.headers.filter((h) => h.name !== 'x-token')
    draft.headers.push({ name: 'Authorization', value: 'Bearer {{secret:SHOP}}' })
    draft.body = draft.body.map((f) => (f.path === 'paging.size' ? { ...f, value: '50' } : f))
    draft.inputs[1] = { ...draft.inputs[1]!, default: '2', options: '1, 2, 3' }
    const edit = editFromDraft(tool, draft)
    expect(edit.headers).toEqual({ 'x-token': null, Authorization: 'Bearer {{secret:SHOP}}' })
    expect(edit.body).toEqual([{ path: 'paging.size', value: '50' }])
    expect(edit.inputs![1]).toMatchObject({ default: 2, enum: [1, 2, 3] })
    expect(edit.verify).toEqual({
      status: [200, 299],
      required: [{ path: 'items', type: 'array' }],
    })
  })

  it('names the field whose text is not of its type', () => {
    const draft = draftOf(tool)
    draft.inputs[1] = { ...draft.inputs[1]!, default: 'two' }
    expect(() => editFromDraft(tool, draft)).toThrow('page: "two" is not an integer.')
    const rule = draftOf(tool)
    rule.required = 'items array'
    expect(() => editFromDraft(tool, rule)).toThrow('path: type')
  })
})
