/**
 * Ids picked by click on a server-rendered page: the person clicked an icon or a button in a table
 * row (Delete This Comment) whose link carries the row's id (`cmd.cgi?cmd_typ=2&com_id=3`), or
 * ticked the row's checkbox (`check[]=7`) and sent the list's form, and the write sends that id.
 * The link's own text names nothing; the row's text holds what the person named (the comment,
 * the customer). The tool reads the page again and takes the id from the link or checkbox of the
 * row that holds the caller's value, as the engine's `anchor` extractor with `row` does (a row's
 * checkbox reads as a link, see src/shared/pageLinks.ts). A row is a table row, a list item, or
 * on a page of cards the record's block of `<div>`s (`pageLinks.ts`), whose cells are its
 * elements.
 */
import { load } from 'cheerio'
import {
  anchorValue,
  foldText as fold,
  linkPart,
  type AnchorPick,
  type PageLink,
} from '../../shared/anchorPick'
import { blockCells, pageLinks, type Loaded } from '../../shared/pageLinks'
import type { Exchange } from '../../shared/trace'
import { mimeTypeOf } from '../../shared/trace'
import type { PersonValue } from './personValues'
import { safeUrl } from '../../shared/safeJson'

/** The base the engine resolves a page's links against (src/main/engine/extract.ts). */
const ENGINE_BASE = 'http://localhost/'

/** Shortest person's value that may name a row (shorter ones are found in too many). */
const MIN_ROW_TEXT = 3

/** A row of an earlier page whose link carries the id and whose text holds a person's value. */
export interface FoundRow {
  exchange: Exchange
  /** The pick with the person's value as its text (the compiler puts the input there). */
  pick: AnchorPick
  person: PersonValue
  /** The query parameter (or `segment N`) of the link that carries the id. */
  part: string
  /** The header of the table column whose cell holds the person's value (`Comment`). */
  column?: string
}

/**
 * The latest earlier HTML page (of `earlier`, latest first) with a link that carries `id` in a
 * query parameter or path segment, where (a) links of other rows carry other values there, so it
 * is the row's id and not a constant of every link, (b) exactly one row carries `id`, and (c) a
 * person's value (strong ones first) is the whole text of one of that row's cells, outside the
 * link's own text, and held by no other row with such a link; checked by reading the page the way
 * a run will (`anchorValue`). Null when none.
 */
export function findRow(id: string, earlier: Exchange[], people: PersonValue[]): FoundRow | null {
  const ordered = [...people.filter((p) => p.strong), ...people.filter((p) => !p.strong)].filter(
    (p) => p.value.trim().length >= MIN_ROW_TEXT,
  )
  if (!ordered.length) return null
  for (const exchange of earlier) {
    const body = exchange.responseBody
    if (
      body?.encoding !== 'utf8' ||
      !mimeTypeOf(exchange.responseHeaders).includes('html') ||
      !body.text.includes(id)
    )
      continue
    const links = pageLinks(body.text)
    const page = load(body.text)
    const cells = new Map([...blockCells(page), ...rowCells(page)])
    for (const pick of picksCarrying(links, id)) {
      const rows = new Map<string, Set<string>>()
      for (const link of links) {
        const value = linkPart(link.href, pick, ENGINE_BASE)
        if (value === undefined || !link.row) continue
        const seen = rows.get(value) ?? new Set<string>()
        seen.add(fold(link.row))
        rows.set(value, seen)
      }
      if (rows.size < 2 || rows.get(id)?.size !== 1) continue
      const own = [...rows.get(id)!][0]!
      for (const person of ordered) {
        const text = fold(person.value)
        const holders = [...rows.values()].flatMap((texts) =>
          [...texts].filter((row) => row.includes(text)),
        )
        if (holders.length !== 1 || holders[0] !== own) continue
        // The value is a field the row shows (a whole cell), not words inside one (`Update` in
        // "Weekly Update", or a title cell that also holds its row's action links).
        if (!cells.get(own)?.has(text)) continue
        const named = { ...pick, text: person.value, row: true as const }
        if (anchorValue(links, named, ENGINE_BASE) !== id) continue
        // A link whose own text is the value is a menu entry (Acknowledge this problem): what
        // it carries picks an operation, not a record the row shows.
        const carrier = links.find(
          (l) => fold(l.row).includes(text) && linkPart(l.href, pick, ENGINE_BASE) === id,
        )
        if (!carrier || fold(carrier.text).includes(text)) continue
        const part = 'param' in pick ? pick.param : `segment ${pick.segment}`
        const column = columnName(body.text, person.value)
        return { exchange, pick: named, person, part, ...(column ? { column } : {}) }
      }
    }
  }
  return null
}

/**
 * The header text of the column of the first table cell that holds `value` (the `<th>` at the
 * same position in the table's first row), or undefined when the table has no such header.
 */
function columnName(html: string, value: string): string | undefined {
  const $ = load(html)
  const wanted = fold(value)
  const cell = $('td')
    .filter((_, td) => fold($(td).text()).includes(wanted) && $(td).find('td').length === 0)
    .first()
  if (!cell.length) return undefined
  const index = cell.parent().children('td, th').index(cell)
  // The header row's cells in order, a `<td>` too (a list's checkbox column heads with one).
  const header = cell.closest('table').find('tr').first().children('th, td').eq(index)
  if (!header.is('th')) return undefined
  const text = header.text().replace(/\s+/g, ' ').trim()
  return text && text.length <= 40 ? text : undefined
}

/**
 * The folded text of each cell of each table row (`<td>`, `<th>`) of the page `$`, and of each list item as one
 * cell, by the row's folded text (as `PageLink.row` holds it).
 */
function rowCells($: Loaded): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>()
  $('tr, li').each((_, row) => {
    const key = fold($(row).text())
    const cells = out.get(key) ?? new Set<string>()
    if (row.tagName === 'li') cells.add(key)
    else
      $(row)
        .children('td, th')
        .each((_, cell) => void cells.add(fold($(cell).text())))
    out.set(key, cells)
  })
  return out
}

/** The parts (query parameters, path segments) of links in a row whose value is `id`. */
function picksCarrying(links: PageLink[], id: string): AnchorPick[] {
  const out = new Map<string, AnchorPick>()
  for (const link of links) {
    if (!link.row) continue
    const url = safeUrl(link.href, ENGINE_BASE)
    if (!url) continue
    url.searchParams.forEach((value, param) => {
      if (value === id) out.set(`param:${param}`, { text: '', param })
    })
    url.pathname
      .split('/')
      .filter(Boolean)
      .forEach((segment, index) => {
        if (safeDecode(segment) === id) out.set(`segment:${index}`, { text: '', segment: index })
      })
  }
  return [...out.values()]
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    // Malformed percent-encoding (a lone `%`): the text stands as written.
    return segment
  }
}
