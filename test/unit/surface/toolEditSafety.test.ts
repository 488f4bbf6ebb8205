import { afterEach, describe, expect, it } from 'vitest'
import { applyToolEdit, type ToolEditContext } from '../../../src/main/surface/toolEdit'
import { isServiceError } from '../../../src/shared/errors'
import type { ToolEdit } from '../../../src/shared/toolEdit'
import type { ToolSpec } from '../../../src/shared/toolSpec'

const tool: ToolSpec = {
  id: '00000000-0000-4000-8000-0000000000dd',
  siteHost: 'notes.example',
  name: 'notes__create_note',
  capabilityId: 'notes.example/notes__create_note',
  intent: 'create a note',
  description: 'create a note',
  version: '2026.11.25',
  mutating: true,
  status: 'verified',
  inputs: {
    type: 'object',
    properties: { title: { type: 'string', 'x-slot': 'p0' } },
    required: ['title'],
  },
  steps: [
    {
      id: 'target',
      request: {
        method: 'POST',
        url: 'https://notes.example/api/notes',
        headers: { 'content-type': 'application/json' },
        body: { kind: 'json', template: { title: '{{input.p0}}', meta: { pinned: false } } },
      },
      extract: [],
    },
  ],
  output: { type: 'object' },
  verify: { status: [200, 299], mimeType: '*', required: [] },
  via: 'http',
  evidence: { traceId: 'trc_X', targetExchangeId: 'exc_1', dependencyExchangeIds: [], signals: [] },
  createdAt: 0,
  updatedAt: 0,
} as unknown as ToolSpec

const context: ToolEditContext = {
  now: Date.UTC(2026, 10, 28),
  nameTaken: () => false,
  secrets: [{ name: 'TOK', hosts: ['notes.example'], createdAt: 0, updatedAt: 0 }],
}

/** The error code and message an edit is refused with, or null when it is applied. */
function refusal(edit: ToolEdit): { code: string; message: string } | null {
  try {
    applyToolEdit(tool, edit, context)
    return null
  } catch (error) {
    if (!isServiceError(error)) throw error
    return { code: error.code, message: error.message }
  }
}

afterEach(() => {
  delete (Object.prototype as Record<string, unknown>)['x']
})

describe('a tool edit never walks into a prototype', () => {
  it.each(['__proto__.x', 'constructor.prototype.x', 'meta.__proto__.x', 'meta.constructor'])(
    'refuses the body path %s and pollutes nothing',
    (path) => {
      expect(refusal({ body: [{ path, value: 'yes' }] })).toMatchObject({ code: 'invalid_input' })
      expect(({} as Record<string, unknown>)['x']).toBeUndefined()
    },
  )

  it('still sets a nested field through own objects', () => {
    const next = applyToolEdit(tool, { body: [{ path: 'meta.pinned', value: 'true' }] }, context)
    const body = next.steps[0]!.request.body as { template: { meta: { pinned: unknown } } }
    expect(body.template.meta.pinned).toBe(true)
  })

  it('refuses an input named __proto__ or constructor', () => {
    for (const name of ['__proto__', 'constructor', 'prototype'])
      expect(
        refusal({ inputs: [{ slot: 'p0', name, type: 'string', required: true }] }),
      ).toMatchObject({ code: 'invalid_input' })
  })

  it('refuses a verify path through a prototype', () => {
    expect(
      refusal({ verify: { required: [{ path: 'constructor.name', type: 'string' }] } }),
    ).toMatchObject({ code: 'invalid_input' })
  })
})

describe('a tool edit leaves the sender its own headers', () => {
  it.each([
    'Host',
    'host',
    'Connection',
    'Transfer-Encoding',
    'Content-Length',
    'Proxy-Authorization',
    'Upgrade',
  ])('refuses the header %s', (name) => {
    expect(refusal({ headers: { [name]: 'other-vhost.example' } })).toMatchObject({
      code: 'invalid_input',
    })
  })

  it('refuses a line break in a header value', () => {
    expect(refusal({ headers: { 'X-Note': 'a\r\nHost: evil.example' } })).toMatchObject({
      code: 'invalid_input',
    })
  })

  it('refuses a secret in its JSON-text form, which would be sent as null', () => {
    expect(refusal({ headers: { 'X-Token': '{{json:secret:TOK}}' } })).toMatchObject({
      code: 'invalid_input',
    })
    expect(refusal({ body: [{ path: 'token', value: '{{json:secret:TOK}}' }] })).toMatchObject({
      code: 'invalid_input',
    })
  })

  it('keeps allowing a bound secret and an input in JSON-text form', () => {
    expect(refusal({ headers: { 'X-Token': 'Bearer {{secret:TOK}}' } })).toBeNull()
    expect(refusal({ body: [{ path: 'raw', value: '{{json:input.p0}}' }] })).toBeNull()
  })
})
