/**
 * Stage 4: tokens, lemmas and parts of speech, from wink-nlp with its English model
 * (`wink-eng-lite-web-model`: a tokenizer, a POS tagger trained on Universal Dependencies tags,
 * and lemmas), offline. Requests are mostly imperatives (`search DokuWiki for invoices`), which
 * taggers trained on news text read as nouns (`search/NOUN`); a `Please` put before the text is
 * what people write before an imperative, and tags them as verbs (`Please search/VERB`). It is
 * tagged, then dropped.
 *
 * Values taken out by the values stage stand in the text as placeholders (`qvx0`, `qvx1`): each is
 * one token, tagged as a proper noun, marked with the index of its value.
 */
import { createRequire } from 'node:module'

/** Universal Dependencies part-of-speech tags (universaldependencies.org/u/pos), as wink gives. */
type PartOfSpeech =
  | 'ADJ'
  | 'ADP'
  | 'ADV'
  | 'AUX'
  | 'CCONJ'
  | 'DET'
  | 'INTJ'
  | 'NOUN'
  | 'NUM'
  | 'PART'
  | 'PRON'
  | 'PROPN'
  | 'PUNCT'
  | 'SCONJ'
  | 'SYM'
  | 'VERB'
  | 'X'
  | 'SPACE'

export interface Token {
  /** As written. */
  text: string
  /** Lower case. */
  lower: string
  /** Dictionary form, lower case (`pages` → `page`, `renamed` → `rename`). */
  lemma: string
  pos: PartOfSpeech
  /** Index of the value this token stands for (a placeholder), else absent. */
  value?: number
}

/**
 * A placeholder's spelling: `qvx` and the value's index (lower case and without separators, so
 * no pattern of the values stage takes it for a value of its own).
 */
const PLACEHOLDER = /^qvx(\d+)$/

/** The placeholder standing for value `index`. */
export function placeholder(index: number): string {
  return `qvx${index}`
}

interface WinkDoc {
  tokens(): { out(f?: unknown): string[] }
}
interface Wink {
  readDoc(text: string): WinkDoc
  its: Record<'value' | 'pos' | 'lemma' | 'type', unknown>
}

let nlp: Wink | null = null

/** wink-nlp with its model, loaded on first use (about 0.2 s, once per process). */
function load(): Wink {
  if (!nlp) {
    const require = createRequire(import.meta.url)
    const winkNLP = require('wink-nlp') as (model: unknown) => Wink
    nlp = winkNLP(require('wink-eng-lite-web-model'))
  }
  return nlp
}

/** Loads the model now (a server warms it at start so the first request does not pay). */
export function warmTagger(): void {
  load()
}

/** The text before which an imperative is tagged as one (see the file comment). */
const LEAD = 'Please '

/**
 * The tokens of `text` (one line, values replaced by placeholders), in order, white space
 * dropped. Pure but for the model, loaded on first use.
 */
export function tagTokens(text: string): Token[] {
  const winks = load()
  const doc = winks.readDoc(LEAD + text)
  const tokens = doc.tokens()
  const values = tokens.out(winks.its.value)
  const tags = tokens.out(winks.its.pos) as PartOfSpeech[]
  const lemmas = tokens.out(winks.its.lemma)
  const out: Token[] = []
  for (let i = 1; i < values.length; i++) {
    const word = values[i]!
    if (tags[i] === 'SPACE') continue
    const mark = PLACEHOLDER.exec(word)
    out.push(
      mark
        ? {
            text: word,
            lower: word.toLowerCase(),
            lemma: word,
            pos: 'PROPN',
            value: Number(mark[1]),
          }
        : {
            text: word,
            lower: word.toLowerCase(),
            lemma: (lemmas[i] ?? word).toLowerCase(),
            pos: tags[i] ?? 'X',
          },
    )
  }
  return out
}
