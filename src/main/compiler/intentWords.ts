import { singular } from './valueSpelling'

/** Words that carry no part of what an intent asks for: articles, pronouns, generic verbs. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  'the a an and or of for to in on by with from at as is are be this that these those my our your their it its into about all any some get find show give me what which who how when where list read open page data api v1 v2'.split(
    ' ',
  ),
)

/** Content words of an intent, lower-case, with simple plurals folded (`tools` → `tool`). */
export function intentWords(intent: string): string[] {
  return [
    ...new Set(
      intent
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .filter((w) => w.length >= 3 && !STOP_WORDS.has(w))
        .map(singular),
    ),
  ]
}
