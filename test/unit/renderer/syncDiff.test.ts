import { describe, expect, it } from 'vitest'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { conflictRows, markedLines, progressText } from '../../../src/renderer/syncDiff'

/** A tool with the fields a conflict reads; the rest as little as the type asks. */
const tool = (over: Partial<ToolSpec> = {}): ToolSpec =>
  ({
    id: 't1',
    siteHost: 'shop.example',
    name: 'shop__search_products',
    capabilityId: 'c1',
    intent: 'search products',
    description: 'Searches products by keyword.',
    version: '1',
    mutating: false,
    status: 'verified',
    inputs: {
      type: 'object',
      required: ['query'],
      properties: { query: { type: 'string', description: 'Words to look for' } },
    },
    steps: [
      {
        id: 's1',
        request: {
          method: 'POST',
          url: 'https://shop.example/api/search',
          headers: {},
          body: null,
        },
        extract: [],
      },
    ],
    output: { type: 'object' },
    verify: {
      status: [200, 200],
      mimeType: 'application/json',
      required: [{ path: 'items', type: 'array' }],
    },
    via: 'http',
    evidence: { traceId: 'trc', targetExchangeId: 'x1' },
    createdAt: 1,
    updatedAt: 2,
    ...over,
  }) as unknown as ToolSpec

describe('conflictRows', () => {
  it('shows only the readable fields that differ, each version as text side by side', () => {
    const mine = tool({ description: 'Mine.' })
    const theirs = tool({
      description: 'Theirs.',
      updatedAt: 99,
      steps: [
        {
          ...tool().steps[0]!,
          request: {
            ...tool().steps[0]!.request,
            method: 'GET',
            url: 'https://shop.example/api/find',
          },
        },
      ],
      inputs: {
        type: 'object',
        required: [],
        properties: { query: { type: 'string' }, page: { type: 'integer' } },
      } as unknown as ToolSpec['inputs'],
      verify: { status: [200, 299], mimeType: 'application/json', required: [] },
    })
    expect(conflictRows(mine, theirs)).toEqual([
      { field: 'description', label: 'Description', mine: 'Mine.', theirs: 'Theirs.' },
      {
        field: 'requests',
        label: 'URL and method',
        mine: 'POST https://shop.example/api/search',
        theirs: 'GET https://shop.example/api/find',
      },
      {
        field: 'inputs',
        label: 'Inputs (slots)',
        mine: 'query: string (required) — Words to look for',
        theirs: 'query: string\npage: integer',
      },
      {
        field: 'verify',
        label: 'Verify rule',
        mine: 'status 200\ntype application/json\nhas items: array',
        theirs: 'status 200–299\ntype application/json',
      },
    ])
  })

  it('lists another differing top-level field as JSON, and never updatedAt alone', () => {
    expect(conflictRows(tool(), tool({ updatedAt: 50 }))).toEqual([])
    expect(conflictRows(tool(), tool({ mutating: true }))).toEqual([
      { field: 'mutating', label: 'mutating', mine: 'false', theirs: 'true' },
    ])
  })

  it('gives a deleted side as null on every readable field', () => {
    const rows = conflictRows(tool(), null)
    expect(rows.map((r) => r.field)).toEqual([
      'name',
      'description',
      'requests',
      'inputs',
      'verify',
      'status',
    ])
    expect(rows.every((r) => r.theirs === null && r.mine !== null)).toBe(true)
  })
})

describe('progressText', () => {
  it('says pushed n of N, then pulled m', () => {
    expect(progressText({ phase: 'push', done: 3, total: 10, pulled: 0 })).toBe('Pushed 3 of 10…')
    expect(progressText({ phase: 'pull', done: 10, total: 10, pulled: 4 })).toBe(
      'Pushed 10 of 10; pulled 4…',
    )
  })
})

describe('markedLines', () => {
  it('marks the lines the other side lacks', () => {
    expect(markedLines('a\nb\nc', 'a\nc\nd')).toEqual([
      { text: 'a', changed: false },
      { text: 'b', changed: true },
      { text: 'c', changed: false },
    ])
    expect(markedLines('a', null)).toEqual([{ text: 'a', changed: true }])
    expect(markedLines(null, 'a')).toEqual([])
  })
})
