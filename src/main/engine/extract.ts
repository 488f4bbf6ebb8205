import * as cheerio from 'cheerio'
import { Cookie } from 'tough-cookie'
import type { Extractor } from '../../shared/toolSpec'
import type { SiteResponse } from './outcome'

/**
 * Reads one named value out of a dependency step's answer (DESIGN.md §4 extractors): a JSON leaf
 * by dot path (`a.b[2].c`), a response header, a `Set-Cookie` cookie (RFC 6265 §4.1), an HTML
 * `<meta name|property>`'s content, a named `<input>`'s value, or an inline script's
 * `key: "value"` / `key = "value"`. Returns undefined when the answer no longer carries it.
 */
export function extractValue(response: SiteResponse, extractor: Extractor): string | undefined {
  switch (extractor.from) {
    case 'header':
      return response.headers[extractor.path.toLowerCase()]
    case 'cookie':
      for (const line of response.setCookies ?? []) {
        const cookie = Cookie.parse(line)
        if (cookie?.key === extractor.path) return cookie.value
      }
      return undefined
    case 'json':
      return jsonAt(safeJson(response.body), extractor.path)
    case 'meta': {
      const $ = cheerio.load(response.body)
      const name = cssString(extractor.path)
      return $(`meta[name=${name}], meta[property=${name}]`).first().attr('content')
    }
    case 'input':
      return cheerio
        .load(response.body)(`input[name=${cssString(extractor.path)}]`)
        .first()
        .attr('value')
    case 'script': {
      const key = extractor.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      const match = new RegExp(`["']?${key}["']?\\s*[:=]\\s*["']([^"']*)["']`).exec(response.body)
      return match?.[1]
    }
  }
}

function jsonAt(json: unknown, path: string): string | undefined {
  let value: unknown = json
  for (const part of path.match(/[^.[\]]+|\[\d+\]/g) ?? []) {
    if (value === null || typeof value !== 'object') return undefined
    const key = part.startsWith('[') ? Number(part.slice(1, -1)) : part
    value = (value as Record<string | number, unknown>)[key]
  }
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** A CSS attribute-selector string literal (CSS Syntax §4.3.5): quoted, with `"` and `\` escaped. */
function cssString(text: string): string {
  return `"${text.replace(/["\\]/g, '\\$&')}"`
}
