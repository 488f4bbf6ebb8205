/**
 * The request in an intent said with its reasons (`The printer moved, so please rewrite the
 * page`, `I'm preparing the triage; list every open bug`, `pull up issue 21 so I can read it`):
 * the clauses that ask for something are the request, the others only say why or where. The
 * router scores the request and takes from the rest only where it happens (`on the team wiki`).
 *
 * Clauses end at a sentence's end (`.`, `!`, `?`, `;`) and before `, so`, `so please`, `, then`,
 * `so I can`, `because`, `since`. A clause asks when it is a question, says `please`, starts
 * with a verb (after `could you`, `can you`, `just`...) or with `I need` / `I want` / `I'd like`;
 * it only says why when it starts with a subordinator (`so I can`, `because`, `before`) or with a
 * statement's subject (`I'm`, `we've`, `the post is`).
 */

/** What leads a clause that only gives a reason or a purpose. */
const SUBORDINATE =
  /^(so (that|i|we|it)\b|because|since|as\b|before|after|when|while|if|until|once|although|though)/i

/** What leads a clause that asks (`I need`, `could you`, a question word). */
const ASKING =
  /^(please|kindly|just|now|then|(could|can|would|will) (you|u)|i('d| would)? (need|want|like)|i'd like|we need|which|what|where|who|how|show|list|find|search|look|open|create|make|add|upload|delete|remove|rename|change|update|edit|log|sign|run|trigger|get|give|use)\b/i

/** What leads a statement (`I'm ...`, `the post is ...`). */
const STATEMENT =
  /^(i('m| am| have|'ve| was| keep| think| remember| wrote| jotted| can't| cannot| don't)|we('re| are| have|'ve| were| keep)|it('s| is| was| has)|there('s| is| are)|that|this|someone|something|nobody|the \w+( \w+)? (is|was|has|have|keeps|changed|moved|broke)\b)/i

/** Quoted text, as `values.ts` reads it. */
const QUOTED = /"[^"]*"|“[^”]*”|‘[^’]*’|(?<=^|\s)'[^']+'(?=\s|$|[.,;:!?])/g

/** Where a clause ends inside a sentence. */
const BREAKS =
  /,\s*so\s+|\s+so\s+please\s+|,\s*then\s+|\s+(?=so (?:that|i|we) )|\s+(?=because |since )/i

export interface Clauses {
  /** The clauses that ask, joined; the whole intent when none is told apart. */
  request: string
  /** The clauses that say why or where, joined ('' when none). */
  context: string
}

/**
 * Splits `intent` into the clauses that ask and those that only give reasons. One clause, or
 * clauses none of which asks, give the whole intent as the request.
 */
export function splitClauses(intent: string): Clauses {
  // Quoted text is one value whatever it says (`'Closed on Sundays.' Make that the text`).
  const quoted: string[] = []
  const held = intent.replace(QUOTED, (q) => `\uE000${quoted.push(q) - 1}\uE000`)
  const restore = (c: string) => c.replace(/\uE000(\d+)\uE000/g, (_, i: string) => quoted[+i]!)
  const clauses = held
    .split(/(?<=[.!?;])\s+/)
    .flatMap((sentence) => sentence.split(BREAKS))
    .map((c) => restore((c ?? '').replace(/[.!?;,]+$/, '').trim()))
    .filter((c) => c.length > 0)
  if (clauses.length < 2) return { request: intent, context: '' }
  const asks = clauses.map(
    (c) => !SUBORDINATE.test(c) && (ASKING.test(c) || /\bplease\b/i.test(c) || !STATEMENT.test(c)),
  )
  const request = clauses.filter((_, i) => asks[i])
  if (!request.length) return { request: intent, context: '' }
  return { request: request.join('. '), context: clauses.filter((_, i) => !asks[i]).join('. ') }
}
