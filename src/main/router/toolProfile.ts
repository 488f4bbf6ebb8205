import type { ToolSpec } from '../../shared/toolSpec'
import { METHOD_WORDS, READ_CLASSES, verbClassOf, type VerbClass } from './lexicon'
import { parseIntent } from './parseIntent'
import { GENERIC_STEMS, HOST_NOISE, isPlural, STOP_WORDS, stem, words } from './text'

/** Where a tool word came from; each field is evidence of a different strength. */
export type TermField = 'intent' | 'name' | 'site' | 'path' | 'slot' | 'output'

/**
 * How much a word found in each field says that the tool is about that word (1 = the tool's own
 * intent says it). Slot names and URL path words are the site's vocabulary, a little weaker;
 * output field names weaker still (a tool that returns `jobs` is probably about jobs).
 */
export const FIELD_STRENGTH: Record<TermField, number> = {
  intent: 1,
  name: 1,
  site: 1,
  path: 0.9,
  slot: 0.9,
  output: 0.8,
}

export interface ToolTerm {
  stem: string
  field: TermField
  strength: number
}

/** A tool as the router sees it: its words by stem, its verb, its slots, its head noun. */
export interface ToolProfile {
  tool: ToolSpec
  terms: Map<string, ToolTerm>
  /** Labels of the site's host that name it (`hireboard` of `jobs.hireboard.example`). */
  siteLabels: string[]
  verb: VerbClass
  /** Stems of the slot names, for `by <role>` qualifiers. */
  slotStems: Set<string>
  /** The tool takes free text (a string slot without fixed options): it can absorb values. */
  hasTextSlot: boolean
  slotCount: number
  /** What the tool works on: the last specific word of its intent's object, or null. */
  head: string | null
  /** The tool's intent names one item (`track an order`), not many (`list my orders`). */
  headSingular: boolean
  /** Stems of the content words of the tool's intent (ranking ties prefer the closest intent). */
  intentStems: Set<string>
}

/**
 * Builds the router's view of a tool from its intent, name, site, description (the URL path
 * after " — "), slot names and output fields. Pure; cache it by `id@updatedAt`.
 */
export function profileTool(tool: ToolSpec): ToolProfile {
  const terms = new Map<string, ToolTerm>()
  const add = (texts: string[], field: TermField) => {
    for (const w of texts) {
      if (STOP_WORDS.has(w)) continue
      const s = stem(w)
      const strength = FIELD_STRENGTH[field]
      const known = terms.get(s)
      if (!known || known.strength < strength) terms.set(s, { stem: s, field, strength })
    }
  }
  const [sitePart = '', objectPart = ''] = tool.name.includes('__')
    ? tool.name.split('__', 2)
    : ['', tool.name]
  const nameWords = words(objectPart)
  if (nameWords.length > 1 && METHOD_WORDS.has(nameWords[0]!)) nameWords.shift()
  const hostname = tool.siteHost.replace(/:\d+$/, '')
  const siteLabels = [
    ...new Set(
      [...hostname.split('.'), sitePart]
        .map((l) => l.toLowerCase())
        .filter((l) => l && !HOST_NOISE.has(l) && !/^\d+$/.test(l)),
    ),
  ]
  const path = tool.description.split(' — ')[1] ?? ''
  const slotNames = Object.keys(tool.inputs.properties ?? {})
  const slotWords = slotNames.flatMap(words)
  add(words(tool.intent), 'intent')
  add(nameWords, 'name')
  add(siteLabels.flatMap(words), 'site')
  add(
    words(path).filter((w) => !METHOD_WORDS.has(w) && !/^(api|v\d+|\d+)$/.test(w)),
    'path',
  )
  add(slotWords, 'slot')
  add(Object.keys(tool.output?.properties ?? {}).flatMap(words), 'output')
  const parsed = parseIntent(tool.intent)
  const specific = parsed.core.filter((w) => !w.generic && !w.literal)
  const nameHead = nameWords.map(stem).filter((s) => !GENERIC_STEMS.has(s) && !verbClassOf(s))
  return {
    tool,
    terms,
    siteLabels,
    verb: toolVerb(tool, parsed.verb?.verbClass ?? null, nameWords),
    slotStems: new Set(slotWords.map(stem)),
    hasTextSlot: Object.values(tool.inputs.properties ?? {}).some(
      (s) => s.type === 'string' && !Array.isArray(s.enum),
    ),
    slotCount: slotNames.length,
    head: specific.at(-1)?.stem ?? nameHead.at(-1) ?? null,
    headSingular: specific.length > 0 && !isPlural(specific.at(-1)!.word),
    intentStems: new Set(
      words(tool.intent)
        .filter((w) => !STOP_WORDS.has(w))
        .map(stem),
    ),
  }
}

/**
 * The tool's verb class: its intent's verb, else its name's (`create_note`, `track_order`), kept
 * consistent with `mutating` (the compiler's verdict wins: a tool that writes is never a read, and
 * one that does not write is never a write).
 */
function toolVerb(tool: ToolSpec, fromIntent: VerbClass | null, nameWords: string[]): VerbClass {
  const fromName = nameWords.length ? verbClassOf(stem(nameWords[0]!)) : null
  const said = fromIntent ?? fromName
  const reads = (c: VerbClass | null) => c !== null && READ_CLASSES.includes(c)
  if (tool.mutating) return said && !reads(said) ? said : 'write'
  return reads(said) ? said! : 'read'
}
