/**
 * Issue 24 kinds 1 and 3 with short ids: a JSON-RPC app whose one method takes a command word and
 * a numeric id the page picked by a click (an id too short to trace by itself). The command stays a
 * constant, the write the intent names is chosen among calls of one method, and the id is looked
 * up in the list the page loaded by the record's name the intent says whole, sent as a number.
 */
import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { renderRequest } from '../../../src/main/engine/template'
import { textAt } from '../../../src/shared/jsonPath'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import type { Trace } from '../../../src/shared/trace'
import { traceBuilder } from './traceBuilder'

const options = { toolId: '00000000-0000-4000-8000-0000000000c2', now: Date.UTC(2026, 10, 29) }

const GROUPS = [
  { FirstID: 3, GroupID: 3, Name: 'Spring Lecture Series 2019 Part 1', Status: 'QUEUED' },
  { FirstID: 4, GroupID: 4, Name: 'Harbour Timelapse 4K 2021', Status: 'PAUSED' },
  { FirstID: 7, GroupID: 7, Name: 'Garden Diary Episode 12', Status: 'QUEUED' },
]

/** Lists the groups, then the click sends two calls of one method: the asked one and a follow-up. */
function commandTrace(intent: string, commands: string[]): Trace {
  let b = traceBuilder('http://127.0.0.1:6789')
    .exchange('POST', '/rpc', {
      body: { method: 'groups', params: [] },
      response: { version: '1.1', result: GROUPS },
      type: 'xhr',
    })
    .click('Resume')
  for (const command of commands)
    b = b.exchange('POST', '/rpc', {
      body: { method: 'queue', params: [command, '', [4]] },
      response: { version: '1.1', result: true },
      type: 'xhr',
    })
  return b.build(intent)
}

function compiled(trace: Trace): ToolSpec {
  const result = compileTrace(trace, options)
  if (!result.ok) throw new Error(result.explanation.reason)
  return result.candidate
}

describe('a command call of one JSON-RPC method, picked by a short id', () => {
  const tool = compiled(
    commandTrace('resume the paused group Harbour Timelapse 4K 2021', [
      'GroupResume',
      'GroupPauseExtraPars',
    ]),
  )
  const target = tool.steps.at(-1)!
  const body = (target.request.body as { template: { params: unknown[] } }).template

  it('targets the call whose command names the act the intent asks, not the later follow-up', () => {
    expect(body.params[0]).toBe('GroupResume')
  })

  it('keeps the command word constant and makes no input of the recorded id', () => {
    expect(Object.values(tool.inputs.properties).map((p) => p.default)).toEqual([
      'Harbour Timelapse 4K 2021',
    ])
  })

  it('reads the list first and finds the id by the name the intent says, by the plain id field', () => {
    const read = tool.steps[0]!
    const extractor = read.extract[0]!
    const slot = Object.values(tool.inputs.properties)[0]!['x-slot']
    expect(extractor.path).toBe(`result[?Name=={{input.${slot}}}].GroupID`)
    expect(
      textAt({ result: GROUPS }, extractor.path, { [`input.${slot}`]: 'Garden Diary Episode 12' }),
    ).toBe('7')
  })

  it('sends the looked-up id as a JSON number, as the page did', () => {
    const read = tool.steps[0]!
    const rendered = renderRequest(target.request, {
      [`step.${read.id}.${read.extract[0]!.name}`]: '7',
      'gen.now_ms': '1',
    })
    expect(JSON.parse(rendered.body as string).params[2]).toEqual([7])
  })
})

describe('the num: placeholder', () => {
  it('renders a numeric text as a number in a JSON body and as text in the URL', () => {
    const rendered = renderRequest(
      {
        method: 'POST',
        url: 'http://127.0.0.1/x/{{num:a}}',
        headers: {},
        body: { kind: 'json', template: { id: '{{num:a}}', name: '{{num:b}}' } },
      },
      { a: '42', b: 'not a number' },
    )
    expect(rendered.url).toBe('http://127.0.0.1/x/42')
    expect(JSON.parse(rendered.body as string)).toEqual({ id: 42, name: 'not a number' })
  })
})
