/**
 * Courtesy around a request (`Sorry to bother you, but would you mind deleting the page X?
 * Thanks so much.`): apologies, hedges and thanks say nothing of what is asked, and `would you
 * mind [deleting]` asks to delete. Each is dropped or rewritten to the plain request, so the
 * clause splitter (`clauses.ts`) and the parser see the request's own verb first; chat shorthand
 * (`pls`, `im`, `dont`) is written out first.
 */
import { verbLemma } from './meaning/lemma'

/** Apologies and hedges said before the request, up to a comma or `but`. */
const LEAD = new RegExp(
  String.raw`^\W*(?:(?:hi|hello|hey)(?: there)?[,!]?\s+)?(?:` +
    [
      String.raw`sorry (?:to (?:bother|trouble|ask|pester|interrupt)(?: you)?|for (?:the|this) [^,]{1,40}?)`,
      String.raw`(?:i )?hope (?:this|it) (?:isn['’]t|is not|won['’]t be|is) (?:a pain|too much(?: trouble)?|ok(?:ay)?|fine)`,
      String.raw`apologies for [^,]{1,40}?`,
      String.raw`if (?:it['’]s|it is) not too much (?:trouble|bother|to ask)`,
      String.raw`when you (?:get|have) a (?:chance|moment|minute|sec(?:ond)?)`,
      String.raw`(?:quick|small|little) (?:favou?r|question|request)`,
      String.raw`if you (?:could|can|would|don['’]t mind)`,
    ].join('|') +
    String.raw`)\s*(?:[,:;.!-]+\s*(?:but\s+)?|\s+but\s+)`,
  'i',
)

/** A greeting alone before the request, closed by its punctuation (`morning! ...`, `hi, ...`). */
const GREETING =
  /^\W*(?:hi|hello|hey|hiya|yo|(?:good )?(?:morning|afternoon|evening))(?: there| all| team| folks)?\s*[,!.]+\s*/i

/**
 * Why it is asked, before who asks (`for the audit I need X`, `before the review, I need Y`):
 * the reason says nothing of what is asked.
 */
const PURPOSE =
  /^\W*(?:for|before|ahead of|after) (?:the|my|our|this|today['’]s|tomorrow['’]s|next|a) (?:[\w'’-]+ ){0,3}?[\w'’-]+,?\s+(?=(?:i|we)(?:['’]d| would)? (?:need|want|like)\b)/i

/** Courtesy said after the request, after a space (`, if you don't mind`, `for me`). */
const TAIL_CLAUSE = [
  String.raw`if (?:you don['’]t|you do not|ya don['’]t) mind`,
  String.raw`if (?:that['’]s|that is|it['’]s|it is) (?:no|not too much|not a) (?:trouble|bother|problem)`,
  String.raw`if (?:that['’]s|that is|it['’]s|it is) (?:ok(?:ay)?|alright|all right|fine)`,
  String.raw`if (?:possible|you can|you could|you would)`,
  String.raw`when(?:ever)? you (?:get|have) (?:a|the) (?:chance|moment|minute|sec(?:ond)?|time)`,
  String.raw`for me`,
]

/**
 * Thanks said after the request, only after a comma or a sentence's end (`search the wiki for
 * thanks` looks for that word).
 */
const TAIL_THANKS = [
  String.raw`(?:many )?(?:thanks|thank you|thx|cheers)(?: ever)?(?: so much| a lot| very much| in advance| again)?`,
  String.raw`(?:much |greatly )?appreciated`,
  String.raw`i['’]d be (?:very |so |really )?grateful`,
  String.raw`(?:that|it) would be (?:great|lovely|helpful|much appreciated)`,
  String.raw`no rush(?: at all)?`,
]

const TAIL = new RegExp(
  String.raw`(?:(?:[,;]\s*|\s+)(?:${TAIL_CLAUSE.join('|')})|(?:[,;]\s*|\s*[.!?]\s+|(?<=['"’”])\s+)(?:${TAIL_THANKS.join('|')}))\s*[.!?]*\s*$`,
  'i',
)

/** Hedges inside a request (`could you [possibly] upload`, `would you be able to`). */
const HEDGES: Array<[RegExp, string]> = [
  [
    /\b(could|can|would|will) (you|u) (?:please )?(?:possibly|perhaps|maybe|kindly|just|quickly)\b/gi,
    '$1 $2',
  ],
  [
    /\b(?:would|will) you be able to|\bare you able to|\bwould it be possible (?:for you )?to|\bis it possible (?:for you )?to|\bi (?:was|am) wondering if you (?:could|can)|\bi wonder if you (?:could|can)|\bdo you think you (?:could|can)/gi,
    'could you',
  ],
]

/** `would you mind [manually] deleting`: the gerund's verb, asked (`could you manually delete`). */
const MIND = /\b(?:would|do|will) you mind (?:(\w+ly) )?(\w+ing)\b/gi

/** Chat shorthand (`pls`, `im locked out`, `dont`), written out as the clause splitter reads it. */
const SHORTHAND: Array<[RegExp, string]> = [
  [/\b(?:pl[sxz]|pleez|pleaze|plis)\b/gi, 'please'],
  [/\bim\b/g, "I'm"],
  [/\b(?:shld|shd|shud)\b/gi, 'should'],
  [/\b(?:wud|wld)\b/gi, 'would'],
  [/\b(can|could|would|will|do|did|are|r) u\b/gi, '$1 you'],
  [/\bive\b/g, "I've"],
  [/\b(do|does|did|is|are|was|were|ca|wo|have|has|should|could|would)nt\b/gi, "$1n't"],
]

/** `text` without the courtesy around its request (see the module's comment). */
export function withoutCourtesy(text: string): string {
  let out = text
  for (const [pattern, plain] of SHORTHAND) out = out.replace(pattern, plain)
  out = out.replace(GREETING, '').replace(LEAD, '')
  // (`Before the call I want to re-read it, so bring up X`: a reason the splitter reads whole.)
  if (!/,\s*(?:so|and so|then)\s/i.test(out)) out = out.replace(PURPOSE, '')
  // (Several in a row: `..., if you don't mind. Thanks so much!`)
  for (let before = ''; before !== out;) {
    before = out
    out = out.replace(TAIL, '')
  }
  for (const [pattern, plain] of HEDGES) out = out.replace(pattern, plain)
  out = out.replace(MIND, (_, how: string | undefined, gerund: string) =>
    ['could you', how, verbLemma(gerund.toLowerCase())].filter(Boolean).join(' '),
  )
  return out.trim() || text
}
