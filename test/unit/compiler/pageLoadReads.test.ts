/**
 * Issue 24 kind 7: a read with nothing typed, whose intent names the data the request answers
 * ("list my torrents", "export the statistics as CSV"), compiles to that request; an HTML template
 * a single-page app fetches is never a target; a configuration that holds records is data.
 */
import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { judgeResponse } from '../../../src/main/engine/outcome'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import type { Trace } from '../../../src/shared/trace'
import { traceBuilder } from './traceBuilder'

const options = {
  toolId: '00000000-0000-4000-8000-0000000000c7',
  now: Date.UTC(2026, 10, 28),
  targetModel: null,
}

function compiled(trace: Trace): ToolSpec {
  const result = compileTrace(trace, options)
  if (!result.ok) throw new Error(result.explanation.reason)
  return result.candidate
}

const target = (tool: ToolSpec) => tool.steps.at(-1)!.request

describe('a page-load read whose intent names the data', () => {
  it('targets the answer that holds the named collection, not the other page loads', () => {
    const tool = compiled(
      traceBuilder('http://127.0.0.1:8384')
        .exchange('GET', '/assets/view/panel.html', {
          mime: 'text/html',
          responseText: '<div class="panel">{{folder.label}}</div>',
          type: 'xhr',
        })
        .exchange('GET', '/rest/system/status', { response: { uptime: 12, myID: 'ABC' } })
        .exchange('GET', '/rest/config', {
          response: {
            version: 35,
            folders: [
              { id: 'a1', label: 'Photos' },
              { id: 'b2', label: 'Invoices' },
            ],
            options: { listenAddresses: ['default'] },
          },
        })
        .build('list my folders'),
    )
    expect(target(tool).url).toBe('http://127.0.0.1:8384/rest/config')
    expect(tool.evidence.signals.map((s) => s.name)).toContain('answer_names_intent')
    expect(tool.mutating).toBe(false)
  })

  it('never targets an HTML template the page fetched', () => {
    const result = compileTrace(
      traceBuilder()
        .exchange('GET', '/views/folder.html', {
          mime: 'text/html',
          responseText: '<li>{{folder}}</li>',
          type: 'xhr',
        })
        .build('show the folder template'),
      options,
    )
    if (result.ok) expect(target(result.candidate).url).not.toContain('folder.html')
    else
      expect(result.explanation.considered.map((c) => c.rejectedBecause)).toContain(
        'static asset (an HTML template the page loads)',
      )
  })
})

describe('an export the person downloads', () => {
  const csv = '# name,status\nweb1,UP\nweb2,MAINT\n'
  const trace = traceBuilder('http://127.0.0.1:9000')
    .exchange('GET', '/', {
      mime: 'text/html',
      type: 'document',
      responseText: '<html><title>Stats</title><a href="/;csv">CSV export</a></html>',
    })
    .click('CSV export')
    .exchange('GET', '/;csv', { mime: 'text/csv', type: 'document', responseText: csv })
    .build('export the statistics as CSV')

  it('targets the CSV and returns it whole as text', () => {
    const tool = compiled(trace)
    expect(target(tool).url).toBe('http://127.0.0.1:9000/;csv')
    expect(tool.result).toEqual({ kind: 'text' })
    expect(tool.verify).toMatchObject({ mimeType: 'text/csv' })
    const names = tool.evidence.signals.map((s) => s.name)
    expect(names).toContain('format_named')
    expect(names).toContain('clicked_link_names_intent')
  })

  it('judges a run: the CSV is the result; a page where it was is drift', () => {
    const tool = compiled(trace)
    const ok = judgeResponse(
      { status: 200, headers: { 'content-type': 'text/csv' }, body: csv },
      tool.verify,
      tool.result,
    )
    expect(ok).toEqual({ ok: true, result: { text: csv, mimeType: 'text/csv' } })
    const page = judgeResponse(
      {
        status: 200,
        headers: { 'content-type': 'text/html' },
        body: '<html><title>Error</title></html>',
      },
      tool.verify,
      tool.result,
    )
    expect(page).toMatchObject({ ok: false, code: 'schema_or_auth_drift' })
  })

  it('leaves text a page fetches to show (a readme) out of the targets', () => {
    const result = compileTrace(
      traceBuilder()
        .exchange('GET', '/api/readme/pkg', {
          mime: 'text/plain',
          responseText: '# pkg\nA package.',
          type: 'fetch',
        })
        .build('show the readme of pkg'),
      options,
    )
    const readme = result.ok ? target(result.candidate).url : ''
    expect(readme).not.toContain('/api/readme/pkg')
  })
})
