/**
 * The links of an HTML page as an `anchor` extractor reads them (src/shared/anchorPick.ts), the
 * same at compile time and at run time. A row's form controls count as links too: a checkbox,
 * radio button or hidden field with a name and a value inside a table row or list item (a list's
 * "select this row" box, a per-row delete form's id) is read as a link whose query holds
 * `name=value`, so a row pick's `param` reads what the row's form would send; a box named after
 * its own value (`userids[8]=8`) reads as one of its list (`userids[]=8`).
 *
 * A link's row is its table row or list item; on a page that lists records as blocks of `<div>`s
 * (a card per bookmark, each with its own Delete icon), it is the largest block around the link
 * that holds no other link that looks the same (text, title, `aria-label`) and goes elsewhere:
 * the record's block, whatever its tags.
 */
import * as cheerio from 'cheerio'
import { foldText, type PageLink } from './anchorPick'

/** Form controls of a row that carry a value the row's form sends as is. */
const ROW_CONTROLS = 'input[name][value]:is([type=checkbox i], [type=radio i], [type=hidden i])'

/**
 * The page's `<a href>` links in document order, each with its text and the text of its row,
 * then the row controls (see the module comment) as links with no text and the href
 * `?<name>=<value>`. Nothing for a text that holds no HTML element.
 */
export function pageLinks(html: string): PageLink[] {
  const $ = cheerio.load(html)
  const anchors = $('a[href]').get()
  const blocks = recordBlocks($, anchors)
  const links: PageLink[] = anchors.map((a, i) => {
    const row = $(a).closest('tr, li')
    return {
      text: $(a).text(),
      href: $(a).attr('href') ?? '',
      row: row.length ? row.text() : (blocks[i]?.text() ?? ''),
    }
  })
  $(ROW_CONTROLS).each((_, input) => {
    const row = $(input).closest('tr, li')
    if (!row.length) return
    const value = $(input).attr('value')!
    const name = listName($(input).attr('name')!, value)
    links.push({ text: '', href: `?${new URLSearchParams({ [name]: value })}`, row: row.text() })
  })
  return links
}

/**
 * A row control's name as the name of the list it belongs to: a box named after its own value
 * (`userids[8]` holding 8, as Zabbix names them) is one of the list `userids[]`, so every row's
 * box is read under one name and the row's value is what tells them apart.
 */
function listName(name: string, value: string): string {
  const own = /^(.+)\[([^\]]+)\]$/.exec(name)
  return own && own[2] === value ? `${own[1]}[]` : name
}

/** A page as cheerio loads it. */
export type Loaded = ReturnType<typeof cheerio.load>
type Node = ReturnType<Loaded>[number]

/** What a link looks like to a person: its text, title and `aria-label` (an icon has only these). */
function lookOf($: Loaded, a: Node): string {
  const el = $(a)
  return [el.text(), el.attr('title') ?? '', el.attr('aria-label') ?? ''].map(foldText).join('|')
}

/**
 * For each of `anchors` (page order), its record block, or null: the largest element around it
 * that holds no other anchor of the same look with another href, found as the child, on the
 * anchor's way up, of its deepest common ancestor with such an anchor. In document order the
 * deepest common ancestor with a set is shared with the set's nearest member before or after, so
 * only those two are compared. Null when the anchor's look is the page's only one (nothing tells
 * records apart) or the block would be the page's `<body>` or `<html>`. O(anchors × depth).
 */
function recordBlocks($: Loaded, anchors: Node[]): Array<ReturnType<Loaded> | null> {
  const paths = anchors.map((a) => [a, ...$(a).parents().get()].reverse())
  const hrefs = anchors.map((a) => $(a).attr('href') ?? '')
  const byLook = new Map<string, number[]>()
  anchors.forEach((a, i) => {
    const look = lookOf($, a)
    const same = byLook.get(look)
    if (same) same.push(i)
    else byLook.set(look, [i])
  })
  const shared = (i: number, j: number) => {
    const [mine, theirs] = [paths[i]!, paths[j]!]
    let d = 0
    while (d < mine.length && d < theirs.length && mine[d] === theirs[d]) d++
    return d - 1
  }
  const deepest = new Array<number>(anchors.length).fill(-1)
  for (const group of byLook.values()) {
    // The nearest member with another href on each side: the last one before the current run of
    // equal hrefs, and the first one after it.
    let before = -1
    group.forEach((i, k) => {
      if (k > 0 && hrefs[group[k - 1]!] !== hrefs[i]) before = group[k - 1]!
      if (before >= 0) deepest[i] = Math.max(deepest[i]!, shared(i, before))
    })
    let after = -1
    for (let k = group.length - 1; k >= 0; k--) {
      const i = group[k]!
      if (k < group.length - 1 && hrefs[group[k + 1]!] !== hrefs[i]) after = group[k + 1]!
      if (after >= 0) deepest[i] = Math.max(deepest[i]!, shared(i, after))
    }
  }
  return anchors.map((_, i) => {
    const mine = paths[i]!
    const at = deepest[i]!
    if (at < 0 || at + 1 >= mine.length - 1) return null
    const block = mine[at + 1]!
    return /^(body|html)$/i.test((block as { tagName?: string }).tagName ?? '') ? null : $(block)
  })
}

/**
 * The cells of each record block of the page `$` (a cheerio document; see {@link pageLinks}) that
 * is no table row or list item, by the block's text folded (`foldText`): the folded texts of the
 * block's elements, each one a field the block shows (a title, a date).
 */
export function blockCells($: Loaded): Map<string, Set<string>> {
  const anchors = $('a[href]').get()
  const blocks = recordBlocks($, anchors)
  const out = new Map<string, Set<string>>()
  anchors.forEach((a, i) => {
    const block = blocks[i]
    if (!block || $(a).closest('tr, li').length) return
    const key = foldText(block.text())
    if (out.has(key)) return
    const cells = new Set<string>()
    block.find('*').each((_, el) => void cells.add(foldText($(el).text())))
    out.set(key, cells)
  })
  return out
}
