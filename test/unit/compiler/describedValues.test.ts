import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { markContext, type TypedValue } from '../../../src/main/compiler/typedValues'
import { options } from './noise'
import { traceBuilder } from './traceBuilder'

const typed = (value: string, fieldName: string): TypedValue => ({
  value,
  fieldName,
  name: null,
  kind: 'fill',
  inputType: 'text',
  at: 1,
})

describe('values the intent describes instead of spelling', () => {
  it('marks a value the intent names in words as context when another is spelled out', () => {
    const marked = markContext(
      [typed('team:status', 'id'), typed('Status: amber', 'wikitext')],
      "change the team status page to say 'Status: amber'",
    )
    expect(marked.map((t) => t.context === true)).toEqual([true, false])
  })

  it('keeps every value a parameter when the intent spells none of them', () => {
    const values = [typed('team:status', 'id')]
    expect(markContext(values, 'change the team status page')).toBe(values)
  })

  it('makes a described value an optional input with the recorded default', () => {
    const trace = traceBuilder()
      .fill('team:status', { name: 'id', label: 'Page' })
      .fill('Status: amber', { name: 'text', label: 'Text' })
      .submit()
      .exchange('POST', '/api/pages', {
        body: { id: 'team:status', text: 'Status: amber' },
        response: { ok: true, id: 'team:status' },
      })
      .build("change the team status page to say 'Status: amber'")
    const result = compileTrace(trace, options)
    if (!result.ok) throw new Error(result.explanation.reason)
    const { inputs } = result.candidate
    const byDefault = Object.entries(inputs.properties).map(([name, p]) => [name, p.default])
    const idInput = byDefault.find(([, d]) => d === 'team:status')![0] as string
    const textInput = byDefault.find(([, d]) => d === 'Status: amber')![0] as string
    expect(inputs.required).toContain(textInput)
    expect(inputs.required).not.toContain(idInput)
  })

  it('does not make a path slot of a link that only led to the form the person filled', () => {
    const trace = traceBuilder()
      .exchange('GET', '/wiki/Main_Page', {
        mime: 'text/html',
        type: 'document',
        responseText: '<p>main</p>',
      })
      .click('Special:PrefixIndex')
      .exchange('GET', '/wiki/Special:PrefixIndex', {
        mime: 'text/html',
        type: 'document',
        responseText: '<form><input name=prefix></form>',
      })
      .fill('Bicycle', { name: 'prefix', label: 'Display pages with prefix' })
      .submit()
      .exchange('GET', '/wiki/Special:PrefixIndex?prefix=Bicycle', {
        mime: 'text/html',
        type: 'document',
        responseText: '<ul><li><a href="/wiki/Bicycle_Tour">Bicycle Tour</a></li></ul>',
      })
      .build('list all pages whose names start with Bicycle')
    const result = compileTrace(trace, options)
    if (!result.ok) throw new Error(result.explanation.reason)
    const props = Object.values(result.candidate.inputs.properties)
    expect(props.map((p) => p['x-in'])).not.toContain('path')
    expect(props.find((p) => p.default === 'Bicycle')?.['x-in']).toBe('query')
  })

  it('makes a place the intent names an optional input, and keeps what a write acts on required', () => {
    const trace = traceBuilder()
      .exchange('GET', '/index.php?route=/sql&db=shop&table=customers', {
        mime: 'text/html',
        type: 'document',
        responseText: '<table><tr><td>Emmy Noether</td></tr></table>',
      })
      .exchange('POST', '/index.php?route=/sql', {
        body: { db: 'shop', table: 'customers', name: 'Emmy Noether', confirm: '1' },
        response: { ok: true },
      })
      .build('delete the customer Emmy Noether from the customers table of the shop database')
    const result = compileTrace(trace, options)
    if (!result.ok) throw new Error(result.explanation.reason)
    const { inputs } = result.candidate
    const named = (value: string) =>
      Object.entries(inputs.properties).find(([, p]) => p.default === value)?.[0]
    expect(inputs.required).toContain(named('Emmy Noether') ?? 'name')
    expect(named('shop')).toBeDefined()
    expect(named('customers')).toBeDefined()
    expect(inputs.required).not.toContain(named('shop'))
    expect(inputs.required).not.toContain(named('customers'))
  })

  it('defaults every place of a read, but no place of a write that names nothing else', () => {
    const places = [typed('products', 'table'), typed('shop', 'db')]
    const read = markContext(places, 'show me the rows of the products table in the shop database')
    expect(read.map((t) => t.context === true)).toEqual([true, true])
    const write = markContext([typed('logs', 'table')], 'delete every row from the logs table')
    expect(write.map((t) => t.context === true)).toEqual([false])
  })
})
