import { describe, expect, it } from 'vitest'
import {
  answerKey,
  asRecorded,
  renderOrRefuse,
  renderRequest,
  BaseUnavailable,
} from '../../../src/main/engine/template'
import type { RequestTemplate } from '../../../src/shared/toolSpec'

/** A whole-record PUT based on the read step's answer: new text, one more tag. */
const put: RequestTemplate = {
  method: 'PUT',
  url: 'http://wiki.example/tiddlers/{{input.p0}}',
  headers: { 'x-requested-with': 'TiddlyWiki' },
  body: {
    kind: 'json',
    template: { title: 'Project Roadmap', text: '{{input.p1}}', tags: ['Work', '{{input.p2}}'] },
    base: {
      step: 'read',
      path: '',
      changes: [
        { path: 'text', op: 'set', value: '{{input.p1}}' },
        { path: 'tags', op: 'append', value: '{{input.p2}}', split: 'title_list' },
      ],
    },
  },
}

const travel = {
  title: 'Travel Plans',
  text: 'Lisbon in May.',
  tags: 'Personal [[Summer 2026]]',
  created: '20260101090000000',
  revision: 4,
}

describe('a JSON body based on a step answer', () => {
  it('sends the answer read at run time with the changes, every other field as read', () => {
    const rendered = renderRequest(put, {
      'input.p0': 'Travel Plans',
      'input.p1': 'Lisbon in June only.',
      'input.p2': 'Favourite',
      [answerKey('read')]: JSON.stringify(travel),
    })
    expect(rendered.url).toBe('http://wiki.example/tiddlers/Travel%20Plans')
    expect(JSON.parse(rendered.body!)).toEqual({
      ...travel,
      text: 'Lisbon in June only.',
      tags: ['Personal', 'Summer 2026', 'Favourite'],
    })
  })

  it('keeps the read value of a field whose optional input was left out', () => {
    const rendered = renderRequest(put, {
      'input.p0': 'Travel Plans',
      'input.p2': 'Favourite',
      [answerKey('read')]: JSON.stringify(travel),
    })
    expect(JSON.parse(rendered.body!).text).toBe('Lisbon in May.')
  })

  it('refuses to render without a JSON answer to start from: nothing is sent', () => {
    expect(() => renderRequest(put, { 'input.p0': 'x' })).toThrow(BaseUnavailable)
    expect(renderOrRefuse(put, { 'input.p0': 'x', [answerKey('read')]: '<html>' })).toMatchObject({
      ok: false,
      code: 'schema_or_auth_drift',
    })
  })

  it('fails not_found when a change names an item the answer does not hold', () => {
    const deploy: RequestTemplate = {
      method: 'POST',
      url: 'http://flows.example/flows',
      headers: {},
      body: {
        kind: 'json',
        template: {},
        base: {
          step: 'd1',
          path: '',
          changes: [{ path: 'flows[?label=={{input.p0}}].disabled', op: 'set', value: true }],
        },
      },
    }
    const answer = JSON.stringify({ rev: 'r9', flows: [{ id: 't1', label: 'Alerts' }] })
    const refused = renderOrRefuse(deploy, { 'input.p0': 'Cleanup', [answerKey('d1')]: answer })
    expect(refused).toMatchObject({ ok: false, code: 'not_found' })
    const sent = renderOrRefuse(deploy, { 'input.p0': 'Alerts', [answerKey('d1')]: answer })
    expect('ok' in sent ? null : JSON.parse(sent.body!)).toEqual({
      rev: 'r9',
      flows: [{ id: 't1', label: 'Alerts', disabled: true }],
    })
  })

  it('previews its recorded form before any read (the approval)', () => {
    const rendered = renderRequest(asRecorded(put), {
      'input.p0': 'Travel Plans',
      'input.p1': 'New text',
      'input.p2': 'Favourite',
    })
    expect(JSON.parse(rendered.body!)).toEqual({
      title: 'Project Roadmap',
      text: 'New text',
      tags: ['Work', 'Favourite'],
    })
  })
})
