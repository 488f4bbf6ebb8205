import { describe, expect, it } from 'vitest'
import {
  anchorValue,
  formatAnchorPick,
  parseAnchorPick,
  type PageLink,
} from '../../../src/shared/anchorPick'

/** A report: each row a short id link and the title in a cell beside it. */
const links: PageLink[] = [
  { text: 'Home', href: '/home', row: '' },
  {
    text: 'dbc0779411',
    href: '/tktview/dbc0779411',
    row: 'dbc0779411 Export to CSV drops the header row Open',
  },
  {
    text: '2b8eaffb66',
    href: '/tktview/2b8eaffb66',
    row: '2b8eaffb66 Crash when the list is empty Open',
  },
  { text: 'Edit', href: '/tktedit?name=2b8eaffb66', row: '' },
]

describe('anchor picks (issue 24 kind 3: ids picked in server-rendered lists)', () => {
  it('reads a path segment of the link with the text the scope names', () => {
    const pick = { text: '{{input.p0}}', segment: 1 }
    expect(anchorValue(links, pick, 'http://x/', { 'input.p0': '2B8EAFFB66' })).toBe('2b8eaffb66')
  })

  it('finds a row by the title shown beside the link, and reads a query parameter', () => {
    const pick = { text: '{{input.p0}}', segment: 1, row: true }
    expect(
      anchorValue(links, pick, 'http://x/', { 'input.p0': 'crash when the list is empty' }),
    ).toBe('2b8eaffb66')
    expect(anchorValue(links, { text: 'Edit', param: 'name' }, 'http://x/')).toBe('2b8eaffb66')
    expect(
      anchorValue(links, { text: 'nothing', segment: 1, row: true }, 'http://x/'),
    ).toBeUndefined()
  })

  it('writes and reads its path back, and refuses what is not one', () => {
    const pick = { text: 'a', param: 'name', row: true }
    expect(parseAnchorPick(formatAnchorPick(pick))).toEqual(pick)
    expect(parseAnchorPick('not json')).toBeNull()
    expect(parseAnchorPick('{"text":1,"segment":1}')).toBeNull()
  })
})
