/**
 * Words related to a word by meaning, from WordNet (`wordnet.ts`) and the lemmatizer
 * (`lemma.ts`), as router stems with a strength (how surely a tool that says the related word
 * does what the word asks). Word vectors are not used here: their neighbours depend on the
 * vocabulary of the tools searched, so the tool index (`../toolIndex.ts`) adds them.
 *
 * Strengths (set by hand against the development half of `test/apps/paraphrases.json`; no script
 * fits them):
 * - the word's own stem and its lemmas' stems: 1;
 * - a synonym (a word of one of the word's first {@link SENSES} synsets, WordNet's most frequent
 *   senses): {@link THESAURUS};
 * - a derivationally related form (`+` pointer: `rename` ↔ `renaming`, `directory` ↔ `direct`
 *   is not one): {@link DERIVED}.
 * Hypernyms are not synonyms (`page` is a kind of `leaf`), so they never count as matches; they
 * only help tell a verb's class (`verbClassByMeaning`).
 */
import type { VerbClass } from '../lexicon'
import { stem } from '../text'
import { nounLemma, verbLemma } from './lemma'
import { senseCount, synsetOf, synsetsOf, type Synset, type WordnetPos } from '../../intent/wordnet'

/** How many of a word's senses, most frequent first, count (rarer senses are noise). */
const SENSES = 3
/** Strength of a WordNet synonym. */
const THESAURUS = 0.9
/** Strength of a derivationally related form. */
const DERIVED = 0.9

export interface Related {
  stem: string
  strength: number
  via: 'word' | 'lemma' | 'thesaurus' | 'derived'
}

const memo = new Map<string, Related[]>()
const MEMO_LIMIT = 50_000

/**
 * The stems related to lower-case `word` used as `pos` (a thing an intent names is a noun: `note`
 * is then no `comment`, a sense of the verb), itself first, strongest first, one entry per stem.
 * Memoized per process.
 */
export function relatedStems(word: string, pos: WordnetPos): Related[] {
  const key = `${pos}:${word}`
  const known = memo.get(key)
  if (known) return known
  const out = new Map<string, Related>()
  const add = (w: string, strength: number, via: Related['via']) => {
    if (w.includes('_') || w.length < 2) return
    const s = stem(w)
    const had = out.get(s)
    if (!had || had.strength < strength) out.set(s, { stem: s, strength, via })
  }
  add(word, 1, 'word')
  const lemmas = new Set([pos === 'noun' ? nounLemma(word) : verbLemma(word), word])
  for (const lemma of lemmas) add(lemma, 1, 'lemma')
  for (const lemma of lemmas)
    for (const synset of synsetsOf(lemma, pos).slice(0, SENSES)) {
      for (const w of synset.words) add(w, THESAURUS, 'thesaurus')
      for (const p of synset.pointers)
        // Only the forms derived from this very word (`order` → the verb `order`, not its
        // synonym `place`).
        if (p.symbol === '+' && p.pos && sameSpelling(synset.words[p.source - 1], lemma)) {
          const target = synsetOf(p.offset, p.pos)?.words[p.target - 1]
          if (target) add(target, DERIVED, 'derived')
        }
    }
  const result = [...out.values()].sort((a, b) => b.strength - a.strength)
  if (memo.size >= MEMO_LIMIT) memo.clear()
  memo.set(key, result)
  return result
}

/** One word in British or American spelling (`categorise`, `categorize`). */
function sameSpelling(a: string | undefined, b: string): boolean {
  const american = (w: string) => w.replace(/is(e|ed|es|ing|ation)$/, 'iz$1')
  return a !== undefined && (a === b || american(a) === american(b))
}

/**
 * True when two verbs (lower case, collocations with `_` or spaces) mean the same action: the
 * same lemma, a shared synset among their first {@link SENSES} senses, or one's synset a direct
 * hypernym of the other's (`erase` is a kind of `delete`).
 */
export function sameAction(a: string, b: string): boolean {
  const key = `${a}|${b}`
  let same = sameMemo.get(key)
  if (same === undefined) {
    same = compareActions(a, b)
    if (sameMemo.size >= MEMO_LIMIT) sameMemo.clear()
    sameMemo.set(key, same)
  }
  return same
}

const sameMemo = new Map<string, boolean>()

/**
 * True when two verbs are one action by name: the same lemma, or a synset shared among their
 * first {@link SENSES} senses (`erase` and `delete`, not `mark` and `attach`, whose link is a
 * hypernym). What `sameAction` accepts without its hypernym step.
 */
export function sameSense(a: string, b: string): boolean {
  return remembered(senseMemo, a, b, compareSenses)
}

const senseMemo = new Map<string, boolean>()

/** {@link sameSense}, worked out. */
function compareSenses(a: string, b: string): boolean {
  const la = verbLemma(a)
  const lb = verbLemma(b)
  if (la === lb || stem(la) === stem(lb)) return true
  const ids = new Set(
    synsetsOf(la, 'verb')
      .slice(0, SENSES)
      .map((s) => s.offset),
  )
  return synsetsOf(lb, 'verb')
    .slice(0, SENSES)
    .some((s) => ids.has(s.offset))
}

/**
 * True when verb `a` is one kind of verb `b`'s act: a synset among `a`'s first {@link SENSES}
 * senses has one of `b`'s as its direct hypernym (`erase` is a kind of `delete`; `move` is no
 * kind of `set`, the reverse). Asked of a tool, a kind of its act is its act; a more general act
 * may be another of its kinds (`move issue #4 to another project` is no status change).
 */
export function isKindOf(a: string, b: string): boolean {
  return remembered(kindMemo, a, b, compareKinds)
}

const kindMemo = new Map<string, boolean>()

/**
 * `answer(a, b)`, kept in `memo` (the router asks the same pairs of verbs for every tool it
 * scores; WordNet's answer never changes): dropped whole at {@link MEMO_LIMIT}.
 */
function remembered(
  memo: Map<string, boolean>,
  a: string,
  b: string,
  answer: (a: string, b: string) => boolean,
): boolean {
  const key = `${a}|${b}`
  let known = memo.get(key)
  if (known === undefined) {
    known = answer(a, b)
    if (memo.size >= MEMO_LIMIT) memo.clear()
    memo.set(key, known)
  }
  return known
}

/** {@link isKindOf}, worked out. */
function compareKinds(a: string, b: string): boolean {
  const ids = new Set(
    synsetsOf(verbLemma(b), 'verb')
      .slice(0, SENSES)
      .map((s) => s.offset),
  )
  return synsetsOf(verbLemma(a), 'verb')
    .slice(0, SENSES)
    .some((s) => s.pointers.some((p) => p.symbol === '@' && ids.has(p.offset)))
}

function compareActions(a: string, b: string): boolean {
  if (sameSense(a, b)) return true
  const sa = synsetsOf(verbLemma(a), 'verb').slice(0, SENSES)
  const sb = synsetsOf(verbLemma(b), 'verb').slice(0, SENSES)
  const hyper = (list: Synset[]) =>
    new Set(list.flatMap((s) => s.pointers.filter((p) => p.symbol === '@').map((p) => p.offset)))
  const ha = hyper(sa)
  const hb = hyper(sb)
  return sb.some((s) => ha.has(s.offset)) || sa.some((s) => hb.has(s.offset))
}

/** Table verbs that read only as said to someone (`give me`, `tell me`), never by meaning. */
const SAID_TO_ME: ReadonlySet<string> = new Set(['give', 'tell'])

/**
 * The class of a verb the router's table does not list, by meaning: the class of the first
 * table verb found among the words of its first {@link SENSES} synsets, then of their
 * hypernyms, then of theirs (breadth first, most frequent sense first): `erase` → `delete`,
 * `kick off` → (`inaugurate` → `start`), with the table verb it was found through, how many
 * hypernym steps away (0: a synonym) and the other classes met at that depth (`alternatives`:
 * `put` is `set` and `place`). Null when none is found within two levels.
 */
export function verbClassByMeaning(
  verb: string,
  classOf: (wordStem: string) => VerbClass | null,
): { verbClass: VerbClass; via: string; depth: number; alternatives: VerbClass[] } | null {
  let level: Synset[] = synsetsOf(verbLemma(verb), 'verb').slice(0, SENSES)
  const seen = new Set<number>()
  for (let depth = 0; depth < 3 && level.length; depth++) {
    let first: { verbClass: VerbClass; via: string } | null = null
    const alternatives: VerbClass[] = []
    // Every class met at this depth: `put` is `set` (update) and `place` (create) in one synset,
    // so either act may be meant.
    for (const synset of level)
      for (const w of synset.words) {
        // (`give me`, `tell me` ask to read; what means giving, `pay`, `donate`, asks no read.)
        if (w.includes('_') || SAID_TO_ME.has(w)) continue
        const c = classOf(stem(w))
        if (!c) continue
        if (!first) first = { verbClass: c, via: w }
        else if (c !== first.verbClass && !alternatives.includes(c)) alternatives.push(c)
      }
    if (first) return { ...first, depth, alternatives }
    const next: Synset[] = []
    for (const synset of level) {
      seen.add(synset.offset)
      for (const p of synset.pointers)
        if (p.symbol === '@' && p.pos === 'verb' && !seen.has(p.offset)) {
          const s = synsetOf(p.offset, 'verb')
          if (s) next.push(s)
        }
    }
    level = next
  }
  return null
}

/** True when WordNet knows `words` (joined with `_`) as a verb: a phrasal verb (`kick off`). */
export function isPhrasalVerb(words: string[]): boolean {
  return synsetsOf(words.join('_'), 'verb').length > 0
}

/** True when WordNet knows `word` as `pos` (in any inflection the lemmatizer undoes). */
export function isWord(word: string, pos: WordnetPos): boolean {
  const lemma = pos === 'noun' ? nounLemma(word) : verbLemma(word)
  return synsetsOf(lemma, pos).length > 0
}

/**
 * True when lower-case `word` is, by WordNet's sense counts, mostly a modifier rather than a
 * thing: more adjective and adverb senses than noun senses (`now`, `again`, `quick`, `specific`,
 * `open`, `nightly`). Such a word next to an intent's object (`the [open] tickets`) says how or
 * which, not what. A plural is a noun whatever its stem.
 */
export function isModifier(word: string): boolean {
  if (word.endsWith('s') && nounLemma(word) !== word) return false
  const modifiers = senseCount(word, 'adj') + senseCount(word, 'adv')
  return modifiers > senseCount(nounLemma(word), 'noun')
}

/**
 * True when lower-case `word` is mostly a verb by WordNet's sense counts: no noun sense, or at
 * least three times as many verb senses as noun senses (`know`, `hold`, `export`). After the
 * object's noun (`which packages does the registry [hold]`) such a word is the predicate of a
 * question, not a thing the tool must name. A plural is a noun.
 */
export function isMostlyVerb(word: string): boolean {
  if (word.endsWith('s') && nounLemma(word) !== word) return false
  const nouns = senseCount(nounLemma(word), 'noun')
  const verbs = senseCount(verbLemma(word), 'verb')
  return verbs > 0 && verbs >= 3 * nouns
}

/**
 * True when lower-case `word` has at least as many noun senses as verb senses in WordNet
 * (`issue`, `ticket`, `page`; not `show`, `post`, `search`).
 */
export function isMostlyNoun(word: string): boolean {
  const nouns = senseCount(nounLemma(word), 'noun')
  return nouns > 0 && nouns >= senseCount(verbLemma(word), 'verb')
}
