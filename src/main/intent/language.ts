/**
 * Stage 2: can the router read this text? Its words are English words of English sentences; text
 * in another script (Korean `위키 페이지 삭제`, Japanese `フローを削除`) or in another language
 * written in Latin letters (`supprimer la page du wiki`) cannot be read, and a match made from the
 * few words left (a brand, a Latin-letter value) would be a guess. Quoted values,
 * URLs and e-mail addresses may be in any script: they are data, not words to read.
 *
 * Scripts come from Unicode's Script property (`\p{Script=…}`, Unicode Standard Annex #24);
 * languages written in Latin letters from `tinyld` (n-gram language identification, offline),
 * trusted only where the text has no English function word: short English intents are often
 * guessed as another language by any n-gram detector.
 */
import { detectAll } from 'tinyld'

export interface Readability {
  /** True when the text is English in Latin letters (or has no letters at all). */
  readable: boolean
  /** The script of the letters that cannot be read (`Hangul`), or `Latin`. */
  script: string
  /** ISO 639-1 code of the language guessed (`fr`), `en`, or null when no guess was made. */
  language: string | null
}

/** Scripts named in messages, by their Unicode Script property value. */
const SCRIPTS = [
  'Hangul',
  'Han',
  'Hiragana',
  'Katakana',
  'Cyrillic',
  'Greek',
  'Arabic',
  'Hebrew',
  'Devanagari',
  'Thai',
  'Armenian',
  'Georgian',
  'Bengali',
  'Tamil',
  'Ethiopic',
] as const
const SCRIPT_TESTS = SCRIPTS.map((s) => [s, new RegExp(`\\p{Script=${s}}`, 'u')] as const)

/** Data written in any script: quoted text, URLs, e-mail addresses. */
const DATA = /"[^"]*"|'[^']*'(?=\s|$|[.,;:!?])|\bhttps?:\/\/\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+/gu

/**
 * English words that no other language written in Latin letters uses as its own common word: one
 * of them in a sentence says it is English (`supprimer la page` has none, `delete the page` has
 * `the`). Not `a`, `in`, `die`, `page`, `me`: other languages say them too.
 */
const ENGLISH_MARKS = new Set(
  (
    'the to and of for my with from this that these those what which who how please our your ' +
    'every each all any some it its is are was be by at into about up out off new called named ' +
    'show list find get open create delete remove rename set change add log sign search upload ' +
    'make put move edit update view read write tell give look run start stop can could would ' +
    'should i we you us them their there where when whose have has need want'
  ).split(' '),
)

/**
 * Common words of other languages written in Latin letters that are no English words (French
 * `la`, `du`, Spanish `los`, `para`, German `und`, `alle`, Italian `della`, Portuguese `uma`,
 * Dutch `het`): with no English mark beside them, the sentence is in that language.
 */
const FOREIGN_MARKS = new Set(
  (
    'la le les du des et pour une dans sur avec au aux ce cette est sont pas ' +
    'el los las por para una y con al lo su sus es ' +
    'der das und mit für ein eine einen alle nicht ist zu von im auf ' +
    'il gli della delle di nel sul che questo ' +
    'os uma um em dos das na ao ' +
    'het een voor naar op niet ook'
  ).split(' '),
)

/** Letters English words do not carry (names aside): `ß`, `ñ`, `ö`, `é`... */
const FOREIGN_LETTER = /[ßñãõçäöüéèêëàâîïôûùœæåøíáóú]/

/** Below this share of tinyld's guess, a non-English guess is not trusted. */
const MIN_GUESS = 0.02

/**
 * Whether the router can read `text` (normalised: `normalise.ts`). Pure but for tinyld's model,
 * loaded with the module. `readability('delete the page')` is readable English;
 * `readability('위키 페이지 삭제')` is `{readable: false, script: 'Hangul'}`.
 */
export function readability(text: string): Readability {
  const words = text.replace(DATA, ' ')
  for (const [script, test] of SCRIPT_TESTS)
    if (test.test(words)) return { readable: false, script, language: null }
  // Any other letters that are not Latin: a script not named above.
  if (/(?=\p{L})(?!\p{Script=Latin})(?!\p{Script=Common})\p{L}/u.test(words))
    return { readable: false, script: 'another script', language: null }
  const tokens = words.toLowerCase().match(/\p{L}+/gu) ?? []
  if (tokens.some((t) => ENGLISH_MARKS.has(t)))
    return { readable: true, script: 'Latin', language: 'en' }
  // (A capitalised word is a name as often as not: `Café Central` in an English request.)
  const lower = words.match(/(?<![\p{L}])\p{Ll}+/gu) ?? []
  const foreign = lower.some((t) => FOREIGN_MARKS.has(t) || FOREIGN_LETTER.test(t))
  if (!foreign) return { readable: true, script: 'Latin', language: null }
  const [guess] = detectAll(words)
  if (!guess || guess.lang === 'en' || guess.accuracy < MIN_GUESS)
    return { readable: true, script: 'Latin', language: guess?.lang ?? null }
  return { readable: false, script: 'Latin', language: guess.lang }
}

/** The name of a language by its ISO 639-1 code, in English (`fr` → `French`), else the code. */
export function languageName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code
  } catch {
    // A code Intl does not know: the code is the best name there is.
    return code
  }
}
