/**
 * Issue 24 kind 8 one level up (src/main/compiler/groupedLists.ts): a feed picked in a tree whose
 * feeds are listed per category is looked up in every category, not only the recorded one.
 */
import { describe, expect, it } from 'vitest'
import { everyGroup } from '../../../src/main/compiler/groupedLists'
import { formatPath, parsePath, textAt, wherePart } from '../../../src/shared/jsonPath'

const TREE = {
  items: [
    { name: 'Special', items: [{ name: 'Starred articles', bare_id: -1 }] },
    {
      name: 'News',
      items: [
        { name: 'Film Club', bare_id: 3 },
        { name: 'Podcast Picks', bare_id: 4 },
      ],
    },
    { name: 'Sport', items: [{ name: 'Running Log', bare_id: 7 }] },
    { name: 'Uncategorized', bare_id: 0 },
  ],
}

const lookup = (prefix: string, field: string, value: string) =>
  formatPath([
    ...everyGroup(TREE, parsePath(prefix)!, field, value),
    wherePart([field], 'input.p0'),
    { kind: 'key', key: 'bare_id' },
  ])

describe('a list nested in a list of groups', () => {
  it('is searched in every group when the name is held once across them', () => {
    const path = lookup('items[1].items', 'name', 'Film Club')
    expect(path).toBe('items[].items[?name=={{input.p0}}].bare_id')
    expect(textAt(TREE, path, { 'input.p0': 'Running Log' })).toBe('7')
    expect(textAt(TREE, path, { 'input.p0': 'Podcast Picks' })).toBe('4')
  })

  it('keeps the position when another group holds the same name', () => {
    const twice = structuredClone(TREE)
    twice.items[2]!.items!.push({ name: 'Film Club', bare_id: 9 })
    const path = formatPath(everyGroup(twice, parsePath('items[1].items')!, 'name', 'Film Club'))
    expect(path).toBe('items[1].items')
  })
})
