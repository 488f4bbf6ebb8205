/**
 * Issue 24 kind 3 on a server-rendered page: the person clicks a row's delete icon (a link with
 * no text of its own that carries the row's id) and confirms; the write posts the id. The tool
 * reads the list page again and takes the id from the row that holds the caller's value; a menu
 * of commands (links whose own text is the value) picks no record.
 */
import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { extractValue } from '../../../src/main/engine/extract'
import { renderRequest } from '../../../src/main/engine/template'
import type { Trace } from '../../../src/shared/trace'
import { traceBuilder } from './traceBuilder'

const options = { toolId: '00000000-0000-4000-8000-0000000000c8', now: Date.UTC(2026, 10, 29) }

const COMMENTS = [
  { id: 2, host: 'db02', text: 'Replica rebuilt from the backup of Monday' },
  { id: 3, host: 'web03', text: 'Old log rotation job still enabled here' },
  { id: 4, host: 'nas01', text: 'Powered off for the office move' },
]

const row = (c: (typeof COMMENTS)[number]) =>
  `<tr><td><a href="extinfo.cgi?type=1&host=${c.host}">${c.host}</a></td><td>${c.text}</td>` +
  `<td>${c.id}</td><td><a href="cmd.cgi?cmd_typ=2&com_id=${c.id}"><img alt="Delete This Comment"></a></td></tr>`

const LIST =
  '<html><body><table><tr><th>Host</th><th>Comment</th><th>ID</th><th>Actions</th></tr>' +
  `${COMMENTS.map(row).join('')}</table></body></html>`

/** The comments page, a click on the third row's icon, the confirm form, its post. */
function deleteComment(intent: string): Trace {
  const trace = traceBuilder('http://127.0.0.1:8080')
    .exchange('GET', '/cgi-bin/extinfo.cgi?type=3', {
      responseText: LIST,
      mime: 'text/html',
      type: 'document',
    })
    .click('Delete This Comment')
    .exchange('GET', '/cgi-bin/cmd.cgi?cmd_typ=2&com_id=3', {
      responseText: '<form method="post" action="cmd.cgi"><input name="com_id" value="3"></form>',
      mime: 'text/html',
      type: 'document',
    })
    .click('Commit')
    .exchange('POST', '/cgi-bin/cmd.cgi', {
      form: 'cmd_typ=2&cmd_mod=2&com_id=3&btnSubmit=Commit',
      responseText: '<p>Your command request was successfully submitted.</p>',
      mime: 'text/html',
      type: 'document',
    })
    .build(intent)
  return trace
}

/**
 * Compiles `trace` and reads the tool's anchor extractor over `page` with `other` as the caller's
 * value: the tool, its step that reads the page, the extractor, the input's recorded default and
 * the id read for `other`.
 */
function lookedUp(trace: Trace, page: string, other: string) {
  const result = compileTrace(trace, options)
  if (!result.ok) throw new Error(result.explanation.reason)
  const tool = result.candidate
  const read = tool.steps.find((s) => s.extract.some((x) => x.from === 'anchor'))!
  const extractor = read.extract.find((x) => x.from === 'anchor')!
  const input = Object.values(tool.inputs.properties).find((p) => p['x-in'] === 'answer')!
  const id = extractValue({ status: 200, headers: {}, body: page }, extractor, {
    [`input.${input['x-slot']}`]: other,
  })
  return { tool, read, extractor, recorded: input.default, id }
}

describe('an id picked by a row of a server-rendered list', () => {
  it('is read from the link of the row that holds the caller value', () => {
    const trace = deleteComment('delete the comment "Old log rotation job still enabled here"')
    const result = compileTrace(trace, options)
    if (!result.ok) throw new Error(result.explanation.reason)
    const tool = result.candidate
    const read = tool.steps.find((s) => s.request.url.includes('extinfo.cgi'))
    expect(read?.extract).toHaveLength(1)
    const target = tool.steps.at(-1)!
    const body = target.request.body
    if (body?.kind !== 'form') throw new Error('expected a form body')
    expect(body.template.com_id).toBe(`{{num:step.${read!.id}.${read!.extract[0]!.name}}}`)
    const input = Object.entries(tool.inputs.properties).find(([, p]) => p['x-in'] === 'answer')
    expect(input?.[0]).toBe('comment')
    expect(input?.[1].default).toBe('Old log rotation job still enabled here')
    // The run reads the list and finds another row's id by its text, then posts it.
    const id = extractValue({ status: 200, headers: {}, body: LIST }, read!.extract[0]!, {
      [`input.${input![1]['x-slot']}`]: 'Powered off for the office move',
    })
    expect(id).toBe('4')
    const rendered = renderRequest(target.request, {
      [`step.${read!.id}.${read!.extract[0]!.name}`]: id,
    })
    expect(new URLSearchParams(rendered.body!).get('com_id')).toBe('4')
  })

  it('leaves an id alone when no row holds a value of the person', () => {
    const trace = deleteComment('delete the comment')
    const result = compileTrace(trace, options)
    if (!result.ok) throw new Error(result.explanation.reason)
    const steps = result.candidate.steps
    expect(steps.some((s) => s.extract.some((x) => x.from === 'anchor'))).toBe(false)
  })

  it('takes no operation from a menu whose link text is the value', () => {
    const menu =
      '<html><body><ul>' +
      '<li><a href="cmd.cgi?cmd_typ=34&host=db01">Acknowledge this service problem</a></li>' +
      '<li><a href="cmd.cgi?cmd_typ=22&host=db01">Disable notifications for this service</a></li>' +
      '</ul></body></html>'
    const trace = traceBuilder('http://127.0.0.1:8080')
      .exchange('GET', '/cgi-bin/extinfo.cgi?type=2&host=db01', {
        responseText: menu,
        mime: 'text/html',
        type: 'document',
      })
      .click('Acknowledge this service problem')
      .fill('Cleaning up', { name: 'com_data', label: 'Comment' })
      .click('Commit')
      .exchange('POST', '/cgi-bin/cmd.cgi', {
        form: 'cmd_typ=34&host=db01&com_data=Cleaning+up',
        responseText: '<p>Your command request was successfully submitted.</p>',
        mime: 'text/html',
        type: 'document',
      })
      .build('acknowledge the problem of db01 with the comment "Cleaning up"')
    const result = compileTrace(trace, options)
    if (!result.ok) throw new Error(result.explanation.reason)
    const steps = result.candidate.steps
    expect(steps.some((s) => s.extract.some((x) => x.from === 'anchor'))).toBe(false)
  })

  it("reads a row's checkbox as the id its form sends (a list's bulk delete)", () => {
    const people = ['Marie Curie', 'Niels Bohr', 'Lise Meitner']
    const list =
      '<html><body><form method="post"><table><tr><th></th><th>name</th></tr>' +
      people
        .map(
          (name, i) =>
            `<tr><td><input type="checkbox" name="check[]" value="where%5Bid%5D=${i + 6}"></td><td>${name}</td></tr>`,
        )
        .join('') +
      '</table><input type="submit" name="delete" value="Delete"></form></body></html>'
    const trace = traceBuilder('http://127.0.0.1:8080')
      .exchange('GET', '/?select=customers', {
        responseText: list,
        mime: 'text/html',
        type: 'document',
      })
      .click('Delete')
      .exchange('POST', '/?select=customers', {
        form: 'check%5B%5D=where%255Bid%255D%3D7&delete=Delete',
        responseText: '<p>Item has been deleted.</p>',
        mime: 'text/html',
        type: 'document',
      })
      .build('delete the customer Niels Bohr')
    const { tool, read, extractor, recorded, id } = lookedUp(trace, list, 'Lise Meitner')
    expect(recorded).toBe('Niels Bohr')
    expect(id).toBe('where%5Bid%5D=8')
    const body = tool.steps.at(-1)!.request.body
    if (body?.kind !== 'form') throw new Error('expected a form body')
    expect(body.template['check[]']).toBe(`{{step.${read.id}.${extractor.name}}}`)
  })

  it('reads checkboxes named after their own value (userids[8]=8) as one list', () => {
    const users = ['erin.walsh', 'frank.ortiz', 'gina.park']
    const list =
      '<html><body><form method="post"><table><tr><th></th><th>Username</th></tr>' +
      users
        .map(
          (name, i) =>
            `<tr><td><input type="checkbox" name="userids[${i + 7}]" value="${i + 7}"></td><td><a href="zabbix.php?action=user.edit&userid=${i + 7}">${name}</a></td></tr>`,
        )
        .join('') +
      '</table></form></body></html>'
    const trace = traceBuilder('http://127.0.0.1:8080')
      .exchange('GET', '/zabbix.php?action=user.list', {
        responseText: list,
        mime: 'text/html',
        type: 'document',
      })
      .click('Delete')
      .exchange('POST', '/zabbix.php', {
        form: 'action=user.delete&userids%5B8%5D=8',
        response: { success: true },
      })
      .build("delete the user 'frank.ortiz'")
    const { recorded, id } = lookedUp(trace, list, 'gina.park')
    expect(recorded).toBe('frank.ortiz')
    expect(id).toBe('9')
  })

  it('finds the record block of a page that lists records as cards of <div>s, not rows', () => {
    const card = (id: number, title: string) =>
      // Two Delete icons per card (one by the title, one in the controls), as Shaarli has.
      `<div class="item" data-id="${id}"><h2><a href="https://elsewhere.example/${id}"><span>${title}</span></a>` +
      `<a href="/admin/delete?id=${id}&token=t0k" title="Delete"><i class="icon-trash"></i></a></h2>` +
      `<div class="controls"><a href="/admin/edit/${id}" title="Edit"><i class="icon-edit"></i></a>` +
      `<a href="/admin/delete?id=${id}&token=t0k" title="Delete"><i class="icon-trash"></i></a></div></div>`
    const list =
      '<html><body><div class="list">' +
      card(14, 'Rust by Example') +
      card(15, 'Old company wiki') +
      card(16, 'Printer manual') +
      '</div></body></html>'
    const trace = traceBuilder('http://127.0.0.1:8080')
      .exchange('GET', '/', { responseText: list, mime: 'text/html', type: 'document' })
      .click('Delete')
      .exchange('GET', '/admin/delete?id=15&token=t0k', {
        responseText: '<p>deleted</p>',
        mime: 'text/html',
        type: 'document',
      })
      .build('delete the bookmark "Old company wiki"')
    const { recorded, id } = lookedUp(trace, list, 'Printer manual')
    expect(recorded).toBe('Old company wiki')
    expect(id).toBe('16')
  })
})
