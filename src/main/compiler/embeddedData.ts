import type { EmbeddedDataSource } from '../../shared/toolSpec'
import { safeJson } from '../../shared/safeJson'
import { ownValue } from '../../shared/safeKeys'

/** One JSON value a server-rendered page embeds, with the selector that finds it again. */
export interface EmbeddedBlock {
  source: EmbeddedDataSource['source']
  selector: string
  json: unknown
}

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi
const ASSIGNMENT =
  /(?:window|self|globalThis)\s*(?:\.\s*([A-Za-z_$][\w$]*)|\[\s*["']([^"'\]]+)["']\s*\])\s*=\s*(?=[[{])/g

/**
 * The JSON a page embeds, in document order: the Next.js
 * `__NEXT_DATA__` script, `application/ld+json` scripts, JSON islands (`<script
 * type="application/json" id=...>`) and `window.__X__ = {...}` assignments whose value is JSON.
 * One linear pass over the scripts; blocks that do not parse are skipped. HTML spec §4.12.1.3:
 * a script's text cannot contain `</script`, so the tag pattern finds each script's end.
 */
export function embeddedBlocks(html: string): EmbeddedBlock[] {
  const blocks: EmbeddedBlock[] = []
  let ldIndex = 0
  let islandIndex = 0
  for (const match of html.matchAll(SCRIPT)) {
    const attrs = attributes(match[1] ?? '')
    const text = match[2] ?? ''
    const type = (attrs.type ?? '').toLowerCase()
    if (attrs.src) continue
    if (attrs.id === '__NEXT_DATA__') {
      push(blocks, 'next_data', 'script#__NEXT_DATA__', text)
    } else if (type === 'application/ld+json') {
      push(blocks, 'ld_json', `script[type="application/ld+json"]:eq(${ldIndex++})`, text)
    } else if (type === 'application/json') {
      const selector = attrs.id
        ? `script#${attrs.id}`
        : attrs['data-target']
          ? `script[data-target="${attrs['data-target']}"]`
          : `script[type="application/json"]:eq(${islandIndex})`
      islandIndex++
      push(blocks, 'json_island', selector, text)
    } else if (!type || /javascript|ecmascript|^module$/.test(type)) {
      for (const assigned of assignments(text))
        blocks.push({
          source: 'script_assignment',
          selector: `window.${assigned.name}`,
          json: assigned.json,
        })
    }
  }
  return blocks
}

/**
 * Reads the value a compiled tool names (`source`, `selector`, `path`) from a page, or undefined
 * when the page no longer embeds it.
 */
export function extractEmbedded(html: string, where: EmbeddedDataSource): unknown {
  const block = embeddedBlocks(html).find(
    (b) => b.source === where.source && b.selector === where.selector,
  )
  return block ? valueAt(block.json, where.path) : undefined
}

/** The value at a dot path (numeric parts index arrays); '' is the value itself. */
export function valueAt(json: unknown, path: string): unknown {
  if (!path) return json
  let node: unknown = json
  for (const part of path.split('.')) node = ownValue(node, part)
  return node
}

function push(
  blocks: EmbeddedBlock[],
  source: EmbeddedBlock['source'],
  selector: string,
  text: string,
) {
  const json = safeJson(decodeEntities(text.trim()))
  if (json !== undefined) blocks.push({ source, selector, json })
}

function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const m of text.matchAll(
    /([A-Za-z_:][-\w:.]*)\s*(?:=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g,
  ))
    out[m[1]!.toLowerCase()] = m[2] ?? m[3] ?? m[4] ?? ''
  return out
}

/** `window.NAME = <JSON literal>` in an inline script: the literal is cut by bracket matching. */
function assignments(script: string): Array<{ name: string; json: unknown }> {
  const out: Array<{ name: string; json: unknown }> = []
  for (const m of script.matchAll(ASSIGNMENT)) {
    const start = m.index + m[0].length
    const end = literalEnd(script, start)
    if (end < 0) continue
    const json = safeJson(script.slice(start, end))
    if (json !== undefined) out.push({ name: m[1] ?? m[2]!, json })
  }
  return out
}

/** Index just past the bracketed literal starting at `start`, honouring strings; -1 if unclosed. */
function literalEnd(text: string, start: number): number {
  let depth = 0
  let quote = ''
  for (let i = start; i < text.length; i++) {
    const c = text[i]!
    if (quote) {
      if (c === '\\') i++
      else if (c === quote) quote = ''
      continue
    }
    if (c === '"' || c === "'") quote = c
    else if (c === '{' || c === '[') depth++
    else if (c === '}' || c === ']') {
      depth--
      if (depth === 0) return i + 1
    }
  }
  return -1
}

/** Some servers escape JSON islands as HTML; the common entities are undone before parsing. */
function decodeEntities(text: string): string {
  if (!text.includes('&') || text.startsWith('{') || text.startsWith('[')) return text
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#0*39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}
