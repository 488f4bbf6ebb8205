/**
 * Stage 7: what the request acts on. After the act's verb (or from the start when there is
 * none), the first noun phrase: determiners, pronouns and numbers skipped, then adjectives and
 * nouns in a row; its head is its last noun (`the open Support [issues]`), or the noun before
 * `of` (`the [status] of issue #4`: what is asked of the rest). A value (a placeholder) may end
 * the phrase (`the page "Old Draft"`) but is never the head.
 */
import type { Token } from './tokens'

export interface IntentObject {
  /** Lemma of the head noun, or null when the request names no thing. */
  head: string | null
  /** Lemmas of the phrase's nouns and adjectives, head included. */
  words: string[]
}

const NOUNS = new Set(['NOUN', 'PROPN'])
const PHRASE = new Set(['NOUN', 'PROPN', 'ADJ'])
const SKIP = new Set(['DET', 'PRON', 'NUM', 'ADV', 'PART', 'AUX', 'SYM', 'INTJ'])

/**
 * The object of the request `tokens` whose act's verb is at `verbAt` (-1: none), excluding the
 * tokens in `notThings` (site names). Pure.
 */
export function findObject(
  tokens: readonly Token[],
  verbAt: number,
  notThings: ReadonlySet<Token> = new Set(),
): IntentObject {
  let i = verbAt + 1
  // (A particle of the verb, `log [in]`, `kick [off]`, is no part of the thing.)
  if (verbAt >= 0 && tokens[i]?.pos === 'ADP' && !NOUNS.has(tokens[i + 1]?.pos ?? '')) i++
  while (i < tokens.length && (SKIP.has(tokens[i]!.pos) || notThings.has(tokens[i]!))) i++
  const phrase: Token[] = []
  for (; i < tokens.length; i++) {
    const t = tokens[i]!
    if (t.value !== undefined || notThings.has(t)) {
      if (phrase.length) break
      continue
    }
    // (`the [inject] node`: a verb's form before a noun names a kind of it.)
    const kind =
      t.pos === 'VERB' && tokens[i + 1]?.pos === 'NOUN' && !phrase.some((p) => NOUNS.has(p.pos))
    if (PHRASE.has(t.pos) || kind) phrase.push(t)
    else if (t.lower === 'of' && phrase.some((p) => NOUNS.has(p.pos))) break
    else break
  }
  const nouns = phrase.filter((t) => NOUNS.has(t.pos))
  return {
    head: nouns.at(-1)?.lemma ?? null,
    words: phrase.map((t) => t.lemma),
  }
}
