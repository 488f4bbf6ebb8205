/**
 * A JSON body that is a list at the top (a page that saves a batch of records at once:
 * `[{"name":"BAD_SUBJECT_WORD","value":4.25}]`): its items' fields are request values like a
 * list's inside an object, so what the person typed becomes the tool's inputs and a run sends
 * the caller's values in the same places.
 */
import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { requestValues } from '../../../src/main/compiler/requestValues'
import { renderRequest } from '../../../src/main/engine/template'
import { traceBuilder } from './traceBuilder'

const options = { toolId: '00000000-0000-4000-8000-0000000000c5', now: Date.UTC(2026, 10, 29) }

function saveTrace() {
  return traceBuilder('http://127.0.0.1:11334')
    .exchange('GET', '/symbols', {
      response: [
        { name: 'BAD_SUBJECT_WORD', score: 2 },
        { name: 'FAKE_REPLY', score: 1 },
      ],
      type: 'xhr',
    })
    .fill('BAD_SUBJECT_WORD', { name: 'search', label: 'Search' })
    .fill('4.25', { name: 'value', label: 'value' })
    .click('Save changes')
    .exchange('POST', '/savesymbols', {
      body: [{ name: 'BAD_SUBJECT_WORD', value: 4.25 }],
      response: { success: true },
      type: 'xhr',
    })
    .build('set the score of the symbol BAD_SUBJECT_WORD to 4.25')
}

describe('a JSON list body', () => {
  it("reads each item's fields as values under the item's index", () => {
    const post = saveTrace().exchanges.at(-1)!
    expect(requestValues(post).map((v) => [v.path, v.key, v.value])).toEqual([
      ['0.name', 'name', 'BAD_SUBJECT_WORD'],
      ['0.value', 'value', 4.25],
    ])
  })

  it('keeps a list of nested documents (an exported flow) whole, not as values', () => {
    const trace = traceBuilder()
      .exchange('POST', '/library/flows/backup.json', {
        body: [
          { id: 'f1', type: 'tab', label: 'Nightly import', env: [] },
          { id: 'n1', type: 'inject', z: 'f1', props: [{ p: 'payload' }], wires: [['n2']] },
        ],
      })
      .build('save the flow to the library')
    expect(requestValues(trace.exchanges[0]!)).toEqual([])
  })

  it("makes the typed values inputs and sends the caller's values in their places", () => {
    const result = compileTrace(saveTrace(), options)
    if (!result.ok) throw new Error(result.explanation.reason)
    const { candidate } = result
    const target = candidate.steps.at(-1)!
    expect(target.request.url).toMatch(/\/savesymbols$/)
    const byDefault = Object.fromEntries(
      Object.values(candidate.inputs.properties).map((p) => [String(p.default), p['x-slot']]),
    )
    expect(Object.keys(byDefault).sort()).toEqual(['4.25', 'BAD_SUBJECT_WORD'])
    const sent = renderRequest(target.request, {
      [`input.${byDefault.BAD_SUBJECT_WORD}`]: 'FAKE_REPLY',
      [`input.${byDefault['4.25']}`]: 7.5,
    }).body
    expect(JSON.parse(String(sent))).toEqual([{ name: 'FAKE_REPLY', value: 7.5 }])
  })
})
