/**
 * The router's memory of the tools it searches: one profile per tool version, an inverted index
 * from word stems to the tools that use them (so a search scores only the tools that share a word
 * with the intent, by meaning, not every tool), and the expansion of an intent's words by meaning.
 *
 * Profiles are kept per tool id (not per id and version, which grew one entry per edit and, capped
 * at 5,000, thrashed at 10,000 tools: every search re-profiled every tool). A tool rewritten
 * replaces its entry; a tool no longer passed in is dropped at the next sweep.
 *
 * Expansion: an intent word reaches a tool's stem through its own
 * stem and lemmas (1), the router's noun synonyms (0.95), WordNet synonyms and derived forms
 * (`meaning/related.ts`, 0.9), and word vectors (`meaning/vectors.ts`): a tool word whose cosine
 * similarity with the intent word is at least {@link VECTOR_FLOOR} counts
 * `VECTOR_MAX · (cos − floor) / (full − floor)`, at most {@link VECTOR_MAX}.
 */
import type { ToolSpec } from '../../shared/toolSpec'
import { nounSynonyms, READ_CLASSES } from './lexicon'
import { nounLemma, verbLemma } from './meaning/lemma'
import { isWord, relatedStems } from './meaning/related'
import { hasVector, similarity } from './meaning/vectors'
import type { IntentWord } from './parseIntent'
import { stem } from './text'
import {
  DATA_FIELDS,
  headStrength,
  MIN_HEAD_STRENGTH,
  type Expanded,
  type Expansion,
} from './expansion'
import { profileTool, type TermField, type ToolProfile } from './toolProfile'

/** Fields that say where a tool works or what it was recorded with, not what it does. */
const WHERE_FIELDS = new Set<TermField>(['site', 'title', 'value', 'named'])

/**
 * Cosine below which two words are unrelated. Set by hand against the development paraphrases
 * (no script fits it).
 */
const VECTOR_FLOOR = 0.6
/** Cosine at which a word counts {@link VECTOR_MAX}. */
const VECTOR_FULL = 0.8
/**
 * The most a word found through vectors counts: below what a head needs to score 0.9
 * (`MIN_HEAD_STRENGTH`, 0.714), so a vector likeness never makes a match on its own (cosine
 * cannot tell folder/directory, 0.51, from folder/file, 0.54).
 */
const VECTOR_MAX = 0.7
/** Strength of one of the router's hand-kept noun synonyms (`lexicon.ts`). */
const NOUN_SYNONYM = 0.95

export type { Expanded }

export interface IndexEntry {
  tool: ToolSpec
  profile: ToolProfile
  /** The sync in which the tool was last passed in. */
  generation: number
  /** Where that sync had it first (its place in the list passed in). */
  position: number
}

interface VectorMemo {
  upTo: number
  hits: Map<string, number>
}

/** Profiles, postings and expansions of one router; see the file comment. */
export class ToolIndex {
  private readonly entries = new Map<string, IndexEntry>()
  private readonly postings = new Map<string, Set<IndexEntry>>()
  /** The postings of words strong enough to be a tool's head (not output fields, slot names). */
  private readonly headPostings = new Map<string, Set<IndexEntry>>()
  private readonly labels = new Map<string, Set<IndexEntry>>()
  /** Per word of where tools work (`ToolProfile.siteVocabulary`), the sites whose tools say it. */
  private readonly hostsSaying = new Map<string, Set<string>>()
  /** Per thing the tools work on (`ToolProfile.siteObjects`), the sites whose tools hold it. */
  private readonly hostsHolding = new Map<string, Set<string>>()
  /** Per site, the names it gives itself on the pages of any of its tools. */
  private readonly hostNames = new Map<string, Set<string>>()
  /** Per site, its tools. */
  private readonly byHost = new Map<string, Set<IndexEntry>>()
  /**
   * Per site, its tools that search the whole site (`ToolProfile.searchesSite`) or run what it
   * holds (a `run` tool: `run the nightly [flow]` of an inject node's trigger): a head that is
   * a thing of the site finds them (`score.ts`, site objects).
   */
  private readonly siteWide = new Map<string, Set<IndexEntry>>()
  /**
   * The first word said of each stem held, when it has a vector (in the order tools said them),
   * and its stem: the words `vectorNeighbours` compares an intent word with.
   */
  private readonly vocabStems: string[] = []
  private readonly vocabWords: string[] = []
  private readonly vocab = new Set<string>()
  /** Stems tools say of what they do, not only of where (no site, page-title or example word). */
  private readonly workVocab = new Set<string>()
  private readonly vectorMemo = new Map<string, VectorMemo>()
  private generation = 0
  private readonly siteVocabularies = new Map<string, Set<string>>()
  private lastSync: { tools: ToolSpec[]; entries: IndexEntry[] } | null = null
  private labelVersion = 0
  /** Changes whenever a profile is posted or unposted (`version`). */
  private changes = 0
  private labelMemoVersion = -1
  private readonly labelMemo = new Map<string, string[]>()

  /**
   * Makes the index hold exactly `tools` (profiling new or changed ones) and returns their
   * entries in the same order. O(n) map lookups when nothing changed.
   */
  sync(tools: readonly ToolSpec[]): IndexEntry[] {
    // The same tools in the same order as last time (the API's tool cache keeps its objects):
    // nothing to look up.
    const last = this.lastSync
    if (last && sameTools(last.tools, tools)) return last.entries
    const generation = ++this.generation
    this.poolNames(tools)
    const out = tools.map((tool, i) => this.hold(tool, generation, i))
    // Tools no longer passed in: dropped once they are a fifth of what is held.
    if (this.entries.size > out.length * 1.25 + 16)
      for (const entry of [...this.entries.values()])
        if (entry.generation !== generation) {
          this.unpost(entry)
          this.entries.delete(entry.tool.id)
        }
    this.lastSync = { tools: [...tools], entries: out }
    return out
  }

  /**
   * Profiles `tools` one at a time ahead of a {@link sync} of them (a build at start that leaves
   * the event loop free between steps: `router.ts` `build`), yielding after each tool; the sync
   * that follows then only looks them up. Holds what a sync would hold, so a search answers the
   * same either way; a search that syncs in between is no harm (what it profiled is kept).
   */
  *building(tools: readonly ToolSpec[]): Generator<void> {
    this.poolNames(tools)
    for (const tool of tools) {
      // (A tool held already, changed or not, is the sync's to look at.)
      if (!this.entries.has(tool.id)) this.hold(tool, -1)
      yield
    }
  }

  /**
   * A site's names, pooled over its tools (each recording saw some of its pages): a name new to
   * a site re-profiles the tools of that site held already.
   */
  private poolNames(tools: readonly ToolSpec[]): void {
    for (const tool of tools) {
      const names = this.hostNames.get(tool.siteHost) ?? new Set<string>()
      this.hostNames.set(tool.siteHost, names)
      const before = names.size
      for (const n of tool.site?.names ?? []) names.add(n)
      if (names.size !== before)
        for (const e of this.byHost.get(tool.siteHost) ?? []) {
          this.unpost(e)
          this.entries.delete(e.tool.id)
        }
    }
  }

  /**
   * The entry of `tool`, profiled when new or changed, marked as passed in at `generation` (-1
   * ahead of a sync: in none yet).
   */
  private hold(tool: ToolSpec, generation: number, position = -1): IndexEntry {
    let entry = this.entries.get(tool.id)
    if (
      entry &&
      entry.tool !== tool &&
      (entry.tool.updatedAt !== tool.updatedAt || entry.tool.status !== tool.status)
    ) {
      this.unpost(entry)
      entry = undefined
    }
    if (!entry) {
      entry = {
        tool,
        profile: profileTool(tool, [...(this.hostNames.get(tool.siteHost) ?? [])]),
        generation,
        position,
      }
      const shared = this.siteVocabularyOf(`${tool.siteHost} context`)
      for (const s of entry.profile.siteVocabulary) {
        shared.add(s)
        addHost(this.hostsSaying, s, tool.siteHost)
      }
      entry.profile.siteVocabulary = shared
      const objects = this.siteVocabularyOf(`${tool.siteHost} objects`)
      for (const s of entry.profile.siteObjects) {
        objects.add(s)
        addHost(this.hostsHolding, s, tool.siteHost)
      }
      entry.profile.siteObjects = objects
      const actions = this.siteVocabularyOf(`${tool.siteHost} actions`)
      for (const a of entry.profile.siteActions) actions.add(a)
      entry.profile.siteActions = actions
      this.entries.set(tool.id, entry)
      this.post(entry)
    }
    entry.tool = tool
    // (A tool passed in twice keeps its first place.)
    if (entry.generation !== generation || generation < 0) entry.position = position
    entry.generation = generation
    return entry
  }

  /**
   * A vocabulary shared by a site's tools, by key (`<host> context`, `<host> objects`); it grows
   * as tools are added (a word once said stays).
   */
  private siteVocabularyOf(siteHost: string): Set<string> {
    let vocabulary = this.siteVocabularies.get(siteHost)
    if (!vocabulary) this.siteVocabularies.set(siteHost, (vocabulary = new Set()))
    return vocabulary
  }

  /**
   * The sites (`host[:port]`) whose tools say `wordStem` of where they work (`blog` of a
   * WordPress, `wiki` of a wiki: `ToolProfile.siteVocabulary`); empty when none does.
   */
  sitesSaying(wordStem: string): string[] {
    return [...(this.hostsSaying.get(wordStem) ?? [])]
  }

  /**
   * The sites (`host[:port]`) whose tools work on things called `wordStem` (`post` of a blog:
   * `ToolProfile.siteObjects`); empty when none does.
   */
  sitesHolding(wordStem: string): string[] {
    return [...(this.hostsHolding.get(wordStem) ?? [])]
  }

  /** The tools of the sites that say `wordStem` of where they work (`sitesSaying`). */
  toolsOfSitesSaying(wordStem: string): IndexEntry[] {
    return this.sitesSaying(wordStem).flatMap((host) => [...(this.byHost.get(host) ?? [])])
  }

  /** True when some tool held has `wordStem` among the words of its site's names (`notebook`). */
  namesASite(wordStem: string): boolean {
    for (const e of this.postings.get(wordStem) ?? [])
      if (e.profile.terms.get(wordStem)?.field === 'site') return true
    return false
  }

  /** True when `name` (lower case, no separators) is the name of a site of some tool held. */
  isSiteName(name: string): boolean {
    return this.labels.has(name)
  }

  /**
   * True when some tool held says a word of stem `wordStem` of what it does (its intent, name,
   * slots, path, answer: `file`, `note`), not only of where it works (`linear` of a site's
   * `non-linear notebook`) or in an example value.
   */
  saysOfWork(wordStem: string): boolean {
    return this.workVocab.has(wordStem)
  }

  /** True when some tool held has a word of stem `wordStem` (`namespac` of `namespaces`). */
  knowsStem(wordStem: string): boolean {
    return this.vocab.has(wordStem)
  }

  /**
   * True when lower-case `word` is a form of a word some tool held says (its stem itself, or an
   * English word of that stem: `tiddler`, `rename`), or names one of their sites (`dokuwiki`):
   * what a typing slip most likely meant (`spelling.ts`).
   */
  saysWord(word: string): boolean {
    if (this.labels.has(word)) return true
    const s = stem(word)
    return this.vocab.has(s) && (s === word || hasVector(word))
  }

  /**
   * The one site name that `short` (two or three letters) abbreviates as people type it: its
   * first letter, then the others in order (`rm` of `redmine`, `wp` of `wordpress`); null when
   * none does or names of two sites do.
   */
  abbreviated(short: string): string | null {
    if (short.length < 2 || short.length > 3) return null
    let found: string | null = null
    let sites: Set<IndexEntry> | null = null
    for (const [label, entries] of this.labels) {
      if (label.length <= short.length + 1 || label[0] !== short[0] || !/^[a-z]+$/.test(label))
        continue
      let at = 1
      for (const ch of short.slice(1)) {
        at = label.indexOf(ch, at) + 1
        if (at === 0) break
      }
      if (at === 0) continue
      // (Two names of one site, `redmine` and `rdm`, are one answer.)
      const [one] = entries
      if (sites && one && !sites.has(one)) return null
      found ??= label
      sites ??= entries
    }
    return found
  }

  /**
   * As {@link knows}, counting only a tool's own words, not the values it was recorded with or
   * the titles of the pages it passed (`reports` of a flow recorded as "Reports" is data).
   */
  knowsAsWord(expanded: Expanded): boolean {
    return this.visitSayingAsWord(expanded, () => true)
  }

  /**
   * The objects (`ToolProfile.objectStems`) of the tools held that say one of `expanded`'s stems
   * at 0.9 or more as a word of what they do (not data: titles, values, names).
   */
  objectsOfToolsSaying(expanded: Expanded): string[] {
    const objects = new Set<string>()
    this.visitSayingAsWord(expanded, (e) => {
      for (const o of e.profile.objectStems) objects.add(o)
      return false
    })
    return [...objects]
  }

  /**
   * Calls `visit` with each tool held that says one of `expanded`'s stems at 0.9 or more as its
   * own word (not in a data field); stops, answering true, as soon as `visit` answers true.
   */
  private visitSayingAsWord(expanded: Expanded, visit: (e: IndexEntry) => boolean): boolean {
    for (const [s, x] of expanded)
      if (x.strength >= 0.9)
        for (const e of this.postings.get(s) ?? []) {
          const field = e.profile.terms.get(s)?.field
          if (field !== undefined && !DATA_FIELDS.has(field) && visit(e)) return true
        }
    return false
  }

  /** True when some tool held has one of `expanded`'s stems at a strength of 0.9 or more. */
  knows(expanded: Expanded): boolean {
    for (const [s, x] of expanded) if (x.strength >= 0.9 && this.postings.has(s)) return true
    return false
  }

  /** Those of `entries` passed in by the last sync. */
  current(entries: IndexEntry[]): IndexEntry[] {
    return entries.filter((e) => e.generation === this.generation)
  }

  /** The entry of tool `id` when the last sync passed it in, else undefined. O(1). */
  currentEntry(id: string): IndexEntry | undefined {
    const entry = this.entries.get(id)
    return entry?.generation === this.generation ? entry : undefined
  }

  /** Number of tool profiles held. */
  get size(): number {
    return this.entries.size
  }

  /**
   * A number that changes whenever what the index holds changes (a profile added or dropped):
   * what is worked out from the index (an intent's parse: `ruleEngine.ts`) may be kept while it
   * stays the same.
   */
  get version(): number {
    return this.changes
  }

  /**
   * The entries of the last sync that can reach 0.9: those showing one of `heads` (expanded) at
   * {@link MIN_HEAD_STRENGTH} or more as their head would count it (`score.ts`), those posted
   * under one of `keys`, and, for an intent whose object goes unsaid, the tools of the site it
   * names (`sites`, expanded, or a part of a site's name such as `wiki` of `dokuwiki`).
   */
  candidates(
    heads: Expanded[],
    siteWords: string[],
    keys: string[] = [],
    sites: Expanded[] = [],
    answered: Expanded[] = [],
  ): IndexEntry[] {
    const found = new Set<IndexEntry>()
    // What is asked of a record (`the [text] of X`) a read finds among its answer's fields.
    for (const expanded of answered)
      for (const [s, x] of expanded)
        if (x.strength >= 0.9 && x.via !== 'vector')
          for (const e of this.postings.get(s) ?? [])
            if (READ_CLASSES.includes(e.profile.verb) && e.profile.terms.get(s)?.field === 'output')
              found.add(e)
    for (const key of keys) for (const e of this.postings.get(key) ?? []) found.add(e)
    const searchedSites = new Set<string>()
    for (const expanded of heads)
      for (const [s, x] of expanded) {
        // A tool word counts at most the expansion's strength (a vector neighbour, 0.7 at most):
        // too weak to be the head, so its postings need no visit.
        if (x.strength < MIN_HEAD_STRENGTH) continue
        const postings = this.headPostings.get(s)
        if (!postings) continue
        // Without a site that searches itself, no posting can name one (most workspaces).
        const searchers = x.via !== 'vector' && this.siteWide.size > 0
        const full = x.strength === 1 && x.via !== 'vector'
        for (const e of postings) {
          // What a tool of a site is about, a search of that whole site finds (`score.ts`).
          if (searchers && this.siteWide.has(e.tool.siteHost) && e.profile.objectStems.has(s))
            searchedSites.add(e.tool.siteHost)
          if (found.has(e)) continue
          // At full strength the test is the one `post` made to list it here: no lookup.
          if (full) found.add(e)
          else if (headStrength(e.profile.terms.get(s)!, x) >= MIN_HEAD_STRENGTH) found.add(e)
        }
      }
    for (const host of searchedSites) for (const e of this.siteWide.get(host) ?? []) found.add(e)
    for (const expanded of sites)
      for (const [s, x] of expanded)
        if (x.strength >= 0.9)
          for (const e of this.postings.get(s) ?? [])
            if (e.profile.terms.get(s)?.field === 'site') found.add(e)
    for (const w of siteWords)
      if (w.length >= 4)
        for (const label of this.labelsAround(w))
          for (const e of this.labels.get(label) ?? []) found.add(e)
    const out: IndexEntry[] = []
    for (const e of found) if (e.generation === this.generation) out.push(e)
    return out
  }

  /** Site labels that start or end with `word` (memoized until the labels change). */
  private labelsAround(word: string): string[] {
    if (this.labelMemoVersion !== this.labelVersion) {
      this.labelMemo.clear()
      this.labelMemoVersion = this.labelVersion
    }
    let found = this.labelMemo.get(word)
    if (!found) {
      found = [...this.labels.keys()].filter(
        (l) => l !== word && (l.startsWith(word) || l.endsWith(word)),
      )
      if (this.labelMemo.size > 10_000) this.labelMemo.clear()
      this.labelMemo.set(word, found)
    }
    return found
  }

  /** The stems `word` may be in a tool, with strengths (see the file comment). Values: itself. */
  expand(word: IntentWord, pos: 'noun' | 'verb' = 'noun'): Expanded {
    const out: Expanded = new Map()
    const put = (s: string, strength: number, via: Expansion['via']) => {
      const had = out.get(s)
      if (!had || had.strength < strength) out.set(s, { strength, via })
    }
    put(word.stem, 1, 'word')
    // A value or a name keeps its own form, and may be a site's name (`redmine` is `redmin`).
    if (word.literal) {
      put(stem(word.stem), 1, 'word')
      // `wp-admin`, `node-red`: the words it joins (a tool may say `admin`).
      if (word.value === 'identifier') {
        const parts = word.word.split(/[-_:]+/).filter((p) => /^[a-z]{3,}$/.test(p))
        if (parts.length > 1) for (const p of parts) put(stem(p), 0.9, 'word')
      }
      return out
    }
    for (const r of relatedStems(word.word, pos))
      put(r.stem, r.strength, r.via === 'word' ? 'word' : r.via)
    // A verb's participle in a thing's place (`posts [categorised] as News`): what the verb is
    // related to (`category`), when no noun has that form.
    if (pos === 'noun' && /(?:ed|ing)$/.test(word.word) && !isWord(word.word, 'noun'))
      for (const r of relatedStems(word.word, 'verb'))
        if (r.via === 'derived') put(r.stem, r.strength, r.via)
    if (pos === 'noun') for (const s of nounSynonyms(word.stem)) put(s, NOUN_SYNONYM, 'synonym')
    for (const [s, strength] of this.vectorNeighbours(word.word)) put(s, strength, 'vector')
    return out
  }

  /** Tool stems whose words are near `word` by vector, with their strengths. */
  private vectorNeighbours(word: string): Map<string, number> {
    let memo = this.vectorMemo.get(word)
    if (!memo) {
      memo = { upTo: 0, hits: new Map() }
      if (this.vectorMemo.size > 20_000) this.vectorMemo.clear()
      this.vectorMemo.set(word, memo)
    }
    if (memo.upTo === this.vocabWords.length) return memo.hits
    const forms = [...new Set([word, nounLemma(word), verbLemma(word)])].filter(hasVector)
    for (let i = memo.upTo; i < this.vocabWords.length; i++) {
      let best = -1
      for (const f of forms) best = Math.max(best, similarity(f, this.vocabWords[i]!) ?? -1)
      if (best >= VECTOR_FLOOR) {
        const strength = Math.min(
          VECTOR_MAX,
          (VECTOR_MAX * (best - VECTOR_FLOOR)) / (VECTOR_FULL - VECTOR_FLOOR),
        )
        if (strength > 0) memo.hits.set(this.vocabStems[i]!, strength)
      }
    }
    memo.upTo = this.vocabWords.length
    return memo.hits
  }

  /**
   * Keys that are no words: `verb:<class>` and `kind:<value kind>`, so that an intent whose
   * object is implicit (`sign in to X`, `rename budget.xlsx`) still finds its tools.
   */
  static keysOf(profile: ToolProfile): string[] {
    return [`verb:${profile.verb}`, ...[...profile.valueKinds].map((k) => `kind:${k}`)]
  }

  private post(entry: IndexEntry): void {
    this.changes++
    for (const key of ToolIndex.keysOf(entry.profile)) {
      let set = this.postings.get(key)
      if (!set) this.postings.set(key, (set = new Set()))
      set.add(entry)
    }
    for (const term of entry.profile.terms.values()) {
      let set = this.postings.get(term.stem)
      if (!set) this.postings.set(term.stem, (set = new Set()))
      set.add(entry)
      if (headStrength(term, { strength: 1, via: 'word' }) >= MIN_HEAD_STRENGTH) {
        let heads = this.headPostings.get(term.stem)
        if (!heads) this.headPostings.set(term.stem, (heads = new Set()))
        heads.add(entry)
      }
      if (!WHERE_FIELDS.has(term.field)) this.workVocab.add(term.stem)
      if (!this.vocab.has(term.stem)) {
        this.vocab.add(term.stem)
        // (Only words with a vector can be near one: the others are no neighbours to look at.)
        if (hasVector(term.word)) {
          this.vocabStems.push(term.stem)
          this.vocabWords.push(term.word)
        }
      }
    }
    let hosted = this.byHost.get(entry.tool.siteHost)
    if (!hosted) this.byHost.set(entry.tool.siteHost, (hosted = new Set()))
    hosted.add(entry)
    if (entry.profile.searchesSite || entry.profile.verb === 'run') {
      let set = this.siteWide.get(entry.tool.siteHost)
      if (!set) this.siteWide.set(entry.tool.siteHost, (set = new Set()))
      set.add(entry)
    }
    for (const label of entry.profile.siteLabels) {
      let set = this.labels.get(label)
      if (!set) {
        this.labels.set(label, (set = new Set()))
        this.labelVersion++
      }
      set.add(entry)
    }
  }

  private unpost(entry: IndexEntry): void {
    this.changes++
    const hosted = this.byHost.get(entry.tool.siteHost)
    hosted?.delete(entry)
    if (hosted?.size === 0) this.byHost.delete(entry.tool.siteHost)
    const searchers = this.siteWide.get(entry.tool.siteHost)
    searchers?.delete(entry)
    if (searchers?.size === 0) this.siteWide.delete(entry.tool.siteHost)
    for (const key of [...entry.profile.terms.keys(), ...ToolIndex.keysOf(entry.profile)]) {
      const set = this.postings.get(key)
      set?.delete(entry)
      if (set?.size === 0) this.postings.delete(key)
      const heads = this.headPostings.get(key)
      heads?.delete(entry)
      if (heads?.size === 0) this.headPostings.delete(key)
    }
    for (const label of entry.profile.siteLabels) {
      const set = this.labels.get(label)
      set?.delete(entry)
      if (set?.size === 0) {
        this.labels.delete(label)
        this.labelVersion++
      }
    }
  }
}

/** The same tool objects in the same order (a plain loop: this runs on every search). */
function sameTools(a: readonly ToolSpec[], b: readonly ToolSpec[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** Adds `host` to the set `byStem` keeps for `wordStem`, making the set on first use. */
function addHost(byStem: Map<string, Set<string>>, wordStem: string, host: string): void {
  const hosts = byStem.get(wordStem)
  if (hosts) hosts.add(host)
  else byStem.set(wordStem, new Set([host]))
}
