/**
 * Issue 24 kinds 1 and 3: one URL, many operations (a JSON-RPC endpoint), and an id the person
 * picked by clicking a row that the page sends in the call: the operation stays a constant, the
 * call's `id` counter is no input, and the picked record's id is looked up by the name the person
 * gave in the list the page loaded, also when that list is a map keyed by the ids.
 */
import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { textAt } from '../../../src/shared/jsonPath'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import type { Trace } from '../../../src/shared/trace'
import { traceBuilder } from './traceBuilder'

const options = { toolId: '00000000-0000-4000-8000-0000000000c1', now: Date.UTC(2026, 10, 28) }

const ITEMS = {
  a3f9c0e1b2d4e5f60718293a4b5c6d7e8f901234: { name: 'ubuntu-24.04.iso', state: 'Seeding' },
  '730744cca0909460cf98e78c47e9270e66a20110': { name: 'debian-12.iso', state: 'Downloading' },
  ffee0011223344556677889900aabbccddeeff00: { name: 'fedora-40.iso', state: 'Paused' },
}

/** A JSON-RPC app: it lists the methods, polls the item map, then pauses the clicked item. */
function rpcTrace(intent = 'pause the download debian-12.iso'): Trace {
  const rpc = (method: string, params: unknown[], id: number) => ({ method, params, id })
  return traceBuilder('http://127.0.0.1:8112')
    .exchange('POST', '/json', {
      body: rpc('system.listMethods', [], 0),
      response: {
        result: ['core.get_config', 'core.pause_torrent', 'core.resume_torrent'],
        error: null,
        id: 0,
      },
      type: 'xhr',
    })
    .exchange('POST', '/json', {
      body: rpc('web.update_ui', [['name', 'state'], {}], 1),
      response: { result: { torrents: ITEMS }, error: null, id: 1 },
      type: 'xhr',
    })
    .click('Pause')
    .exchange('POST', '/json', {
      body: rpc('core.pause_torrent', [['730744cca0909460cf98e78c47e9270e66a20110']], 2),
      response: { result: null, error: null, id: 2 },
      type: 'xhr',
    })
    .exchange('POST', '/json', {
      body: rpc('web.update_ui', [['name', 'state'], {}], 3),
      response: { result: { torrents: ITEMS }, error: null, id: 3 },
      type: 'xhr',
    })
    .build(intent)
}

function compiled(trace: Trace): ToolSpec {
  const result = compileTrace(trace, options)
  if (!result.ok) throw new Error(result.explanation.reason)
  return result.candidate
}

describe('a JSON-RPC call picked by clicking a row', () => {
  const tool = compiled(rpcTrace())
  const target = tool.steps.at(-1)!
  const body = (target.request.body as { template: Record<string, unknown> }).template

  it('targets the call whose method does what the intent asks', () => {
    expect(body.method).toBe('core.pause_torrent')
    expect(tool.mutating).toBe(true)
  })

  it('keeps the method and the call id constant: neither is an input or read from an answer', () => {
    expect(body.id).toBe(2)
    expect(Object.keys(tool.inputs.properties)).toEqual(['name'])
    expect(JSON.stringify(tool.steps.slice(0, -1))).not.toContain('listMethods')
  })

  it("looks the picked id up in the listing's map by the name the intent gives", () => {
    const read = tool.steps[0]!
    expect((read.request.body as { template: { method: string } }).template.method).toBe(
      'web.update_ui',
    )
    const path = read.extract[0]!.path
    expect(path).toBe('result.torrents[?name=={{input.p0}}]~')
    expect(body.params).toEqual([[`{{step.${read.id}.${read.extract[0]!.name}}}`]])
    const answer = { result: { torrents: ITEMS } }
    expect(textAt(answer, path, { 'input.p0': 'fedora-40.iso' })).toBe(
      'ffee0011223344556677889900aabbccddeeff00',
    )
    expect(tool.inputs.properties.name).toMatchObject({
      default: 'debian-12.iso',
      'x-in': 'answer',
    })
  })
})
