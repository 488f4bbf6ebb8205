import { describe, expect, it } from 'vitest'
import {
  filterList,
  formatPath,
  parsePath,
  pathPlaceholders,
  textAt,
  valueAt,
  valuesAt,
} from '../../../src/shared/jsonPath'

const flows = {
  rev: 'cbfa26dc',
  flows: [
    { id: 'f1', type: 'tab', label: 'Nightly import' },
    { id: 'a1', type: 'inject', name: 'run nightly import', z: 'f1' },
    { id: 'a2', type: 'inject', name: 'Refresh reports cache', z: 'f1' },
    { id: 'n3', type: 'function', name: 'build daily report', z: 'f2', wires: [['a1']] },
  ],
}

describe('parsePath and formatPath', () => {
  it('reads the dot paths stored tools hold, and writes them back the same', () => {
    for (const path of ['rev', 'a.b[2].c', 'flows[6].id', 'items[].id', '[0].title', 'a[1][0]'])
      expect(formatPath(parsePath(path)!)).toBe(path)
    expect(parsePath('flows.1.label')).toEqual([
      { kind: 'key', key: 'flows' },
      { kind: 'key', key: '1' },
      { kind: 'key', key: 'label' },
    ])
  })

  it('reads lookups, quoted keys and quoted values', () => {
    expect(parsePath('flows[?name=={{input.p0}}].id')).toEqual([
      { kind: 'key', key: 'flows' },
      { kind: 'where', field: ['name'], value: { placeholder: 'input.p0' } },
      { kind: 'key', key: 'id' },
    ])
    expect(parsePath('list[?meta.title=="a]b"].id')![1]).toEqual({
      kind: 'where',
      field: ['meta', 'title'],
      value: { literal: 'a]b' },
    })
    expect(parsePath('["a.b"].c')).toEqual([
      { kind: 'key', key: 'a.b' },
      { kind: 'key', key: 'c' },
    ])
    for (const path of [
      'flows[?name=={{input.p0}}].id',
      'x[?k=="a]b"]',
      'x[?k==plain]',
      '["a.b"].c',
    ])
      expect(formatPath(parsePath(path)!)).toBe(path)
    expect(pathPlaceholders('flows[?name=={{input.p0}}].id')).toEqual(['input.p0'])
  })

  it('refuses what is not a path', () => {
    for (const path of ['a[', 'a[?name]', 'a[x]', 'a[?n=={{input.p0]', 'a["open]'])
      expect(parsePath(path)).toBeNull()
  })
})

describe('reading a path', () => {
  it('reads leaves as extractors always did: numbers as text, objects and lists not at all', () => {
    expect(textAt(flows, 'rev')).toBe('cbfa26dc')
    expect(textAt(flows, 'flows[1].id')).toBe('a1')
    expect(textAt(flows, 'flows.1.id')).toBe('a1')
    expect(textAt(flows, 'flows[3].wires[0][0]')).toBe('a1')
    expect(textAt({ n: 4.5 }, 'n')).toBe('4.5')
    expect(textAt(flows, 'flows[1]')).toBeUndefined()
    expect(textAt(flows, 'flows[9].id')).toBeUndefined()
    expect(textAt(flows, 'nothing.here')).toBeUndefined()
    expect(textAt('a bare string', '')).toBe('a bare string')
  })

  it('looks an item up by a field equal to the run input, never by position', () => {
    const scope = { 'input.p0': 'Refresh reports cache' }
    expect(textAt(flows, 'flows[?name=={{input.p0}}].id', scope)).toBe('a2')
    expect(textAt(flows, 'flows[?name==build daily report].z')).toBe('f2')
  })

  it('prefers an exact match, then one equal ignoring case and spaces', () => {
    const list = {
      items: [
        { id: 1, name: 'Run  Nightly Import' },
        { id: 2, name: 'run nightly import' },
      ],
    }
    expect(
      textAt(list, 'items[?name=={{input.p0}}].id', { 'input.p0': 'run nightly import' }),
    ).toBe('2')
    expect(
      textAt(list, 'items[?name=={{input.p0}}].id', { 'input.p0': ' RUN nightly IMPORT ' }),
    ).toBe('1')
  })

  it('finds nothing when no item has the name or the input is missing', () => {
    expect(textAt(flows, 'flows[?name=={{input.p0}}].id', { 'input.p0': 'nope' })).toBeUndefined()
    expect(textAt(flows, 'flows[?name=={{input.p0}}].id', {})).toBeUndefined()
    expect(textAt(flows, 'rev[?name==x].id')).toBeUndefined()
  })

  it('keeps a name with brackets and dots one value (resolved, never spliced into the path)', () => {
    const list = [{ id: 'x7', title: 'v1.2 [draft]' }]
    expect(textAt(list, '[?title=={{input.p0}}].id', { 'input.p0': 'v1.2 [draft]' })).toBe('x7')
  })

  it('expands [] to every item', () => {
    expect(valuesAt(flows, 'flows[].id')).toEqual(['f1', 'a1', 'a2', 'n3'])
    expect(valueAt(flows, 'flows[].name')).toBe('run nightly import')
  })
})

describe('filterList', () => {
  it('keeps the items whose fields contain the term, any case, and leaves the rest of the answer', () => {
    const out = filterList(flows, 'flows', ['name'], 'REPORT') as typeof flows
    expect(out.rev).toBe('cbfa26dc')
    expect(out.flows.map((n) => n.id)).toEqual(['a2', 'n3'])
    expect(flows.flows).toHaveLength(4)
  })

  it('filters an answer that is the list, over several fields', () => {
    const tiddlers = [
      { title: 'Recipe Pancakes', tags: 'food' },
      { title: 'Garden Notes', tags: 'recipe ideas' },
      { title: 'Travel Plans', tags: 'Work' },
    ]
    expect(filterList(tiddlers, '', ['title', 'tags'], 'recipe')).toEqual(tiddlers.slice(0, 2))
  })

  it('keeps every item for an empty term, and the answer as it is where no list is', () => {
    expect(filterList(flows, 'flows', ['name'], '  ')).toBe(flows)
    expect(filterList(flows, 'rev', ['name'], 'x')).toBe(flows)
    expect(filterList(flows, 'missing', ['name'], 'x')).toBe(flows)
  })
})

describe('maps of records (issue 24 kind 3)', () => {
  const answer = {
    result: {
      torrents: {
        aa11: { name: 'ubuntu.iso', state: 'Seeding' },
        bb22: { name: 'debian.iso', state: 'Paused' },
      },
    },
  }

  it('looks a record up in an object of records and reads the key it sits under with ~', () => {
    expect(
      textAt(answer, 'result.torrents[?name=={{input.p0}}]~', { 'input.p0': 'debian.iso' }),
    ).toBe('bb22')
    expect(valueAt(answer, 'result.torrents[?name==ubuntu.iso].state')).toBe('Seeding')
    expect(textAt(answer, 'result.torrents["aa11"]~')).toBe('aa11')
    expect(textAt(answer, 'result.torrents[?name==nope]~')).toBeUndefined()
  })

  it('writes ~ back as it reads it', () => {
    const path = 'result.torrents[?name=={{input.p0}}]~'
    expect(formatPath(parsePath(path)!)).toBe(path)
    expect(formatPath([{ kind: 'key', key: 'a~b' }])).toBe('["a~b"]')
  })
})
