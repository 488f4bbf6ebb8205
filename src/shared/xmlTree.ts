import * as cheerio from 'cheerio'
import { isUnsafeKey } from './safeKeys'

/** A node of a parsed document, and an element: cheerio's own types (domhandler's), by inference. */
type AnyNode = ReturnType<ReturnType<cheerio.CheerioAPI['root']>['contents']>[number]
type Element = Extract<AnyNode, { attribs: Record<string, string> }>

/** An XML document read as JSON: what extractor paths (src/shared/jsonPath.ts) walk. */
export type XmlTree = { [name: string]: string | XmlTree[] | string[] }

/**
 * An XML answer (a `text/xml` or `application/*+xml` body) as a JSON tree that tools' JSON paths
 * read, or undefined when `text` holds no element. The mapping, the same at compile time and at
 * run time:
 * - an element with attributes or child elements is a record: its attributes and children are
 *   its keys, and it is always a list under its parent's key (`items[0].item[?title==x].id`), so a
 *   list of one record reads like a list of many;
 * - an element with only text is that text, a string under its name (a list of strings when the
 *   parent has several of that name);
 * - a record's own text beside its children is `#text`; the document element is a one-record list
 *   under its name. Namespace prefixes are kept in names (`d:href`); comments and processing
 *   instructions are skipped; names that would reach an object's prototype are dropped.
 */
export function xmlTree(text: string): XmlTree | undefined {
  let $: cheerio.CheerioAPI
  try {
    $ = cheerio.load(text, { xml: true })
  } catch {
    // A text the XML parser refuses outright has no tree; undefined is this reader's "not XML".
    return undefined
  }
  const root = $.root()
    .children()
    .toArray()
    .find((n): n is Element => n.type === 'tag')
  if (!root) return undefined
  const tree: XmlTree = {}
  add(tree, root)
  return tree
}

function add(parent: XmlTree, node: Element): void {
  if (isUnsafeKey(node.name)) return
  const children = node.children.filter((c): c is Element => c.type === 'tag')
  const attributes = Object.entries(node.attribs ?? {})
  if (!children.length && !attributes.length) {
    const text = textOf(node)
    const existing = parent[node.name]
    if (existing === undefined) parent[node.name] = text
    else if (typeof existing === 'string') parent[node.name] = [existing, text]
    else if (existing.every((x) => typeof x === 'string')) (existing as string[]).push(text)
    return
  }
  const record: XmlTree = {}
  for (const [name, value] of attributes) if (!isUnsafeKey(name)) record[name] = value
  for (const child of children) add(record, child)
  const own = node.children
    .filter((c) => c.type === 'text' || c.type === 'cdata')
    .map((c) => textOf(c))
    .join('')
    .trim()
  if (own && !('#text' in record)) record['#text'] = own
  const existing = parent[node.name]
  if (Array.isArray(existing) && existing.every((x) => typeof x !== 'string'))
    (existing as XmlTree[]).push(record)
  else parent[node.name] = [record]
}

function textOf(node: AnyNode): string {
  if (node.type === 'text') return 'data' in node ? String(node.data) : ''
  // CDATA sections hold their text as a child.
  if ('children' in node) return node.children.map(textOf).join('')
  return ''
}

/** True when a media type is XML (RFC 7303: `text/xml`, `application/xml`, `…+xml`), not HTML. */
export function isXmlMediaType(mime: string): boolean {
  return /^(text|application)\/(xml|[\w.+-]+\+xml)$/.test(mime) && mime !== 'application/xhtml+xml'
}

/** Text escaped for XML element content and attribute values (XML 1.0 §2.4, §3.3.3). */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => XML_ENTITIES[c]!)
}

const XML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
}
