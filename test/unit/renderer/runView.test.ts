import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { RunView } from '../../../src/renderer/components/RunView'
import type { Run } from '../../../src/shared/run'

// Issue 26 item 2.5: a run waiting on the person says what for and links to the Inbox, where it
// is answered.

const waiting: Run = {
  runId: 'run_1',
  status: 'input_required',
  capabilityId: 'shop/place_order',
  error: null,
  requirements: [
    {
      id: 'req_1',
      kind: 'approval',
      message: 'Place the order for 1 Mug?',
      expiresAt: '2026-11-29T02:00:00Z',
    },
  ],
  via: 'http',
  signIn: null,
  toolId: 'tool_1',
  stateRevision: 1,
  createdAt: '2026-11-29T01:00:00Z',
  updatedAt: '2026-11-29T01:00:00Z',
}

describe('RunView', () => {
  it('links a run waiting for approval to the Inbox', () => {
    const html = renderToStaticMarkup(createElement(RunView, { run: waiting }))
    expect(html).toContain('Waiting for your approval: Place the order for 1 Mug?')
    expect(html).toMatch(/<a href="#\/inbox"[^>]*>Answer it in the Inbox<\/a>/)
  })
})
