/**
 * Values a page gives the person rather than the person the page: a choice picked from a
 * labelled list is asked by its label (its value read from the page at run time); a page read on
 * the way to the target names the record the target looks up, not the recorded one, and the
 * fields it filled in are read from it, never asked.
 */
import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { extractValue, lookupMiss } from '../../../src/main/engine/extract'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import type { Trace } from '../../../src/shared/trace'
import { traceBuilder } from './traceBuilder'

const options = {
  toolId: '00000000-0000-4000-8000-0000000000d4',
  now: Date.UTC(2026, 10, 30),
  targetModel: null,
}

function compiled(trace: Trace): ToolSpec {
  const result = compileTrace(trace, options)
  if (!result.ok) throw new Error(result.explanation.reason)
  return result.candidate
}

const groupPage = (people: Array<[string, string]>) =>
  '<!doctype html><html><head><title>Group Sales</title></head><body>' +
  '<form method="post"><input type="hidden" name="csrf" value="tok-1">' +
  `<select name="member_id">${people.map(([id, name]) => `<option value="${id}">${name}</option>`).join('')}</select>` +
  '<input type="submit" name="add" value="Add"></form></body></html>'

const html = (body: string) => ({
  status: 200,
  headers: { 'content-type': 'text/html' },
  body,
})

describe('a choice picked from a labelled list', () => {
  const trace = traceBuilder('http://127.0.0.1:8080')
    .exchange('GET', '/groups/7/edit', {
      mime: 'text/html',
      responseText: groupPage([
        ['1001', 'Alice Martin'],
        ['1026', 'Grace Lee'],
      ]),
      type: 'document',
    })
    .fill('1001', { name: 'member_id', label: 'Member', options: ['1001', '1026'] })
    .submit()
    .exchange('POST', '/groups/7/edit', {
      form: 'csrf=tok-1&member_id=1001&add=Add',
      mime: 'text/html',
      responseText: '<html><title>Group Sales</title><p>Added.</p></html>',
      type: 'document',
    })
    .build('add Alice Martin to the Sales group')

  it('is asked by its label, and the run reads the value that label sends from the page', () => {
    const tool = compiled(trace)
    const [name, slot] = Object.entries(tool.inputs.properties).find(
      ([, p]) => p['x-path'] === 'member_id',
    )!
    expect(slot).toMatchObject({ type: 'string', default: 'Alice Martin' })
    expect(slot.examples).toEqual(['Alice Martin', '1001', 'Grace Lee'])
    expect(slot.enum).toBeUndefined()
    const page = tool.steps.find((s) => s.extract.some((e) => e.from === 'option'))!
    const extractor = page.extract.find((e) => e.from === 'option')!
    const body = tool.steps.at(-1)!.request.body
    expect(body?.kind === 'form' && body.template.member_id).toBe(
      `{{step.${page.id}.${extractor.name}}}`,
    )
    expect(tool.evidence.signals.map((s) => s.name)).toContain('option_by_label')
    // At run time the page lists other people; the label picks the value it has now.
    const now = html(
      groupPage([
        ['2001', 'Alice Martin'],
        ['2026', 'Grace  Lee'],
      ]),
    )
    const scope = { [`input.${slot['x-slot']}`]: 'grace lee' }
    expect(extractValue(now, extractor, scope)).toBe('2026')
    expect(name).toBe('member_id')
    // Or by the value itself, as the list sends it.
    expect(extractValue(now, extractor, { [`input.${slot['x-slot']}`]: '2001' })).toBe('2001')
    const missing = { [`input.${slot['x-slot']}`]: 'Nobody' }
    expect(extractValue(now, extractor, missing)).toBeUndefined()
    expect(lookupMiss(now, extractor, missing, 'GET /groups/7/edit')).toMatchObject({
      ok: false,
      code: 'not_found',
      message: expect.stringContaining('"Nobody"'),
    })
  })

  it('stays a value where the list labels each option by that value', () => {
    const plain = traceBuilder('http://127.0.0.1:8080')
      .exchange('GET', '/groups/7/edit', {
        mime: 'text/html',
        responseText: groupPage([
          ['alice', 'alice'],
          ['grace', 'grace'],
        ]),
        type: 'document',
      })
      .fill('alice', { name: 'member_id', label: 'Member', options: ['alice', 'grace'] })
      .submit()
      .exchange('POST', '/groups/7/edit', {
        form: 'csrf=tok-1&member_id=alice&add=Add',
        mime: 'text/html',
        responseText: '<html><title>Group Sales</title></html>',
        type: 'document',
      })
      .build('add alice to the Sales group')
    const tool = compiled(plain)
    expect(tool.steps.flatMap((s) => s.extract).some((e) => e.from === 'option')).toBe(false)
  })
})

describe('a page read between the list and the target', () => {
  it('names the record the run looks up, as the target does, and gives the fields it filled in', () => {
    const list =
      '<!doctype html><html><head><title>Users</title></head><body><table>' +
      '<tr><td><a href="/admin.php?action=edit&amp;id=1011">Carol Diaz</a></td></tr>' +
      '<tr><td><a href="/admin.php?action=edit&amp;id=1012">Dan Ortiz</a></td></tr>' +
      '</table></body></html>'
    const editor =
      '<!doctype html><html><head><title>Edit</title></head><body><form method="post">' +
      '<input type="hidden" name="csrf" value="5f0c9a1e7b2d4c8f9a3e6b1d2c7f8e4a">' +
      '<input name="username" value="carol"><input name="email" value="old@example.com">' +
      '</form></body></html>'
    const tool = compiled(
      traceBuilder('http://127.0.0.1:8080')
        .exchange('GET', '/admin.php?action=browse', {
          mime: 'text/html',
          responseText: list,
          type: 'document',
        })
        .click('Carol Diaz')
        .exchange('GET', '/admin.php?action=edit&id=1011', {
          mime: 'text/html',
          responseText: editor,
          type: 'document',
        })
        .fill('carol@example.com', { name: 'email', label: 'Email' })
        .submit()
        .exchange('POST', '/admin.php?action=edit&id=1011', {
          form: 'csrf=5f0c9a1e7b2d4c8f9a3e6b1d2c7f8e4a&username=carol&email=carol%40example.com',
          mime: 'text/html',
          responseText: '<html><title>Edit</title><p>Saved.</p></html>',
          type: 'document',
        })
        .build("change Carol Diaz's email to carol@example.com"),
    )
    const urls = tool.steps.map((s) => s.request.url)
    expect(urls.some((u) => u.includes('1011'))).toBe(false)
    const reads = tool.steps.filter((s) => s.request.url.includes('action=edit'))
    expect(reads).toHaveLength(2)
    const placeholder = /id=(\{\{[^}]+\}\})/.exec(reads.at(-1)!.request.url)![1]
    for (const step of reads) expect(step.request.url).toContain(`id=${placeholder}`)
    // The user name is the picked record's, read from its page: never asked, whatever the
    // intent calls the person.
    const page = reads[0]!
    const body = tool.steps.at(-1)!.request.body
    const username = body?.kind === 'form' ? body.template.username : undefined
    expect(username).toMatch(new RegExp(`^\\{\\{step\\.${page.id}\\.`))
    expect(Object.values(tool.inputs.properties).map((p) => p.default)).not.toContain('carol')
  })
})
