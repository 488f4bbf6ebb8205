/**
 * The links of an HTML page as an `anchor` extractor reads them (src/shared/anchorPick.ts), the
 * same at compile time and at run time. A row's form controls count as links too: a checkbox,
 * radio button or hidden field with a name and a value inside a table row or list item (a list's
 * "select this row" box, a per-row delete form's id) is read as a link whose query holds
 * `name=value`, so a row pick's `param` reads what the row's form would send; a box named after
 * its own value (`userids[8]=8`) reads as one of its list (`userids[]=8`).
 */
import * as cheerio from 'cheerio'
import type { PageLink } from './anchorPick'

/** Form controls of a row that carry a value the row's form sends as is. */
const ROW_CONTROLS = 'input[name][value]:is([type=checkbox i], [type=radio i], [type=hidden i])'

/**
 * The page's `<a href>` links in document order, each with its text and the text of its row,
 * then the row controls (see the module comment) as links with no text and the href
 * `?<name>=<value>`. Nothing for a text that holds no HTML element.
 */
export function pageLinks(html: string): PageLink[] {
  const $ = cheerio.load(html)
  const links: PageLink[] = $('a[href]')
    .map((_, a) => ({
      text: $(a).text(),
      href: $(a).attr('href') ?? '',
      row: $(a).closest('tr, li').text(),
    }))
    .get()
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
