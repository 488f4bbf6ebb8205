/**
 * Names of apps, services and products, from the npm package `simple-icons` (its `icons.json`:
 * about 3,500 brands with their titles and other names, CC0). The router asks it whether a
 * capitalised name where an app stands (`in Google Drive`, `my Notion page`) is a product when
 * the name is an English word too (`Box`, `Medium`, `Ghost`, `Notion`), which the rule of
 * `otherApps.ts` (a name English lacks) cannot tell from a record's name.
 */
import { createRequire } from 'node:module'

interface Brand {
  title: string
  aliases?: { aka?: string[]; dup?: { title: string }[]; loc?: Record<string, string> }
}

/**
 * Products `simple-icons` no longer lists (removed at their owners' request) whose names are
 * English words, so no other rule tells them from a record's name.
 */
const UNLISTED = [
  'bear',
  'slack',
  'outlook',
  'teams',
  'microsoft teams',
  'excel',
  'microsoft excel',
]

let names: Set<string> | null | undefined

/** A product name as compared: lower case, words split on spaces, dots and dashes kept. */
function normal(name: string): string {
  return name.toLowerCase().replace(/\s+/g, ' ').trim()
}

/** The lower-case names of the package, or null when it is not installed. */
function load(): Set<string> | null {
  try {
    const require = createRequire(import.meta.url)
    const brands = require('simple-icons/icons.json') as Brand[]
    const all = new Set<string>(UNLISTED)
    for (const brand of brands) {
      all.add(normal(brand.title))
      for (const aka of brand.aliases?.aka ?? []) all.add(normal(aka))
      for (const dup of brand.aliases?.dup ?? []) all.add(normal(dup.title))
      for (const loc of Object.values(brand.aliases?.loc ?? {})) all.add(normal(loc))
    }
    for (const short of shortNames(all)) all.add(short)
    return all
  } catch {
    // simple-icons missing or unreadable: no product names are known.
    return null
  }
}

/**
 * The names people give a vendor's products without the vendor (`Colab` of `Google Colab`,
 * `Keep` of `Google Keep`): the last word of a two-word name whose first word is a product that
 * names five or more (a family: Google, Apple, YouTube, Apache).
 */
function shortNames(all: Set<string>): string[] {
  const family = new Map<string, string[]>()
  for (const name of all) {
    const words = name.split(' ')
    if (words.length !== 2) continue
    const members = family.get(words[0]!) ?? []
    family.set(words[0]!, [...members, words[1]!])
  }
  return [...family].flatMap(([vendor, members]) =>
    members.length >= 5 && all.has(vendor) ? members : [],
  )
}

/**
 * True when `name` (any case; words separated by spaces: `Google Drive`, or a plural name in
 * the singular: `Google Doc`) is the name of a product or service `simple-icons` lists, or of
 * one it no longer lists. False when the package is missing.
 */
export function isProductName(name: string): boolean {
  if (names === undefined) names = load()
  if (!names) return false
  // (`the Google Doc X`: a product named in the singular, `Google Docs`.)
  const said = normal(name)
  return names.has(said) || (said.includes(' ') && names.has(`${said}s`))
}
