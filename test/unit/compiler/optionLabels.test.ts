import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { intentValues } from '../../../src/main/compiler/intentValues'
import type { Trace } from '../../../src/shared/trace'
import { traceBuilder } from './traceBuilder'

const options = { toolId: '00000000-0000-4000-8000-00000000000c', now: Date.UTC(2026, 10, 25) }

const LIST_PAGE = `<form><select name='cat' id='cat'>
<option value='0'>All Categories</option>
<option class="level-0" value="2">Vegetables</option>
<option class="level-0" value="4">Recipes</option>
</select><select name="m"><option value="4">April</option></select></form>`

/** A plain HAR: the list page with its filter form, then the filtered list (`cat=4`). */
function filterHar(page = LIST_PAGE, intent = 'list the posts in the category Recipes'): Trace {
  return traceBuilder('http://127.0.0.1:8080')
    .exchange('GET', '/wp-admin/edit.php', {
      mime: 'text/html',
      type: 'document',
      responseText: page,
    })
    .exchange('GET', '/wp-admin/edit.php?post_type=post&m=0&cat=4&paged=1', {
      mime: 'text/html',
      type: 'document',
      responseText: '<table><tr><td>Tomato soup</td></tr></table>',
    })
    .build(intent)
}

describe('a choice the intent names by its label', () => {
  it("is the option value the request sends for that select's field", () => {
    const trace = filterHar()
    const values = intentValues(trace.intent, trace.exchanges)
    expect(values).toEqual([
      expect.objectContaining({
        value: '4',
        fieldName: 'cat',
        name: 'Recipes',
        kind: 'select',
        options: ['0', '2', '4'],
        fromIntent: true,
      }),
    ])
  })

  it('makes the select field the required input of the compiled tool, asked by its label', () => {
    const result = compileTrace(filterHar(), options)
    if (!result.ok) throw new Error(result.explanation.reason)
    const tool = result.candidate
    const page = tool.steps.find((s) => s.extract.some((e) => e.from === 'option'))!
    const choice = page.extract.find((e) => e.from === 'option')!
    expect(tool.steps[tool.steps.length - 1]!.request.url).toContain(
      `cat={{step.${page.id}.${choice.name}}}`,
    )
    expect(choice.path).toBe(JSON.stringify({ select: 'cat', text: '{{input.p0}}' }))
    expect(tool.inputs.required).toEqual(['cat'])
    expect(tool.inputs.properties.cat).toMatchObject({
      type: 'string',
      default: 'Recipes',
      examples: ['Recipes', '4', 'All Categories', 'Vegetables'],
    })
  })

  it('reads a label that opens a terse intent, where a verb would stand', () => {
    const trace = filterHar(LIST_PAGE, 'Recipes posts')
    expect(intentValues(trace.intent, trace.exchanges).map((v) => v.value)).toEqual(['4'])
  })

  it('takes nothing when no page offered the label', () => {
    const trace = filterHar(LIST_PAGE.replace('Recipes', 'Flowers'))
    expect(intentValues(trace.intent, trace.exchanges)).toEqual([])
  })
})
