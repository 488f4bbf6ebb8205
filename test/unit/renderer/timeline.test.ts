import { describe, expect, it } from 'vitest'
import type { TraceExchangeRow } from '../../../src/shared/appApi'
import type { Action } from '../../../src/shared/trace'
import { filterExchanges, timelineOf } from '../../../src/renderer/timeline'

const row = (
  seq: number,
  startedAt: number,
  url: string,
  resourceType = 'fetch',
): TraceExchangeRow => ({
  id: `ex${seq}`,
  seq,
  method: 'GET',
  url,
  status: 200,
  resourceType,
  mimeType: 'application/json',
  durationMs: 5,
  startedAt,
  pageUrl: 'https://shop.test/',
})
const action = (seq: number, at: number, kind: Action['kind']): Action => ({
  seq,
  kind,
  at,
  pageUrl: 'https://shop.test/',
  selector: null,
  role: null,
  name: null,
  value: null,
})

describe('the trace timeline', () => {
  it('puts each request under the last action before it, and the first loads before any action', () => {
    const steps = timelineOf(
      [action(2, 200, 'click'), action(1, 100, 'fill')],
      [
        row(3, 250, 'https://shop.test/api/b'),
        row(1, 50, 'https://shop.test/'),
        row(2, 150, 'https://shop.test/api/a'),
      ],
    )
    expect(steps.map((s) => [s.action?.kind ?? null, s.exchanges.map((e) => e.id)])).toEqual([
      [null, ['ex1']],
      ['fill', ['ex2']],
      ['click', ['ex3']],
    ])
  })

  it('has no empty first step when every request follows an action', () => {
    const steps = timelineOf([action(1, 100, 'click')], [row(1, 100, 'https://shop.test/api')])
    expect(steps).toHaveLength(1)
    expect(steps[0]!.action?.kind).toBe('click')
  })

  it('filters by type and searches method, URL and status', () => {
    const rows = [
      row(1, 1, 'https://shop.test/', 'document'),
      row(2, 2, 'https://shop.test/api/orders'),
      row(3, 3, 'https://shop.test/app.js', 'script'),
    ]
    expect(filterExchanges(rows, 'fetch', '').map((r) => r.id)).toEqual(['ex2'])
    expect(filterExchanges(rows, 'document', '').map((r) => r.id)).toEqual(['ex1'])
    expect(filterExchanges(rows, 'other', '').map((r) => r.id)).toEqual(['ex3'])
    expect(filterExchanges(rows, 'all', 'ORDERS').map((r) => r.id)).toEqual(['ex2'])
  })
})
