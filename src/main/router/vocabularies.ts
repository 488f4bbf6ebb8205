/**
 * The router's vocabularies as the text readers before parsing ask for them: the words a typing
 * slip may be read as (`spelling.ts`) and the words that tell an app no tool is on from a record's
 * name (`otherApps.ts`). Both read the tool index (what the tools held say) and the dictionaries
 * (WordNet, the word vectors' frequency order).
 */
import { nounSynonyms, verbClassOf } from './lexicon'
import { isProductName } from './meaning/products'
import { isWord } from './meaning/related'
import { frequencyRank, hasVector } from './meaning/vectors'
import { senseCount } from '../intent/wordnet'
import type { AppVocabulary } from './otherApps'
import type { SpellingVocabulary } from './spelling'
import { stem } from './text'
import type { ToolIndex } from './toolIndex'

/** Frequency ranks (`frequencyRank`) from which a word is too rare to be what a slip meant. */
const RARE_WORD = 15_000
/** Frequency ranks under which a word is an everyday one (`read`, `me` of `readme`). */
const COMMON_WORD = 10_000

/** True when lower-case `word` is an English word WordNet has (any part of speech). */
function inEnglish(word: string): boolean {
  return (
    isWord(word, 'noun') ||
    isWord(word, 'verb') ||
    senseCount(word, 'adj') > 0 ||
    senseCount(word, 'adv') > 0
  )
}

/**
 * The words a slip may be read as (`spelling.ts`): a word some tool says or a site's name first,
 * then a verb of the router's tables, then an everyday word by its frequency (word vectors).
 * Known words are those, any WordNet has, and those of the router's own tables.
 */
export function spellingVocabulary(index: ToolIndex): SpellingVocabulary {
  return {
    // (Words of the router's own tables too: `scoped` of who may see a package.)
    knows: (word) =>
      hasVector(word) ||
      inEnglish(word) ||
      index.knowsStem(stem(word)) ||
      verbClassOf(stem(word)) !== null ||
      nounSynonyms(stem(word)).size > 0,
    rank: (word) => {
      if (index.saysWord(word)) return 0
      const frequency = frequencyRank(word)
      if (frequency === null) return null
      if (verbClassOf(stem(word)) !== null) return 1
      // A rare word is as likely a slip of its own (`slamming` of `spamming`).
      return frequency < RARE_WORD ? 2 + frequency : null
    },
    common: (word) => (frequencyRank(word) ?? Infinity) < COMMON_WORD,
  }
}

/**
 * What tells an app no tool is on (`otherApps.ts`): the sites' names, English words (WordNet) and
 * the tools' words, and the things some site holds (by a synonym too: `ticket` of `issue`).
 */
export function appVocabulary(index: ToolIndex): AppVocabulary {
  const held = (s: string) => index.sitesHolding(s).length > 0
  return {
    isSite: (word) => index.isSiteName(word),
    isKnown: (word) => inEnglish(word) || index.knowsStem(stem(word)),
    isThing: (word) => {
      const s = stem(word)
      return held(s) || [...nounSynonyms(s)].some(held)
    },
    // (A name some tool says of its work, `Files`, `Note`, is likelier a record's; `X`, `Go` too
    // short. A site's description does not count: TiddlyWiki's `non-linear notebook`, `Linear`.)
    isProduct: (name) =>
      name.length >= 3 &&
      isProductName(name) &&
      name.split(' ').some((w) => !index.saysOfWork(stem(w))),
  }
}
