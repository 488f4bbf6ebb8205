/**
 * Lemmas (dictionary forms) of English words through the npm package `wink-lemmatizer`, which
 * applies WordNet's morphological rules and exception lists ("morphy", `morphy(7WN)`): `renamed`
 * → `rename`, `directories` → `directory`, `wrote` → `write`. Loaded on first use (about 0.3 s,
 * its lexicon is 13 MB of JavaScript); the router's own stemmer (`text.ts`) stays the key of
 * every comparison, lemmas only let a thesaurus and word vectors find the word.
 */
import { createRequire } from 'node:module'

interface Lemmatizer {
  noun(word: string): string
  verb(word: string): string
}

let lemmatizer: Lemmatizer | null | undefined

function load(): Lemmatizer | null {
  if (lemmatizer === undefined) {
    try {
      lemmatizer = createRequire(import.meta.url)('wink-lemmatizer') as Lemmatizer
    } catch {
      // wink-lemmatizer not installed: words are taken as written.
      lemmatizer = null
    }
  }
  return lemmatizer
}

/** The noun lemma of a lower-case word (`pages` → `page`); the word itself when unknown. */
export function nounLemma(word: string): string {
  return load()?.noun(word) ?? word
}

/** The verb lemma of a lower-case word (`renamed` → `rename`); the word itself when unknown. */
export function verbLemma(word: string): string {
  return load()?.verb(word) ?? word
}
