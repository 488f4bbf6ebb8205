/**
 * Stage 8: which site a request names. A site is known by the names people use for it (its
 * product name, the title its pages give it: `DokuWiki`, `Team Wiki`, `Node-RED`), which the
 * caller passes in (`SiteNames`); a name matches a token or a run of tokens spelt together
 * without separators and case (`node-red`, `Node RED`, `nodered`), or in the possessive
 * (`Deluge's`).
 */
import type { Token } from './tokens'

/** Site names as the router knows them: lower case, letters and digits only (`teamwiki`). */
export type SiteNames = ReadonlySet<string>

/** The longest run of tokens tried as one name (`Statistics Report for HAProxy` is a title). */
const LONGEST = 3

/** `name` spelt as site names are kept: lower case, letters and digits only. */
export function siteKey(name: string): string {
  return name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/['’]s$/, '')
    .replace(/[^a-z0-9]/g, '')
}

/**
 * The site names said in `tokens` and the tokens that said them (so no later stage reads them as
 * the thing asked). Pure.
 */
export function findSites(
  tokens: readonly Token[],
  names: SiteNames,
): { sites: string[]; tokens: Set<Token> } {
  const sites: string[] = []
  const used = new Set<Token>()
  if (!names.size) return { sites, tokens: used }
  for (let i = 0; i < tokens.length; i++) {
    for (let n = Math.min(LONGEST, tokens.length - i); n >= 1; n--) {
      const run = tokens.slice(i, i + n)
      if (run.some((t) => t.value !== undefined || used.has(t))) continue
      // (`'s` may be a token of its own.)
      const key = siteKey(run.map((t) => t.text).join(''))
      if (key.length < 2 || !names.has(key)) continue
      if (!sites.includes(key)) sites.push(key)
      for (const t of run) used.add(t)
      if (tokens[i + n]?.lower === "'s") used.add(tokens[i + n]!)
      i += n - 1
      break
    }
  }
  return { sites, tokens: used }
}
