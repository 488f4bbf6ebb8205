import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { extractValue } from '../../../src/main/engine/extract'
import { formatLinkQuery, linkQueryValue, parseLinkQuery } from '../../../src/shared/linkQuery'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import type { Trace } from '../../../src/shared/trace'
import { traceBuilder } from './traceBuilder'

const options = { toolId: '00000000-0000-4000-8000-00000000000d', now: Date.UTC(2026, 10, 25) }

/** A post list whose rows link to their trash action, each with its own nonce. */
const row = (id: number, nonce: string) =>
  `<tr id="post-${id}"><td><a href="post.php?post=${id}&amp;action=edit">Edit</a>
  <a href="post.php?post=${id}&amp;action=trash&amp;_wpnonce=${nonce}" aria-label="Trash">Trash</a></td></tr>`
const LIST = `<table>${row(17, 'a1b2c3d4e5')}${row(18, '7a75269aed')}${row(19, '0f9e8d7c6b')}</table>`

function trashTrace(list = LIST): Trace {
  return traceBuilder('http://127.0.0.1:8080')
    .exchange('GET', '/wp-admin/edit.php', {
      mime: 'text/html',
      type: 'document',
      responseText: list,
    })
    .click('Move “Old Announcement” to the Trash')
    .exchange('GET', '/wp-admin/post.php?post=18&action=trash&_wpnonce=7a75269aed', {
      status: 302,
      type: 'document',
      mime: 'text/html',
    })
    .build('move the post Old Announcement to the trash')
}

function compiled(trace: Trace): ToolSpec {
  const result = compileTrace(trace, options)
  if (!result.ok) throw new Error(result.explanation.reason)
  return result.candidate
}

describe('readLinkTokens', () => {
  it('reads a per-record token from the link of the record the run names', () => {
    const tool = compiled(trashTrace())
    expect(tool.steps).toHaveLength(2)
    const [page, target] = tool.steps
    expect(page!.request).toMatchObject({
      method: 'GET',
      url: 'http://127.0.0.1:8080/wp-admin/edit.php',
    })
    const slot = tool.inputs.properties.post!['x-slot']
    expect(page!.extract).toEqual([
      { name: 'wpnonce', from: 'link', path: `_wpnonce?post={{input.${slot}}}&action=trash` },
    ])
    expect(target!.request.url).toBe(
      `http://127.0.0.1:8080/wp-admin/post.php?post={{input.${slot}}}&action=trash&_wpnonce={{step.${page!.id}.wpnonce}}`,
    )
    expect(tool.evidence.signals.some((s) => s.name === 'generated')).toBe(false)

    // The engine reads the nonce of the row the run names, not the recorded one.
    const answer = { status: 200, headers: { 'content-type': 'text/html' }, body: LIST }
    expect(extractValue(answer, page!.extract[0]!, { [`input.${slot}`]: 19 })).toBe('0f9e8d7c6b')
    expect(extractValue(answer, page!.extract[0]!, { [`input.${slot}`]: 18 })).toBe('7a75269aed')
    expect(extractValue(answer, page!.extract[0]!, { [`input.${slot}`]: 99 })).toBeUndefined()
  })

  it('leaves the token alone when no earlier page links to it', () => {
    const tool = compiled(trashTrace(LIST.replace('7a75269aed', 'ffffffffff')))
    expect(tool.steps).toHaveLength(1)
    expect(tool.steps[0]!.request.url).not.toContain('step.')
  })

  it('reads an escaped confirmation token the endpoint was first sent without, and asks none', () => {
    const confirmPage = (token: string) =>
      `<html><title>Delete</title><p>Deleting 'Dave Kim' <a href="/admin.php?action=edit&amp;subaction=delete_principal&amp;id=1016&amp;confirm=${encodeURIComponent(token).replace(/\*/g, '%2A')}">Confirm</a></p></html>`
    const token = '*f710fa67*399d7c9989b8738cbafe2971'
    const tool = compiled(
      traceBuilder('http://127.0.0.1:8080')
        .click('Delete')
        .exchange('GET', '/admin.php?action=edit&subaction=delete_principal&id=1016', {
          mime: 'text/html',
          type: 'document',
          responseText: confirmPage(token),
        })
        .click('Confirm Deletion')
        .exchange(
          'GET',
          `/admin.php?action=edit&subaction=delete_principal&id=1016&confirm=${encodeURIComponent(token)}`,
          { mime: 'text/html', type: 'document', responseText: '<html><title>Done</title></html>' },
        )
        .build('delete the principal 1016'),
    )
    const [page, target] = tool.steps
    expect(target!.request.url).toContain(`confirm={{step.${page!.id}.confirm}}`)
    expect(Object.values(tool.inputs.properties).map((p) => p['x-path'])).not.toContain('confirm')
    const answer = {
      status: 200,
      headers: { 'content-type': 'text/html' },
      body: confirmPage('*0000aaaa*1111'),
    }
    const scope = Object.fromEntries(
      Object.values(tool.inputs.properties).map((p) => [`input.${p['x-slot']}`, p.default]),
    )
    expect(extractValue(answer, page!.extract.at(-1)!, scope)).toBe('*0000aaaa*1111')
  })

  it('writes and reads link paths with bracketed keys, literals and placeholders', () => {
    const path = formatLinkQuery('_token', [
      ['ids[]', '{{input.p1}}'],
      ['do', 'a&b=c'],
    ])
    expect(path).toBe('_token?ids%5B%5D={{input.p1}}&do=a%26b%3Dc')
    const query = parseLinkQuery(path)!
    expect(query).toEqual({
      param: '_token',
      match: [
        { key: 'ids[]', value: { placeholder: 'input.p1' } },
        { key: 'do', value: { literal: 'a&b=c' } },
      ],
    })
    const hrefs = [
      '/x?ids[]=4&do=a%26b%3Dc&_token=one',
      '/x?ids[]=5&ids[]=6&do=a%26b%3Dc&_token=two',
    ]
    expect(linkQueryValue(hrefs, query, { 'input.p1': '6' })).toBe('two')
    // A placeholder the run has no value for matches nothing.
    expect(linkQueryValue(hrefs, query, {})).toBeUndefined()
    expect(parseLinkQuery('no-question-mark')).toBeNull()
  })
})
