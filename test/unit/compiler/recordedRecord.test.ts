/**
 * Issue 24 F: a write addressed by the recorded record while the person gives a new name. The
 * path segment that spells the typed title takes the title's input; a value the person gave that
 * no input holds leaves a caution, which Verify shows before it sends.
 */
import { describe, expect, it } from 'vitest'
import { guardRecordedRecord } from '../../../src/main/compiler/recordedRecord'
import { renderRequest } from '../../../src/main/engine/template'
import type { SlotSchema, ToolSpec } from '../../../src/shared/toolSpec'
import { traceBuilder } from './traceBuilder'

/** A create as a wiki sends it: the title in the path and in the body. */
function wikiPut(url: string, body: Record<string, unknown>, inputs: Record<string, SlotSchema>) {
  const tool: ToolSpec = {
    id: '00000000-0000-4000-8000-0000000000f1',
    siteHost: '127.0.0.1:8080',
    name: 'wiki__create_page',
    capabilityId: '127.0.0.1:8080/create_page',
    intent: 'create a new wiki page Release notes',
    description: 'create a page',
    version: '2026.1.1',
    mutating: true,
    status: 'candidate',
    inputs: { type: 'object', properties: inputs, required: Object.keys(inputs) },
    steps: [
      {
        id: 'target',
        exchangeId: 'exc_1',
        request: { method: 'PUT', url, headers: {}, body: { kind: 'json', template: body } },
        extract: [],
      },
    ],
    output: { type: 'object' },
    verify: { status: [200, 299], mimeType: '*', required: [] },
    via: 'http',
    evidence: {
      traceId: 'trc_1',
      targetExchangeId: 'exc_1',
      exchangeIds: ['exc_1'],
      score: 0.9,
      signals: [],
      alternatives: [],
    },
    createdAt: 0,
    updatedAt: 0,
  }
  return tool
}

const title: SlotSchema = {
  'x-slot': 'p0',
  'x-in': 'body',
  'x-path': 'title',
  type: 'string',
  default: 'Release notes',
}
const trace = traceBuilder('http://127.0.0.1:8080')
  .fill('Release notes', { name: 'title', label: 'Title' })
  .fill('v2 is out', { name: 'text', label: 'Text' })
  .submit()
  .build('create a new wiki page with a title and text')

describe('a write that names the recorded record in its path', () => {
  it('takes the input that holds the same value, so a new title writes a new page', () => {
    const tool = guardRecordedRecord(
      wikiPut(
        'http://127.0.0.1:8080/recipes/default/tiddlers/Release%20notes',
        { title: '{{input.p0}}', text: 'v2 is out' },
        { title },
      ),
      trace,
    )
    const target = tool.steps.at(-1)!
    expect(target.request.url).toBe('http://127.0.0.1:8080/recipes/default/tiddlers/{{input.p0}}')
    expect(renderRequest(target.request, { 'input.p0': 'Meeting minutes' }).url).toBe(
      'http://127.0.0.1:8080/recipes/default/tiddlers/Meeting%20minutes',
    )
    expect(tool.evidence.signals.map((s) => s.name)).toContain('one_value_several_places')
    // The text the person typed is still sent as recorded, and no input holds it: said.
    expect(tool.evidence.caution).toContain('"v2 is out"')
  })

  it('says nothing when every value the person gave is an input', () => {
    const text: SlotSchema = { ...title, 'x-slot': 'p1', 'x-path': 'text', default: 'v2 is out' }
    const tool = wikiPut(
      'http://127.0.0.1:8080/recipes/default/tiddlers/{{input.p0}}',
      { title: '{{input.p0}}', text: '{{input.p1}}' },
      { title, text },
    )
    const guarded = guardRecordedRecord(tool, trace)
    expect(guarded).toBe(tool)
    expect(guarded.evidence.caution).toBeUndefined()
  })

  it('leaves reads alone', () => {
    const read = {
      ...wikiPut('http://127.0.0.1:8080/pages/Release%20notes', {}, {}),
      mutating: false,
    }
    expect(guardRecordedRecord(read, trace)).toBe(read)
  })
})

describe('an operation the person picked from a menu', () => {
  const picked = traceBuilder('http://127.0.0.1:8080')
    .fill('stop-printer', { name: 'OP', label: 'Maintenance', options: ['stop-printer'] })
    .exchange('POST', '/printers/office', { form: 'OP=stop-printer&org.cups.sid=abc' })
    .build('pause the printer office')
  const tool = (form: Record<string, string>) => {
    const base = wikiPut('http://127.0.0.1:8080/printers/{{input.p0}}', {}, {})
    const target = base.steps[0]!
    return {
      ...base,
      steps: [
        {
          ...target,
          request: {
            ...target.request,
            method: 'POST',
            body: { kind: 'form' as const, template: form },
          },
        },
      ],
    }
  }

  it('is what the tool does, kept constant without a caution', () => {
    const guarded = guardRecordedRecord(tool({ OP: 'stop-printer' }), picked)
    expect(guarded.evidence.caution).toBeUndefined()
  })

  it('still cautions when a picked value that is no operation stays constant', () => {
    const other = traceBuilder('http://127.0.0.1:8080')
      .fill('stop-printer', { name: 'queue', label: 'Queue', options: ['stop-printer'] })
      .exchange('POST', '/printers/office', { form: 'queue=stop-printer' })
      .build('pause the printer office')
    const guarded = guardRecordedRecord(tool({ queue: 'stop-printer' }), other)
    expect(guarded.evidence.caution).toContain('"stop-printer"')
  })
})
