import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { CandidateReview } from '../../../src/renderer/components/CandidateReview'
import type { Runner } from '../../../src/renderer/useRunner'
import type { ToolSpec } from '../../../src/shared/toolSpec'

// Issue 26 item 2.5: a candidate that takes no inputs shows no empty inputs table (a header row
// over nothing) above "This tool takes no inputs".

const runner = { run: null, busy: false, start: async () => undefined } as unknown as Runner

/** A candidate listing a shop's orders, with its inputs as given. */
function candidate(inputs: ToolSpec['inputs']): ToolSpec {
  return {
    id: 'tool_1',
    siteHost: 'shop.example',
    name: 'shop__list_orders',
    capabilityId: 'shop.example/shop__list_orders',
    intent: 'list my orders',
    description: 'list my orders — GET /api/orders',
    version: '2026.1.1',
    mutating: false,
    status: 'candidate',
    inputs,
    steps: [
      {
        id: 'target',
        request: { method: 'GET', url: 'https://shop.example/api/orders', headers: {}, body: null },
        extract: [],
      },
    ],
    output: { type: 'object' },
    verify: { status: [200, 299], mimeType: 'application/json', required: [] },
    via: 'http',
    evidence: {
      traceId: 'trc_1',
      targetExchangeId: 'exc_1',
      exchangeIds: ['exc_1'],
      score: 1,
      signals: [],
      alternatives: [],
    },
    createdAt: 0,
    updatedAt: 0,
  } as ToolSpec
}

const render = (tool: ToolSpec) =>
  renderToStaticMarkup(
    createElement(CandidateReview, {
      detail: { tool, target: null, replaces: null },
      runner,
      onVerified: () => undefined,
      onReplaced: () => undefined,
    }),
  )

describe('CandidateReview inputs', () => {
  it('shows no table for a tool without inputs', () => {
    const html = render(candidate({ type: 'object', properties: {}, required: [] }))
    expect(html).toContain('This tool takes no inputs.')
    expect(html).not.toContain('data-testid="slot-row"')
    expect(html).not.toMatch(/<th>Input<\/th>/)
  })
})
