/**
 * The values of an XML request body (WebDAV's MKCOL and PROPPATCH, SOAP, XML-RPC): each element
 * that holds only text is one value, found where it sits in the body text so a tool can put an
 * input there and send the rest as recorded.
 */
import * as cheerio from 'cheerio'
import type { Exchange } from '../../shared/trace'
import { mimeTypeOf } from '../../shared/trace'
import { escapeXml, isXmlMediaType } from '../../shared/xmlTree'

/** One text-only element of an XML body. */
export interface XmlField {
  /**
   * The element names from the document element down, joined by `.` (prefixes kept:
   * `mkcol.set.prop.C:calendar-description`); the n-th (n ≥ 2) element of one path gets `#n`.
   */
  path: string
  /** The element's local name (its prefix dropped): the value's semantic name. */
  key: string
  /** The text, entities and CDATA decoded. */
  value: string
  /** Offsets in the body text of what holds the text (its characters or its CDATA section). */
  start: number
  end: number
}

/** A node of a parsed document, by inference from cheerio's own types (domhandler's). */
type AnyNode = ReturnType<ReturnType<cheerio.CheerioAPI['root']>['contents']>[number]

/** The placeholder prefix the engine renders XML-escaped (src/main/engine/template.ts). */
const XML_PREFIX = 'xml:'

/**
 * True when a request's body is XML: a `text/xml`, `application/xml` or `application/*+xml`
 * type (RFC 7303), or a body that opens with an XML declaration sent as `text/plain` or with no
 * type (a page's `XMLHttpRequest.send(string)` labels it `text/plain;charset=UTF-8`).
 */
export function isXmlRequest(exchange: Exchange): boolean {
  const body = exchange.requestBody
  if (body?.encoding !== 'utf8' || !body.text.trim()) return false
  const type = mimeTypeOf(exchange.requestHeaders)
  if (type && isXmlMediaType(type)) return true
  return (!type || type === 'text/plain') && /^\s*<\?xml\s/.test(body.text)
}

/**
 * The text-only elements of an XML document, in document order (see {@link XmlField}). Elements
 * with child elements, empty ones and attributes give no value: what a person types into a form
 * that a page sends as XML lands in element text. Empty when the text does not parse.
 */
export function xmlFields(text: string): XmlField[] {
  let $: cheerio.CheerioAPI
  try {
    $ = cheerio.load(text, { xml: { withStartIndices: true, withEndIndices: true } })
  } catch {
    // Text the XML parser refuses holds no fields (as documented above).
    return []
  }
  const out: XmlField[] = []
  const seen = new Map<string, number>()
  const visit = (node: AnyNode, parent: string): void => {
    if (node.type !== 'tag') return
    const name = 'name' in node ? String(node.name) : ''
    const base = parent ? `${parent}.${name}` : name
    const n = (seen.get(base) ?? 0) + 1
    seen.set(base, n)
    const path = n === 1 ? base : `${base}#${n}`
    const children = 'children' in node ? (node.children as AnyNode[]) : []
    if (children.some((c) => c.type === 'tag')) {
      for (const child of children) visit(child, path)
      return
    }
    const holder = children.length === 1 ? children[0]! : undefined
    if (!holder || (holder.type !== 'text' && holder.type !== 'cdata')) return
    if (holder.startIndex == null || holder.endIndex == null) return
    const value = textOf(holder)
    if (!value.trim()) return
    const key = name.includes(':') ? name.slice(name.indexOf(':') + 1) : name
    out.push({ path, key, value, start: holder.startIndex, end: holder.endIndex + 1 })
  }
  for (const node of $.root().contents().toArray()) visit(node, '')
  return out
}

/** A text node's decoded data, or a CDATA section's (its text children joined). */
function textOf(node: AnyNode): string {
  if ('data' in node && typeof node.data === 'string') return node.data
  const children = 'children' in node ? (node.children as AnyNode[]) : []
  return children.map(textOf).join('')
}

/**
 * `text` with the element text at each path of `placed` replaced by its placeholder, the
 * placeholder given the `xml:` prefix so the engine escapes what it writes there (XML 1.0 §2.4:
 * `&`, `<`, `>` and quotes as entities). Paths not found leave the text as it was.
 */
export function placeXml(text: string, placed: ReadonlyMap<string, string>): string {
  if (!placed.size) return text
  let out = ''
  let from = 0
  for (const field of xmlFields(text)) {
    const placeholder = placed.get(field.path)
    if (placeholder === undefined) continue
    out += text.slice(from, field.start) + asXmlPlaceholder(placeholder)
    from = field.end
  }
  return out + text.slice(from)
}

/** `{{name}}` as `{{xml:name}}`; other text (a constant) XML-escaped. */
function asXmlPlaceholder(placeholder: string): string {
  const whole = /^\{\{\s*(?:json:|num:|xml:)?([\w.:-]+)\s*\}\}$/.exec(placeholder)
  return whole ? `{{${XML_PREFIX}${whole[1]}}}` : escapeXml(placeholder)
}
