import type { Exchange } from '../../shared/trace'
import { pathSegments, requestValues } from './requestValues'
import { isNamedCommand } from './commandArguments'
import { isOperationValue, isSubmitKey } from './operation'
import { labelledValues } from './optionLabels'
import { presentedAsValue, VALUE_INTRODUCERS } from './valueCues'
import { normalValue, wordsOf } from './valueSpelling'
import { intentWords } from './intentWords'
import type { TypedValue } from './typedValues'

/** Longest intent phrase compared with a request value, in words ("new york city"). */
const MAX_PHRASE_WORDS = 5
const MIN_VALUE_LENGTH = 3

/**
 * The values a trace without recorded actions (a HAR) was made for (then
 * only the intent text, the traffic and the responses are evidence): each string in a request's
 * query or body that equals a word or phrase of the intent, case and surrounding punctuation aside
 * ("search the AI tools directory for writing" and `{"query":"writing"}`), or a segment of its
 * URL path no route word would be (`/keys/cache%3Ahomepage`). They stand in for typed
 * values, so the request carrying one scores as one carrying what was typed, and the value becomes
 * its required slot. The intent's first word (its verb: "search", "find") and stop words alone are
 * never values. A choice the intent names by its label is the option value a request sends
 * for it (`labelledValues`). Returned in the order the requests carried them, each value once.
 */
export function intentValues(intent: string, exchanges: Exchange[]): TypedValue[] {
  const original = intent.split(/\s+/)
  const tokens = original.map((t) =>
    t.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''),
  )
  const phrases = new Set<string>()
  const quoted = quotedSpans(original)
  for (let start = 0; start < tokens.length; start++)
    for (let n = 1; n <= MAX_PHRASE_WORDS && start + n <= tokens.length; n++) {
      if (start === 0 && n === 1) continue
      const phrase = tokens.slice(start, start + n)
      if (phrase.some((t) => !t)) break
      // Words inside a quoted value are that value's, not values of their own ("Enoch Root" of
      // 'Enoch Root, IT helpdesk' is not the user's real name the form also sends).
      if (quoted.some(([from, to]) => start >= from && start + n - 1 <= to && n < to - from + 1))
        continue
      const text = phrase.join(' ')
      // A number with dots or dashes (a version `1.1.0`, a date) is a value though no word.
      const numeric = /^\d+([.:/-]\d+)+$/.test(text)
      if (text.length < MIN_VALUE_LENGTH || (!intentWords(text).length && !numeric)) continue
      // A lone lower-case word is a value only where the intent introduces one ("posts about
      // tomato", "the invoices folder"); else it names the thing (`post`, `file`, `media`) and
      // equals a constant of the request by coincidence. A word joined to others by `=` or `,`
      // (an LDAP DN `uid=carla,ou=people`, a `key=value` pair) is no word of speech: a value.
      if (
        n === 1 &&
        !/\d|[._:=,-]/.test(text) &&
        !presentedAsValue(original, tokens, start, start, VALUE_INTRODUCERS)
      )
        continue
      phrases.add(text)
    }
  // A word that joins values the way sites write them together (`lunar-phase@1.1.0`, a name and
  // its version; `repo#branch`, `image:tag`) holds each of them: a part shaped like a value (a
  // digit, `.`, `_` or `-` in it) is one too.
  for (const token of tokens)
    for (const part of token.split(/[@#:=/]+/))
      if (part !== token && part.length >= MIN_VALUE_LENGTH && /[\d._-]/.test(part))
        phrases.add(part)
  // A quoted value is one value whatever it holds ("change it to say 'Status: amber'").
  for (const m of intent.matchAll(/["“']([^"”']{2,200})["”']/g)) {
    phrases.add(m[1]!.trim().toLowerCase().replace(/\s+/g, ' '))
    phrases.add(normalValue(m[1]!))
  }
  const found = new Map<string, TypedValue>()
  for (const exchange of exchanges)
    for (const v of requestValues(exchange)) {
      // An action API's operation (`do=media`) is what the request does, never a value.
      if (typeof v.value !== 'string' || found.has(v.value) || isOperationValue(v)) continue
      // A submit button's label ("Log In") repeats the intent's verb; it is no value.
      if (isSubmitKey(v.key)) continue
      const text = v.value.trim().toLowerCase().replace(/\s+/g, ' ')
      // Unquoted, a value's punctuation falls away with the intent's ("team status: Status: amber"
      // and `Status: amber`): a value of two words or more also matches by its words.
      const words = wordsOf(v.value)
      const byWords = words.length >= 2 && phrases.has(words.join(' '))
      // A command line whose verb and arguments the intent spells (`expire session:abc 3600`).
      const command = isNamedCommand(v.value, intent)
      if (!phrases.has(text) && !phrases.has(normalValue(v.value)) && !byWords && !command) continue
      found.set(v.value, {
        value: v.value,
        fieldName: null,
        name: null,
        kind: 'fill',
        inputType: null,
        at: exchange.startedAt,
        fromIntent: true,
      })
    }
  // A record a path names in a form no route word takes (`/apiv2/key/conn/cache%3Ahomepage`:
  // a `:`, `@`, `*` or a space in it) the way the intent spells it, decoded (`pathSegments`).
  // A plain slug (`lunar-phase`) is left to the path-slot rules, which see every call of a route.
  for (const exchange of exchanges)
    for (const value of pathSegments(exchange.url)) {
      if (found.has(value) || value.length < MIN_VALUE_LENGTH || !/[:@*\s]/.test(value)) continue
      const text = value.trim().toLowerCase().replace(/\s+/g, ' ')
      if (!phrases.has(text) && !phrases.has(normalValue(value))) continue
      found.set(value, {
        value,
        fieldName: null,
        name: null,
        kind: 'fill',
        inputType: null,
        at: exchange.startedAt,
        fromIntent: true,
      })
    }
  // A choice named by its label ("the category Recipes") is sent as its option's value (`cat=4`).
  // A label the page offered is value enough even as the first word of a terse intent
  // ("Recipes posts"), which is otherwise taken for the verb.
  const labels = new Set(phrases)
  if ((tokens[0] ?? '').length >= MIN_VALUE_LENGTH) labels.add(tokens[0]!)
  for (const t of labelledValues(labels, exchanges)) if (!found.has(t.value)) found.set(t.value, t)
  return [...found.values()]
}

/**
 * The token ranges `[first, last]` (inclusive) of the quoted values of whitespace-split intent
 * words: a word that starts with a quote opens one, the first word from there that ends with a
 * quote closes it. Used only to keep a quoted value's inner words from counting on their own.
 */
function quotedSpans(words: string[]): Array<[number, number]> {
  const out: Array<[number, number]> = []
  for (let i = 0; i < words.length; i++) {
    if (!/^["“'‘]/.test(words[i]!)) continue
    for (let j = i; j < words.length; j++) {
      const word = j === i ? words[j]!.slice(1) : words[j]!
      if (/["”'’][^\p{L}\p{N}]*$/u.test(word) && !/['’]s$/.test(word)) {
        if (j > i) out.push([i, j])
        i = j
        break
      }
    }
  }
  return out
}
