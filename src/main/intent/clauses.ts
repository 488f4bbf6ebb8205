/**
 * Stage 5: which words are the request. People say why before or after what (`the printer moved,
 * so please rewrite the page`) and put a step on the way first (`log in and rename the file`).
 * The tagged text is cut into clauses at sentence ends, at `then`, at `and`/`but` before a verb,
 * and before a subordinating word (`because`, `since`, `so`); a clause opened by one of those but
 * `so` gives reasons (`context`), the others ask (`request`).
 */
import type { Token } from './tokens'

export interface Clause {
  tokens: Token[]
  /** `request`: it asks something; `context`: it says why, or what is the case. */
  role: 'request' | 'context'
}

/** Words that open a clause of reasons (`because the printer moved`). */
const REASONS = new Set(['because', 'since', 'as', 'although', 'though', 'while', 'if'])

/** Words that open a new clause without saying whether it asks (`..., so please rewrite it`). */
const OPENERS = new Set([...REASONS, 'so'])

/** Sentence ends. */
const ENDS = new Set(['.', '!', '?', ';'])

/**
 * The clauses of `tokens` (stage 4's), in order, none empty. Pure.
 * `log in and rename the file` → `[log in] [rename the file]`, both requests.
 */
export function splitClauses(tokens: readonly Token[]): Clause[] {
  const clauses: Clause[] = []
  let current: Token[] = []
  let role: Clause['role'] = 'request'
  const close = () => {
    if (current.some((t) => t.pos !== 'PUNCT')) clauses.push({ tokens: current, role })
    current = []
    role = 'request'
  }
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!
    const next = tokens[i + 1]
    // (`and [manually] trigger`: an adverb may stand before the verb.)
    const after = next?.pos === 'ADV' ? tokens[i + 2] : next
    const nextVerb = after !== undefined && (after.pos === 'VERB' || after.lower === 'then')
    if (t.pos === 'PUNCT' && ENDS.has(t.text) && t.value === undefined) {
      close()
      continue
    }
    if (t.lower === 'then' || ((t.lower === 'and' || t.lower === 'but') && nextVerb)) {
      close()
      continue
    }
    // (`because the printer moved, rewrite the page`: a reason ends at its comma.)
    if (
      t.pos === 'PUNCT' &&
      t.text === ',' &&
      next &&
      (OPENERS.has(next.lower) || role === 'context')
    ) {
      close()
      continue
    }
    if (OPENERS.has(t.lower) && t.pos === 'SCONJ' && current.length) close()
    // (`so` opens the request it leads to: `..., so please rewrite the page`.)
    if (t.lower === 'so' && current.length === 0) continue
    if (REASONS.has(t.lower) && current.length === 0) role = 'context'
    current.push(t)
  }
  close()
  return clauses
}
