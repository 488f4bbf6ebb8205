/**
 * The router's memory of the tools it searches: their facts (`toolFacts.ts`) by tool id, an
 * inverted index from word stems to the tools that say them (a search looks only at tools that
 * share a word with the intent, its site or its act), how many tools say each stem (a word all
 * tools say tells none apart), the site names it knows, and the expansion of intent words by
 * meaning (WordNet synonyms and derived forms, `meaning/related.ts`).
 *
 * Facts are kept per tool id and replaced when the tool's `updatedAt` or status changes; a tool
 * no longer passed in is dropped at the next sweep.
 *
 * Speed: what a search asks of every tool held is kept, not recomputed per search: the
 * set of site names (rebuilt only when a site is added or dropped), each tool's `sameThing` and
 * the reading of an intent's text (`viewOf` in `ranker.ts`, kept per text until the tools held
 * change: {@link FactIndex.version}).
 */
import type { ToolSpec } from '../../shared/toolSpec'
import type { Act } from '../intent/act'
import { FINDS, type IntentView } from './features'
import { relatedStems } from './meaning/related'
import { sameThing } from './sameThing'
import { stem } from './text'
import { toolFacts, type ToolFacts } from './toolFacts'

export interface FactEntry {
  tool: ToolSpec
  facts: ToolFacts
  generation: number
  /** What the tool's request is (`ranker.ts` `sameThing`), kept with the tool it was read from. */
  thing: string
  /** Where the last sync that passed the tool in had it first (its place in that list). */
  position: number
}

/** See the file comment. */
export class FactIndex {
  private readonly entries = new Map<string, FactEntry>()
  private readonly postings = new Map<string, Set<FactEntry>>()
  private readonly bySite = new Map<string, Set<FactEntry>>()
  private readonly byAct = new Map<Act, Set<FactEntry>>()
  private readonly expansions = new Map<string, Map<string, number>>()
  private generation = 0
  private last: { tools: readonly ToolSpec[]; entries: FactEntry[] } | null = null
  /** The site names as a set, until a site is added or dropped (null: to be made again). */
  private names: ReadonlySet<string> | null = null
  private changes = 0

  /** Makes the index hold exactly `tools`; returns their entries in the same order. */
  sync(tools: readonly ToolSpec[]): FactEntry[] {
    const last = this.last
    if (last && sameTools(last.tools, tools)) return last.entries
    const generation = ++this.generation
    const out: FactEntry[] = []
    for (const [i, tool] of tools.entries()) {
      let entry = this.entries.get(tool.id)
      if (entry && (entry.tool.updatedAt !== tool.updatedAt || entry.tool.status !== tool.status)) {
        this.unpost(entry)
        entry = undefined
      }
      if (!entry) {
        entry = this.entryOf(tool, generation)
        this.entries.set(tool.id, entry)
        this.post(entry)
      }
      if (entry.tool !== tool) {
        entry.tool = tool
        entry.thing = sameThing(tool)
      }
      if (entry.generation !== generation) entry.position = i
      entry.generation = generation
      out.push(entry)
    }
    if (this.entries.size > out.length)
      for (const entry of [...this.entries.values()])
        if (entry.generation !== generation) {
          this.unpost(entry)
          this.entries.delete(entry.tool.id)
        }
    this.last = { tools: [...tools], entries: out }
    return out
  }

  /**
   * Reads the facts of `tools` one at a time ahead of a {@link sync} of them (a build at start
   * that leaves the event loop free between steps: `router.ts` `build`), yielding after each
   * tool; the sync that follows only looks them up. A new entry is in no sync until then; a tool
   * held already is left to the sync.
   */
  *building(tools: readonly ToolSpec[]): Generator<void> {
    for (const tool of tools) {
      // (A tool held already, changed or not, is the sync's to look at.)
      if (!this.entries.has(tool.id)) {
        const entry = this.entryOf(tool, -1)
        this.entries.set(tool.id, entry)
        this.post(entry)
      }
      yield
    }
  }

  private entryOf(tool: ToolSpec, generation: number): FactEntry {
    return { tool, facts: toolFacts(tool), generation, thing: sameThing(tool), position: -1 }
  }

  /** Number of tools held. */
  get size(): number {
    return this.entries.size
  }

  /**
   * A number that changes whenever what the index holds changes (a tool's facts added or
   * dropped): what is worked out from the index may be kept while it stays the same.
   */
  get version(): number {
    return this.changes
  }

  /**
   * The entry of tool `id` when the last sync passed it in, else undefined. O(1).
   */
  current(id: string): FactEntry | undefined {
    const entry = this.entries.get(id)
    return entry?.generation === this.generation ? entry : undefined
  }

  /**
   * The site names of the tools held (`siteKey` spelling). The same set until a site is added or
   * dropped (read-only: callers must not change it).
   */
  siteNames(): ReadonlySet<string> {
    this.names ??= new Set(this.bySite.keys())
    return this.names
  }

  /** How many tools of the last sync say stem `s` (in any field). */
  saying(s: string): number {
    return this.postings.get(s)?.size ?? 0
  }

  /** log(1 + N / (1 + tools saying `s`)): how much a stem tells tools apart. */
  idf(s: string): number {
    return Math.log(1 + this.entries.size / (1 + this.saying(s)))
  }

  /**
   * The tool stems a lower-case lemma may be said by, with strengths: its own stem (1), WordNet
   * synonyms and derived forms as noun and verb (0.9). Memoized.
   */
  expand(lemma: string): Map<string, number> {
    let out = this.expansions.get(lemma)
    if (out) return out
    out = new Map([[stem(lemma), 1]])
    for (const pos of ['noun', 'verb'] as const)
      for (const r of relatedStems(lemma, pos))
        if ((out.get(r.stem) ?? 0) < r.strength) out.set(r.stem, r.strength)
    if (this.expansions.size > 50_000) this.expansions.clear()
    this.expansions.set(lemma, out)
    return out
  }

  /**
   * The tools of the last sync that may fit `view`: those saying one of its words (or its head)
   * at {@link FINDS} or more, those of a site it names, and, for a sign-in or a sign-out, the
   * tools that do it.
   */
  candidates(view: IntentView): FactEntry[] {
    const found = new Set<FactEntry>()
    for (const w of view.head ? [view.head, ...view.words] : view.words)
      for (const [s, strength] of w.stems)
        if (strength >= FINDS) for (const e of this.postings.get(s) ?? []) found.add(e)
    for (const site of view.intent.sites) for (const e of this.bySite.get(site) ?? []) found.add(e)
    const act = view.intent.act
    if (act === 'auth' || act === 'logout') for (const e of this.byAct.get(act) ?? []) found.add(e)
    return [...found].filter((e) => e.generation === this.generation)
  }

  private post(entry: FactEntry): void {
    this.changes++
    for (const s of entry.facts.stems.keys()) addTo(this.postings, s, entry)
    for (const name of entry.facts.siteNames) if (addTo(this.bySite, name, entry)) this.names = null
    addTo(this.byAct, entry.facts.act, entry)
  }

  private unpost(entry: FactEntry): void {
    this.changes++
    for (const s of entry.facts.stems.keys()) removeFrom(this.postings, s, entry)
    for (const name of entry.facts.siteNames)
      if (removeFrom(this.bySite, name, entry)) this.names = null
    removeFrom(this.byAct, entry.facts.act, entry)
  }
}

/** The same tool objects in the same order (a plain loop: this runs on every search). */
function sameTools(a: readonly ToolSpec[], b: readonly ToolSpec[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** Adds `entry` under `key`; true when the key is new. */
function addTo<K>(map: Map<K, Set<FactEntry>>, key: K, entry: FactEntry): boolean {
  const set = map.get(key)
  if (set) set.add(entry)
  else map.set(key, new Set([entry]))
  return !set
}

/** Removes `entry` from under `key`; true when the key is gone with it. */
function removeFrom<K>(map: Map<K, Set<FactEntry>>, key: K, entry: FactEntry): boolean {
  const set = map.get(key)
  set?.delete(entry)
  if (set?.size === 0) {
    map.delete(key)
    return true
  }
  return false
}
