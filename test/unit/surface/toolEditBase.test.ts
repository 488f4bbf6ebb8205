import { describe, expect, it } from 'vitest'
import { applyToolEdit } from '../../../src/main/surface/toolEdit'
import { answerKey, renderRequest } from '../../../src/main/engine/template'
import type { ToolSpec } from '../../../src/shared/toolSpec'

/** A read-modify-write tool: the PUT sends the read note with a new text (issue 9 item 8). */
const tool: ToolSpec = {
  id: '00000000-0000-4000-8000-0000000000cc',
  siteHost: 'notes.example',
  name: 'notes__change_text',
  capabilityId: 'notes.example/notes__change_text',
  intent: 'change the text of a note',
  description: 'change the text of a note',
  version: '2026.11.25',
  mutating: true,
  status: 'verified',
  inputs: {
    type: 'object',
    properties: {
      title: { type: 'string', 'x-slot': 'p0', 'x-in': 'path', 'x-path': '2' },
      text: { type: 'string', 'x-slot': 'p1', 'x-in': 'body', 'x-path': 'text' },
    },
    required: ['title', 'text'],
  },
  steps: [
    {
      id: 'read',
      request: {
        method: 'GET',
        url: 'https://notes.example/api/notes/{{input.p0}}',
        headers: {},
        body: null,
      },
      extract: [],
    },
    {
      id: 'target',
      request: {
        method: 'PUT',
        url: 'https://notes.example/api/notes/{{input.p0}}',
        headers: {},
        body: {
          kind: 'json',
          template: { title: 'Groceries', text: '{{input.p1}}', pinned: false },
          base: {
            step: 'read',
            path: '',
            changes: [{ path: 'text', op: 'set', value: '{{input.p1}}' }],
          },
        },
      },
      extract: [],
    },
  ],
  output: { type: 'object' },
  verify: { status: [200, 299], mimeType: '*', required: [] },
  via: 'http',
  evidence: {
    traceId: 'trc_X',
    targetExchangeId: 'exc_2',
    exchangeIds: [],
    score: 1,
    signals: [],
    alternatives: [],
  },
  createdAt: 0,
  updatedAt: 0,
}

describe('editing a body field of a tool whose body is based on a read', () => {
  it('sends the edited field: the edit joins the changes applied to the read record', () => {
    const edited = applyToolEdit(
      tool,
      { body: [{ path: 'pinned', value: 'true' }] },
      { now: Date.UTC(2026, 10, 26), nameTaken: () => false, secrets: null },
    )
    const rendered = renderRequest(edited.steps[1]!.request, {
      'input.p0': 'Travel',
      'input.p1': 'Lisbon.',
      [answerKey('read')]: JSON.stringify({
        title: 'Travel',
        text: 'Porto.',
        pinned: false,
        tags: ['x'],
      }),
    })
    expect(JSON.parse(rendered.body!)).toEqual({
      title: 'Travel',
      text: 'Lisbon.',
      pinned: true,
      tags: ['x'],
    })
  })
})
