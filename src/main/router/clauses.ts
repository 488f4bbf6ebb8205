/**
 * The request in an intent said with its reasons (`The printer moved, so please rewrite the
 * page`, `I'm preparing the triage; list every open bug`, `pull up issue 21 so I can read it`):
 * the clauses that ask for something are the request, the others only say why or where. The
 * router scores the request and takes from the rest only where it happens (`on the team wiki`),
 * and what the request points back to (`delete [it] please`).
 *
 * Clauses end at a sentence's end (`.`, `!`, `?`, `;`), before `, so`, `so please`, `, then`,
 * `so I can`, `because`, `since`, at a dash (` — `, ` -- `), and at a comma, `, but` or a colon
 * after a clause of one's own (`I want to reread it: pull up X`; `Page X: open it` is a label)
 * before a request's verb (`..., delete it please`). A clause asks when it is a question
 * (unless another clause names the act outright), says `please`, starts with a verb (after
 * `could you`, `can you`, `just`...) or with `I need` / `I want` / `I'd like`; it only says why
 * when it starts with a subordinator (`so I can`, `because`, `before`) or with a statement's
 * subject (`I'm`, `we've`, `the post is`). What a sentence asks after `so` is its request: what
 * comes before is why (`I need to change a flow, so sign me in`). An aside in brackets is
 * context, and so is a last step that applies the change (`..., then deploy`).
 */

/** Who or what a purpose after `so` is about (`so [the reviewers] have the notes`). */
const SO_SUBJECTS =
  'that|i|we|it|they|you|he|she|the|its|their|his|her|my|our|your|this|these|those|everyone|everybody|people|nobody|someone'

/** What leads a clause that only gives a reason or a purpose. */
const SUBORDINATE = new RegExp(
  `^(so (${SO_SUBJECTS})\\b|because|since|as\\b|before|after|when|while|if|until|once|although|though|(in order )?to\\b|for reference|where (${SO_SUBJECTS}|people|everyone|our)\\b|instead of|rather than|don't|do not|no need)`,
  'i',
)

/** Verbs that open a request. */
const REQUEST_VERBS =
  'show|list|find|search|look|open|create|make|add|upload|delete|remove|rename|change|update|edit|log|sign|run|trigger|get|give|use|put|send|move|tag|label|trash|bin|throw|disable|enable|fire|press|save|store|export|attach|display|view|read|pull|fetch|filter|set|mark|write|start|file|report|raise' +
  '|print|check|grab|push|flip|switch|turn|deactivate|activate|kick|copy|duplicate|enumerate|query|authenticate|close|reopen|resolve|stash|browse|erase|wipe|purge|archive|retitle|execute|restart|stop|pause'

/** What leads a clause that asks (`I need`, `could you`, a question word, a verb). */
const ASKING = new RegExp(
  `^(please|kindly|just|now|then|first(?= \\w)|(could|can|would|will) (you|u)|i('d| would)? (need|want|like)|i'd like|we need|which|what|where|who|how|${REQUEST_VERBS})\\b`,
  'i',
)

/** A request that names its act (`could you sign me in`, `please delete it`). */
const DIRECT = new RegExp(
  `^(?:(?:please|kindly|just|now|then|first|(?:could|can|would|will) (?:you|u))\\s+)*(?:please\\s+)?(?:${REQUEST_VERBS})\\b`,
  'i',
)

/** A wish that says what the person means to do (`I need to`, `I'd like to`, `I want to`). */
const WISH = /^(i('d| would)? (need|want|like|wish|hope|plan|mean)|i'd like|we (need|want)) to\b/i

/** A clause that opens with a request's verb (after `please`). */
const IMPERATIVE = new RegExp(`^(please\\s+)?(${REQUEST_VERBS})\\b`, 'i')

/** What leads a statement (`I'm ...`, `the post is ...`, `'Untitled' is an empty tiddler`). */
const STATEMENT = new RegExp(
  [
    "^(i('m| am| have|'ve|'ll| will| was| keep| think| remember| wrote| jotted| can't| cannot| don't| made)",
    "|we('re| are| have|'ve| were| keep| don't)|it('s|'ll| is| was| has| will)|they\\b",
    "|there('s| is| are)|that|this|someone|something|nobody|my\\b|our\\b",
    '|the [^,;]{1,40}? (is|are|was|were|has|have|keeps|changed|moved|broke|got)\\b',
    '|\uE000\\d+\uE000 (is|are|was|has)\\b',
    '|[a-z][^,;]{0,40}? (is|are) (hidden|too|out|broken|empty|wrong|missing)\\b',
    // `Customers keep reporting X`: what others keep doing is why.
    '|[a-z]+ (?:keep|keeps|kept) (?:reporting|saying|asking|getting|seeing|complaining|hitting)\\b)',
  ].join(''),
  'i',
)

/** A request that only points back at what was said (`can you do that?`, `please handle it`). */
const DOES_THAT =
  /^(?:(?:please|kindly|just|now|then|(?:could|can|would|will) (?:you|u))\s+)*(?:do|handle|sort(?: out)?|manage) (?:that|it|this)\b(?: for me)?(?: please)?$/i

/** A clause that points back at what another said (`put 'Y' in [it]`, `set [it] back to New`). */
const POINTS_BACK = /\b(?:in|on|into|onto)\s+(?:it|that|this)\b|^(?:please\s+)?\w+\s+(?:it|them)\b/i

/** A last step that applies the change asked (`..., then deploy`, `and hit Deploy`). */
const FINISHING_STEP =
  /(?:\s*[,;]\s*|\s+)(?:and\s+|then\s+)*(?:hit\s+|press\s+|click\s+)?(?:re)?deploy(?:\s+(?:it|them|the\s+changes?|the\s+flows?|after(?:wards)?))?\s*[.!]?\s*$/i

/** Quoted text, as `values.ts` reads it. */
const QUOTED = /"[^"]*"|“[^”]*”|‘[^’]*’|(?<=^|\s)'[^']+'(?=\s|$|[.,;:!?])/g

/** Verbs of a purpose said after the request (`... to keep things tidy`). */
const PURPOSES =
  'keep|locate|ensure|avoid|free|help|allow|let|make sure|find out|have|prepare|check|compare|extract|share|use|see|know|confirm|verify|learn'

/** Where a clause ends inside a sentence; `so` marks what follows as the request. */
const BREAKS = new RegExp(
  [
    ',\\s*(so)\\s+',
    '\\s+(so)\\s+(?=please\\s)',
    ',\\s*then\\s+',
    `\\s+(?=so (?:${SO_SUBJECTS}) )`,
    '\\s+(?=because |since )',
    // `in the wiki where we keep the minutes, ...`: what the site holds says which site.
    ',?\\s+(?=where (?:we|our|i|my|the|they|people|everyone)\\b)',
    // A reason after the request (`..., I don't need it`, `... as it is no longer used`).
    ",\\s*(?=(?:i|we)(?:'m|'ve|'d|'ll| am| are| have| don't| do not| no longer| won't| can't)\\s)",
    '\\s+(?=as (?:it|they|this|that|we|i)\\s)',
    // (`..., it is not needed any more`.)
    ",\\s*(?=(?:it|this|that|they)(?:'s|'re| is| are| was| were)\\s)",
    // A purpose after the request (`... to keep things tidy`, `... for reference`).
    // (Not the wish itself: `I'd like to see X`, `in order to see`.)
    `(?<!\\b(?:in order|like|need|needs|want|wants|wish|going|have|has|able))\\s+(?=(?:in order )?to (?:${PURPOSES})\\b)`,
    '\\s+(?=for reference\\b|before \\w+ing\\b)',
    // What is not to be done instead (`..., don't wait for the timer`, `instead of waiting`).
    ",\\s*(?=(?:don't|do not|no need to)\\s)",
    '\\s+(?=(?:instead of|rather than) \\w+ing\\b)',
    // (`log me in before we edit anything`: what is done after the request is why.)
    '\\s+(?=(?:before|after|once|until|while) (?:we|i|you|they|anyone|someone|somebody|people)\\s)',
    `,\\s+(?=(?:please\\s+)?(?:${REQUEST_VERBS})\\s+(?:it|them|that|this|the|a|an|my|our|every|all|each|any|me|us)\\b)`,
    // `The flow is spamming people — disable it`, `I want to reread it: pull up X`, `I'll finish
    // it later, but create a draft`: a dash, a colon or a `but` before a request's verb.
    '\\s+(?:[—–]|--)\\s+',
    // (A colon after a clause of one's own only: `Page X: open it` is a label.)
    `(?:(?<=^(?:i|we|i'm|i've|i'd|i'll|we're|we've|it's|there's|here's|here is|this|that|before|after|since|because|once|when)\\s[^:;]*)\\s*:|,\\s*but)\\s+(?=(?:please\\s+|first\\s+)*(?:${REQUEST_VERBS})\\b)`,
    // `..., can you mark it as closed?`: a question that asks.
    ',\\s*(?=(?:could|can|would|will) (?:you|u)\\b)',
  ].join('|'),
  'i',
)

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
  // (`show all packages (need the internal ones too, so sign in)`: an aside in brackets says
  // why or what else, never what is asked.)
  const asides: string[] = []
  const held = intent
    .replace(QUOTED, (q) => `\uE000${quoted.push(q) - 1}\uE000`)
    .replace(/\s*\(([^()]*)\)/g, (_, aside: string) => {
      asides.push(aside.trim())
      return ''
    })
    // (`rename the tab A to B and deploy`: how the app applies a change, no act of its own.)
    .replace(FINISHING_STEP, (step: string) => {
      asides.push(step.replace(/^[\s,;]*(?:and|then)?\s*/i, '').trim())
      return ''
    })
  const restore = (c: string) => c.replace(/\uE000(\d+)\uE000/g, (_, i: string) => quoted[+i]!)
  const aside = asides.map(restore).join('. ')
  const withAsides = (clauses: Clauses): Clauses =>
    asides.length
      ? { request: clauses.request, context: [clauses.context, aside].filter(Boolean).join('. ') }
      : clauses
  const clauses: Array<{ text: string; afterSo: boolean; sentence: number; question: boolean }> = []
  for (const [sentence, text] of held.split(/(?<=[.!?;])\s+/).entries()) {
    // `split` with groups interleaves what they caught: `so` where the next clause follows it.
    // (A place described by what it holds ends at its comma: `where we run the flows, click X`.)
    const parts = text.split(BREAKS).flatMap((p) => {
      const comma = p && /^where\b/i.test(p) ? p.search(/,\s+\S/) : -1
      return comma > 0 ? [p!.slice(0, comma), p!.slice(comma + 1).trim()] : [p]
    })
    let afterSo = false
    for (const part of parts) {
      if (part === undefined) continue
      if (/^so$/i.test(part)) {
        afterSo = true
        continue
      }
      const clean = part.replace(/[.!?;,]+$/, '').trim()
      if (clean) clauses.push({ text: clean, afterSo, sentence, question: /\?\s*$/.test(part) })
      afterSo = false
    }
  }
  const whole = asides.length ? restore(held).trim() : intent
  if (clauses.length < 2) return withAsides({ request: whole, context: '' })
  // (`Is there a page named X? Just match on the names please.`: a question asks too, unless
  // another clause names the act outright: `did anyone report X? search the tracker`.)
  const direct = clauses.filter((c) => DIRECT.test(c.text))
  const said = (c: (typeof clauses)[number]) =>
    ASKING.test(c.text) ||
    /\bplease\b/i.test(c.text) ||
    (c.question && !STATEMENT.test(c.text) && direct.every((d) => d === c))
  // A clause that is no statement asks, unless another says outright that it asks (`Issue 6 is
  // done now, can you mark it as closed?`).
  const outright = clauses.some((c) => !SUBORDINATE.test(c.text) && said(c))
  const asks = clauses.map(
    (c) => !SUBORDINATE.test(c.text) && (said(c) || (!outright && !STATEMENT.test(c.text))),
  )
  // `I need to look at some flows. Could you sign me in?`: a wish said beside a request that
  // names its act outright is why it is asked.
  const outrightAct = clauses.some((c, i) => asks[i] && DIRECT.test(c.text))
  if (outrightAct) for (const [i, c] of clauses.entries()) if (WISH.test(c.text)) asks[i] = false
  // `I need to change a flow, so sign me in`: what is asked after `so` is the request.
  for (const [i, c] of clauses.entries())
    if (c.afterSo && asks[i])
      for (const [j, d] of clauses.entries())
        if (j < i && d.sentence === c.sentence) asks[j] = false
  // `X is asking me to sign in, can you do that?`: what is to be done is said before.
  if (clauses.every((c, i) => !asks[i] || DOES_THAT.test(c.text)))
    return withAsides({ request: whole, context: '' })
  const text = (list: typeof clauses) => list.map((c) => restore(c.text)).join('. ')
  // `blog post 'Leek Trench'. show it`: the clause that opens with its verb leads, unless it
  // only adds to another that asks too (`Can you set up a page X? Put 'Y' in it.`).
  const asking = clauses.filter((_, i) => asks[i])
  const leads = (c: (typeof clauses)[number]) =>
    IMPERATIVE.test(c.text) && !(asking.length > 1 && c !== asking[0] && POINTS_BACK.test(c.text))
  const request = text([...asking.filter(leads), ...asking.filter((c) => !leads(c))])
  if (!request) return withAsides({ request: whole, context: '' })
  return withAsides({ request, context: text(clauses.filter((_, i) => !asks[i])) })
}
