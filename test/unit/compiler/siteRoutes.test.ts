/**
 * Routes a site marks as its own and text typed on the way (seen on Gitit, wave 16): a path
 * segment with a leading underscore (`/_search`, `/_diff/Page`) is the site's route, never the
 * value the intent names nor the part that varies per page; a log message the person typed while
 * the intent spells the page's title and text is an optional input with what they typed as its
 * default. A record named before a format extension (`/old-rota.json`, Federated Wiki, wave 17)
 * is the input, the extension stays in the address.
 */
import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { reservedWord } from '../../../src/main/compiler/pathEvidence'
import { formatSuffix } from '../../../src/main/compiler/pathValues'
import { markContext, type TypedValue } from '../../../src/main/compiler/typedValues'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import type { Trace } from '../../../src/shared/trace'
import { options } from './noise'
import { traceBuilder } from './traceBuilder'

function compiled(trace: Trace): ToolSpec {
  const result = compileTrace(trace, options)
  if (!result.ok) throw new Error(result.explanation.reason)
  return result.candidate
}

const page = (title: string, body = '') =>
  `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`

const html = { type: 'document', mime: 'text/html' }

describe("a site's own routes", () => {
  it('reads a leading underscore as the mark of a route', () => {
    expect(reservedWord('_search')).toBe('search')
    expect(reservedWord('_all_docs')).toBe('alldocs')
    expect(reservedWord('search')).toBeNull()
    expect(reservedWord('_2024')).toBeNull()
    expect(reservedWord('floor_plan')).toBeNull()
  })

  it('keeps `/_search` a constant route when the intent says "search"', () => {
    const trace = traceBuilder('http://wiki.example')
      .exchange('GET', '/Front%20Page', { responseText: page('Front Page'), ...html })
      .fill('backup', { name: 'patterns', label: 'Search' })
      .submit()
      .exchange('GET', '/_search?patterns=backup&search=Search', {
        responseText: page('Search results', '<ul><li>Backup plan</li></ul>'),
        ...html,
      })
      .build("search the wiki for pages that mention 'backup'")
    const tool = compiled(trace)
    const target = tool.steps.at(-1)!.request
    expect(new URL(target.url.replace(/\{\{[^}]+\}\}/g, 'x')).pathname).toBe('/_search')
    const inPath = Object.values(tool.inputs.properties).filter((s) => s['x-in'] === 'path')
    expect(inPath).toEqual([])
    expect(tool.inputs.required).toEqual(['patterns'])
  })

  it("does not take the route that differs between a page's views as the page's name", () => {
    const trace = traceBuilder('http://wiki.example')
      .click('Release Checklist')
      .exchange('GET', '/Release%20Checklist', { responseText: page('Release Checklist'), ...html })
      .click('history')
      .exchange('GET', '/_history/Release%20Checklist', {
        responseText: page('Changes to Release Checklist'),
        ...html,
      })
      .click('diff')
      .exchange('GET', '/_diff/Release%20Checklist', {
        responseText: page('Changes to Release Checklist', '<pre>+ tag the release</pre>'),
        ...html,
      })
      .build('show what changed in the Release Checklist page')
    const tool = compiled(trace)
    const target = tool.steps.at(-1)!.request
    expect(target.url).toMatch(/\/_diff\//)
    const inPath = Object.values(tool.inputs.properties).filter((s) => s['x-in'] === 'path')
    expect(inPath.map((s) => s['x-path'])).not.toContain('0')
  })
})

describe('text typed on the way', () => {
  const typed = (value: string, name: string): TypedValue => ({
    value,
    kind: 'fill',
    fieldName: name,
    name,
    inputType: 'text',
    at: 1,
  })

  it('marks a value the intent neither spells nor describes a setting when it spells another', () => {
    const marked = markContext(
      [typed('Printer Setup', 'title'), typed('Where the printer is', 'logMsg')],
      "create a wiki page called 'Printer Setup'",
    )
    expect(marked.map((t) => t.setting ?? false)).toEqual([false, true])
    // With nothing spelled, what was typed is what the task is about.
    expect(
      markContext([typed('Where the printer is', 'logMsg')], 'create a wiki page').map(
        (t) => t.setting ?? false,
      ),
    ).toEqual([false])
  })

  it('compiles a wiki save whose log message is optional, defaulting to what was typed', () => {
    const trace = traceBuilder('http://wiki.example')
      .exchange('GET', '/_edit/Printer%20Setup', { responseText: page('Editing'), ...html })
      .fill('The printer is on the second floor.', { name: 'editedText', label: 'Text' })
      .fill('Where the printer is', { name: 'logMsg', label: 'Description of changes' })
      .submit()
      .exchange('POST', '/Printer%20Setup', {
        form: 'editedText=The+printer+is+on+the+second+floor.&logMsg=Where+the+printer+is&update=Save',
        status: 303,
        headers: { location: '/Printer%20Setup' },
        ...html,
      })
      .build(
        "create a wiki page called 'Printer Setup' that says 'The printer is on the second floor.'",
      )
    const tool = compiled(trace)
    const log = Object.entries(tool.inputs.properties).find(([, s]) => s['x-path'] === 'logMsg')
    expect(log?.[1].default).toBe('Where the printer is')
    expect(tool.inputs.required).not.toContain(log![0])
    const text = Object.entries(tool.inputs.properties).find(
      ([, s]) => s['x-path'] === 'editedText',
    )
    expect(tool.inputs.required).toContain(text![0])
  })
})

describe('a record named before a format extension', () => {
  it('makes the value before `.json` the input and keeps the extension in the address', () => {
    const trace = traceBuilder('http://wiki.example')
      .exchange('GET', '/old-rota.json', { response: { title: 'Old Rota', story: [] } })
      .click('Delete')
      .exchange('DELETE', '/old-rota.json', { response: { ok: true } })
      .build('delete the Old Rota page from the wiki')
    const tool = compiled(trace)
    const target = tool.steps.at(-1)!.request
    const [input] = Object.values(tool.inputs.properties).filter((s) => s['x-in'] === 'path')
    expect(input).toMatchObject({ default: 'old-rota' })
    expect(target.url).toBe(`http://wiki.example/{{input.${input!['x-slot']}}}.json`)
  })

  it('reads only a known format as an extension', () => {
    expect(formatSuffix('old-rota.json')).toBe('.json')
    expect(formatSuffix('items.XML')).toBe('.XML')
    expect(formatSuffix('.json')).toBe('')
    expect(formatSuffix('release-1.2')).toBe('')
    expect(formatSuffix('photo.jpg')).toBe('')
  })
})
