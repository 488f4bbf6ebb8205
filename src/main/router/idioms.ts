/**
 * Requests said without their verb in front (`scratch.py should be called utils.py`, `flow
 * Billing becomes Invoicing`, `'Open 9 to 5' should be the new text of the page`, `logo.svg
 * needs to go into the media files`, `Spam Article has to go`): each idiom is rewritten to the
 * plain request it stands for (`rename to`, `change the text of`, `upload into`, `delete`), so
 * the parser reads its verb; so is a request made with a tool (`use the tracker to raise a bug`)
 * and one behind a label (`Agent task: ...`). Values are already marks here (`parseIntent`), so
 * a quoted text never matches.
 */

import { verbLemma } from './meaning/lemma'

/** The base form of a participle the idioms read (`attached` → `attach`, `tagged` → `tag`). */
function baseOf(participle: string): string {
  const word = participle.toLowerCase()
  if (word.endsWith('gged')) return word.slice(0, -3)
  if (/(?:ach|ash|ct|ad|rm)ed$/.test(word)) return word.slice(0, -2)
  return word.slice(0, -1)
}

/**
 * An idiom of a state wished for: `I want`, `we need`, `I'd like` (any lead kept as `$1`), then
 * `rest` (a regular expression's source).
 */
function wished(rest: string): RegExp {
  return new RegExp(String.raw`^(.*?)\b(?:i|we)(?:'d| would)? (?:want|need|like)` + rest, 'i')
}

/** An idiom and the words it stands for (or a function that writes them). */
const IDIOMS: Array<[RegExp, string | ((match: string, ...groups: string[]) => string)]> = [
  // `on our gardening blog, pull up the post X`: where, said first, goes after the request.
  [/^\s*((?:on|in|at|inside|within|over on|over at)\s+[^,;:]{1,60}?),\s+(.+)$/i, '$2 $1'],
  // A second factor by its abbreviation (`2FA`, `TOTP`).
  [/\b(?:2fa|mfa|totp|otp)\b/gi, ' two-factor '],
  // `pages that have X in their name`: pages with X in their name.
  [/\b(?:(?:that|which) )?(?:have|has) (?=[^,.;]{1,40}? in (?:its|their|the) )/gi, ' with '],
  // Chat shorthand.
  [/\bw\/(?=\s)/gi, ' with '],
  [/\b(?:pw|pwd|passwd)\b/gi, ' password '],
  [/\blib\b/gi, ' library '],
  [/\b(?:pic|pics|img)\b/gi, ' picture '],
  // (`full-text search`: `full` is no verb; a search of the text.)
  [/\bfull[- ]text\b/gi, ' text '],
  [/\bpkgs\b/gi, ' packages '],
  [/\bpkg\b/gi, ' package '],
  [/\bincl\b\.?/gi, ' including '],
  // Acts said with make, call and give (`make it say X`, `call it Y`, `give it a better name`).
  [/\bmake (it|that|this|the [^,.;]+?) say\b/gi, ' change $1 to say '],
  // `change what notes.md says to X`: what a thing says is its text.
  [
    /\b(change|update|edit|set|replace|rewrite) what ([^,.;]{1,60}?) (?:says|reads|contains)\b/gi,
    ' $1 the text of $2 ',
  ],
  [/\bmake (it|that|this|the [^,.;]+?) (?:disappear|vanish|go away)\b/gi, ' delete $1 '],
  [/\bmake (it|that|this|the [^,.;]+?) stop\b/gi, ' disable $1 '],
  // `make the flow X disabled`, `make me logged in`: the act that brings that state.
  [
    /\bmake ((?:it|that|this|them|the|my|our)\b[^,.;]{0,60}?) (disabled|enabled|deleted|removed|renamed|archived|trashed)\b/gi,
    (_: string, what: string, done: string) => ` ${baseOf(done)} ${what} `,
  ],
  [/\bmake (?:me|us) (?:logged|signed) (?:in|on)(?: to| into)?\b/gi, ' log in to '],
  [/\bmake (?:the|a) (?:login|log-in|sign-in|signin)\b(?: for (?:me|us))?/gi, ' log in '],
  [/\bcall (it|that|this|them) /gi, ' rename $1 to '],
  [
    /\bgive ((?:it|that|this|the|a|an|my|our|his|her|their)\b[^,.;]{0,60}?) an? (?:better|different|proper|new|nicer) (?:name|title|heading)\b/gi,
    ' rename $1 to ',
  ],
  // Signing in said otherwise (`let me into`, `get me logged in`, `sign me in`).
  [/\b(?:let|get) (?:me|us) (?:in|into|on)(?: to)?\b/gi, ' log in to '],
  [/\bget (?:me |us )?(?:logged|signed) (?:in|into|on)(?: to)?\b/gi, ' log in to '],
  [/\b(?:sign|log) (?:me|us) (?:back )?(?:in|into|on)(?: to)?\b/gi, ' log in to '],
  [/\bget into\b/gi, ' log in to '],
  // `Enter my password to get into X`: the password is how one signs in.
  [
    /\b(?:enter|type|submit|put in|give)\s+(?:in\s+)?(?:my|the|our)\s+(?:password|credentials|passcode|login details)\b/gi,
    ' log in with my password ',
  ],
  [/\b(?:finish|complete) (?:the )?(?:logging|signing) (?:in|on)(?: to)?\b/gi, ' log in to '],
  [/\b(?:sign|log) (?:me|us) out\b/gi, ' log out '],
  [/\bmake (.+?) belong to\b/gi, ' assign $1 to '],
  // Renames (`X should be called Y`, `flow A becomes B`: to rename X to Y).
  [
    /^([^:]*:\s*)?(.*?)\s*\b(?:should|must|needs? to|has to|is to) be (?:re)?(?:called|named|titled)\b/i,
    '$1 rename $2 to ',
  ],
  [
    /^([^:]*:\s*)?(.*?)\s*\b(?:becomes|(?:should|must|has to|needs? to|is to) become)\b/i,
    '$1 rename $2 to ',
  ],
  // `Staff List needs renaming to Team Directory`, `tab Misc needs a better name: Utilities`.
  [
    /^([^:]*:\s*)?(.*?)\s*\b(?:needs?|wants?|could use|should get) (?:renaming|retitling|a rename|a (?:better|new|different) (?:name|title))\b\s*(?:to|:|,)?/i,
    '$1 rename $2 to ',
  ],
  // `change the filename of X to Y`, `change X's title to Y`: a rename.
  [
    /\b(?:change|update|edit|set|alter|modify|fix)\s+(?:the\s+)?(?:file\s?name|name|title|heading|headline)\s+of\b/gi,
    ' rename ',
  ],
  [
    /\b(?:change|update|edit|set|alter|modify)\s+([^,.;]+?)['’]s\s+(?:file\s?name|name|title|heading|headline)\s+to\b/gi,
    ' rename $1 to ',
  ],
  [/\b(?:a |the )?new (?:title|name)(?: is| should be| of)?\b/gi, ' rename to '],
  // A new text.
  [
    /^([^:]*:\s*)?(.*?)\s*\b(?:should|must|needs? to) be (?:the |its )?(?:new )?(?:text|content|wording|body) of\b(.*)$/i,
    '$1 change the text of $3 to $2 ',
  ],
  [
    /\b(?:make|put|set) (?:that|this|it) (?:as )?(?:the )?(?:new )?(?:text|content) of\b/gi,
    ' change the text of ',
  ],
  [
    /\bneeds? (?:its|the|a) (?:text|content|wording) (?:replaced|changed|updated)\b/gi,
    ' change the text ',
  ],
  // The latest version of a thing is the thing as it is now, no version asked for.
  [
    /\b(?:the )?(?:latest|newest|current|most recent) (?:version|release) of\b/gi,
    ' the details of ',
  ],
  // (`its readme and the latest version`: what the thing is now, its details.)
  [
    /\b(?:the |its )?(?:latest|newest|current|most recent) (?:version|release)\b/gi,
    ' the details ',
  ],
  // Where an upload comes from says nothing of where it goes (`my local file`).
  [/\blocal (?=(?:file|document|picture|photo|image|spreadsheet|pdf|copy)s?\b)/gi, ''],
  // `complete list of X`: how much of a list, no verb (`complete` is one too).
  [/\b(?:complete|full|whole|entire) (list|set|inventory|overview|listing)\b/gi, ' $1 '],
  // A state wished for (`I want the page X to say Y`, `I want the tiddler 'Temp' gone`): the
  // act that brings it about.
  [
    wished(
      String.raw` (.+?) to (?:be (?:re)?(?:called|named|titled)|show up as|appear as|be shown as|be listed as)\b`,
    ),
    '$1 rename $2 to ',
  ],
  [wished(String.raw` (.+?) to (?:say|read)\b`), '$1 change $2 to say '],
  // `I need a folder named X`, `I'd like there to be a page X that says Y`: a new thing named
  // is one to make (`to exist` says so again).
  [
    wished(
      String.raw`\s+(?:there to be\s+)?(an?|one)\s+((?!copy|list|backup|overview|summary|rundown)(?:new\s+)?(?:[\w-]+\s+){0,3}?[\w-]+\s+(?:named|called|titled|zzvaluezz\d+[xf]?)\b)`,
    ),
    '$1 create $2 $3',
  ],
  [/\s+to exist\s*$/i, ' '],
  [wished(String.raw` (.+?) to (?:carry|have|get|bear) (?:the |a )?tag\b`), '$1 tag $2 with '],
  // `I want the tiddler X to show up under the Favourite tag`: to tag it so.
  [
    wished(
      String.raw` (.+?) to (?:show up|appear|be listed|be filed|be found|sit|live)\s+(?:under|in|with)\s+(?:the\s+|a\s+)?(zzvaluezz\d+x)\s+tag\b`,
    ),
    '$1 tag $2 with $3 ',
  ],
  // `the file is named a.pdf, it should be b.pdf`: to rename it.
  [
    /\bis\s+(?:named|called|titled)\s+(zzvaluezz\d+[xf])\s*[,;]?\s*(?:but\s+|and\s+)?(?:it|that|this)\s+(?:should|must|needs to)\s+(?:be|become)\s+(?:called\s+|named\s+|titled\s+)?/gi,
    ' rename $1 to ',
  ],
  // `I want the tiddler Gym renamed Fitness Log`, `I need x.har attached to bug #5`: the act
  // whose participle says the state.
  [
    wished(
      String.raw` (.+?) (renamed|retitled|deleted|removed|attached|uploaded|tagged|trashed|disabled|enabled|archived|updated|changed)\b`,
    ),
    (_: string, lead: string, what: string, done: string) => ` ${lead} ${baseOf(done)} ${what} `,
  ],
  // `take the page X off the wiki`: to delete it; `flip bug #14 over to Rejected`: to set it.
  [/\btake ([^,.;]+?) (?:off|down from|out of)\b/gi, ' delete $1 from '],
  [/\b(?:flip|switch) ([^,.;]*?zzvaluezz\d+n[^,.;]*?) (?:over )?to\b/gi, ' set $1 to '],
  // `check which pages include X`: to find which.
  [/\bcheck (which|whether|if)\b/gi, ' find $1'],
  // `every package while signed in`: as one signed in sees them.
  [/\b(?:while|when) (?:signed|logged) in\b/gi, ' signed in '],
  // `counting the private ones`: what a list includes.
  [/\bcounting (?=the |those |any |all )/gi, ' including '],
  // `point the latest dist-tag of X at 2.0.0`: to set it to that.
  [/\bpoint\s+((?:the|a|an|my|our|its)\s+[^,.;]+?)\s+(?:at|to)\s+/gi, ' set $1 to '],
  // `make Weekly Roundup a sticky post`: to set what a named thing is, not to make one.
  [/\bmake\s+(zzvaluezz\d+[xnf]?)\s+(a|an)\b/gi, ' set $1 as $2 '],
  // `give tiddler Draft 3 the title Final Essay`: to rename it.
  // (`the new name` may already read `rename to`: `give the tab Misc the new name Utilities`.)
  [
    /\bgive ([^,.;]+?) (?:(?:the|a) (?:new )?(?:title|name|file\s?name)\b|\s*rename to\b)/gi,
    ' rename $1 to ',
  ],
  // `get it onto the Jupyter server`, `get x.pdf into the media manager`: to upload it there.
  [
    /\bget\s+(it|them|this|that|zzvaluezz\d+f)\s+(?:up\s+)?(?:onto|into|on to|in to|up to)\b/gi,
    ' upload $1 to ',
  ],
  // `show me everything in the Events category`: what a list of it shows.
  [
    /\b(?:show|give|tell)\s+(?:me\s+|us\s+)?(everything|all)\s+(?:that(?:'s| is)\s+)?(in|under|inside|filed under|filed in)\b/gi,
    ' list $1 $2',
  ],
  // `which files does the folder X contain?`, `which files the folder X contains`: what is in it.
  [
    /\b(which|what)\s+([^,.;?]{1,40}?)\s+(?:(?:does|do|did)\s+)?((?:the|my|our|this|that|its)\s+[^,.;?]{1,60}?)\s+(?:contains?|holds?|includes?)\b/gi,
    ' $1 $2 are in $3 ',
  ],
  // `what's sitting in my folder`: what is in it.
  [/\bwhat(?:'s| is| are)\s+(?:sitting|stored|kept|living|lying|saved)\s+in\b/gi, " what's in "],
  // `could you tell me what's in my reports folder`: the question itself.
  [
    /^(?:\W*(?:could|can|would|will)\s+you\s+)?(?:please\s+)?(?:tell|show)\s+(?:me|us)\s+what(?:'s|\s+is|\s+are)\s+(?=in\b|inside\b|under\b)/i,
    "what's ",
  ],
  // `have we written anything about potatoes?`: to search what was written.
  [
    /\b(?:have|did|has) (?:we|you|i|they|anyone|someone) (?:ever |already )?(?:written|wrote|posted|published|blogged|covered|mentioned) (?:(?:anything|something|a post|any posts?) )?(about|on)\b/gi,
    ' search for anything $1 ',
  ],
  // `look through the tracker for X`: to search it.
  [
    /\b(?:look|go|dig|comb|trawl|rummage|hunt)\s+(?:thru|through)\s+(?=(?:the|our|my|your)\b)/gi,
    ' search ',
  ],
  // `search the wiki and tell me which pages mention X`: the question is what is searched for.
  [
    /\s+and\s+(?:tell|show|let)\s+(?:me|us)(?:\s+know)?\s+(?=(?:which|what|whether|if)\b)/gi,
    ' for ',
  ],
  // `where (in the wiki) do we write about X?`: to search what was written.
  [
    /\bwhere\s+(in\s+[^?,;]+?\s+)?(?:do|did|have|has)\s+(?:we|you|i|they|people|folks|anyone|someone)\s+(?:ever\s+)?(?:write|wrote|written|talk|talked|mention|mentioned|cover|covered|document|documented)\s+(about|on)\b/gi,
    ' search the text of pages $1 $2 ',
  ],
  // `call analysis.ipynb 'sales.ipynb' instead`, `call the Import flow 'Nightly Import'`.
  [
    /\bcall ((?:the |my |our )?[^,.;]*?zzvaluezz\d+[xf][^,.;]*?)\s+(zzvaluezz\d+[xf])/gi,
    ' rename $1 to $2',
  ],
  // `I need report.pdf on ticket #8`, `I want x.xlsx among the media files`: to upload it there.
  [
    wished(
      String.raw`\s+(zzvaluezz\d+[xf])\s+(?:to be |available |uploaded )?(?:on|in|into|onto|among|inside)\b`,
    ),
    '$1 upload $2 to ',
  ],
  [
    wished(String.raw` (.+?) to (?:show|be|have the status|be marked(?: as)?|be set to)\b`),
    '$1 set $2 to ',
  ],
  [wished(String.raw` (.+?) (?:gone|removed|deleted|erased)\b`), '$1 delete $2 '],
  [
    wished(
      String.raw` (.+?) (?:(?:off|out of) (?:the |our |my )?\w+ )?(?:and )?in(?:to)? the (?:trash|bin)\b`,
    ),
    '$1 trash $2 ',
  ],
  // `open an authenticated session`, `establish a session`: to sign in.
  [
    /\b(?:open|start|establish|obtain|get|begin|create|initiate|set up)\s+(?:(?:me|us)\s+)?(?:(?:a|an|my|the)\s+)?(?:new\s+)?(?:(?!logged|signed|authenticated|login|user)([\w-]+)\s+)?(?:(?:logged[- ]in|signed[- ]in|authenticated|login|user)\s+)?session\b/gi,
    (_: string, site?: string) => (site ? ` log in to ${site} ` : ' log in '),
  ],
  // Signing in said as the state it brings (`I need a session on X`, `I want enter in X`).
  [/\b(?:need|want) to be (?:signed|logged) (?:in|on)(?: to)?\b/gi, ' log in to '],
  [
    /\b(?:a |an )?(?:logged[- ]in |signed[- ]in |authenticated |login )?session (?:on|in|with|at|for|to)\b/gi,
    ' log in to ',
  ],
  [/\ban?\s+(\w+)\s+(?:logged[- ]in |signed[- ]in )?session\b/gi, ' log in to $1 '],
  [/\benter (?:in|into|on)\b/gi, ' log in to '],
  [/\b(want|need) (?:to )?enter (?!(?:the|a|an|my|your) )/gi, ' log in to '],
  // `make delete of the file X`, `do a rename of X`: the act named by its noun.
  [
    /\b(?:make|do|perform|run|carry out)\s+(?:a\s+|an\s+|the\s+)?((?:[a-z-]+\s+){0,2}?)(delete|deletion|change|update|edit|rename|upload|search|copy|backup|export|list|listing)\s+(?:of|to|on|in|for)\b/gi,
    // (What kind of act it is stays after it: `run a [text] search on X` searches the text.)
    (_: string, kind: string, act: string) => ` ${act} ${kind}`,
  ],
  // `what did version 3.1.0 look like`: to show it as it was.
  [/\bwhat (?:does|did|do|would) (.+?) look like\b/gi, ' show $1 '],
  // `fetch the page X and return it`: what an agent does with the answer, no other request.
  [
    /\band (?:return|give|send|hand) (?:it|them|that|the (?:result|results|contents|text|answer))(?: back)?(?: to me)?\b/gi,
    ' ',
  ],
  // `anything on rhubarb`: what it is about, no place it is on.
  [/\b(anything|something) on\b/gi, ' $1 about '],
  // `gimme the readme of X`: to show it.
  [/\b(?:gimme|give me|get me|fetch me|bring me)\b(?! (?:logged|signed|in|into|on)\b)/gi, ' show '],
  // `issue 6: status -> Rejected`: a field given a new value by an arrow is set to it.
  // (`status New -> In Progress`: from the state it has.)
  [/\b(status|state|priority)(?:\s+(?:from\s+)?[^\s,;:]+)?\s*(?:->|→|=>)\s*/gi, ' set $1 to '],
  // (`tiddler X text → 'Y'`, `post title Bees → Bees Again`: so is a text or a name.)
  [
    /\b(text|content|contents|body|title|name|heading)\s*(?:->|→|=>)\s*(?=zzvaluezz|[A-Z])/g,
    ' set $1 to ',
  ],
  // `plot.png -> plot-old.png`: a file to a file is a new name.
  [/^(\W*)(zzvaluezz\d+f)\s*(?:->|→|=>)\s*(zzvaluezz\d+f)/i, '$1 rename $2 to $3 '],
  // `make its text 'X'`: to set that field to it.
  [
    /\bmake (its|their|the) (text|content|contents|body|title|status|description)\s+(?=zzvaluezz)/gi,
    ' set $1 $2 to ',
  ],
  // `type 'firewall' into the wiki's search box`: a search of it for what is typed.
  [
    /\btype\s+(zzvaluezz\d+[xf])\s+(?:into|in)\s+(?:the\s+)?([^,.;]*?)\s*search\s*(?:box|bar|field)\b/gi,
    ' search $2 for $1 ',
  ],
  // `click the Edit tab on page X and replace the text with Y`: the clicks on the way are how;
  // what follows them is the request.
  [
    /^\W*(?:(?:double-)?click|hit|press|tap|select|choose|tick)\s+(?:on\s+)?(?:the\s+)?[^,;]{1,60}?\b(?:button|tab|link|icon|menu|option|field|box|dropdown|toggle|checkbox)\b[^,;]{0,60}?(?:,\s*|\s+)(?:and\s+)?(?:then\s+)?(?=(?:replace|change|rename|edit|delete|remove|upload|attach|send|save|create|enter|fill|type|set|sign|log|submit|call|give|pick|choose|select)\b)/i,
    ' ',
  ],
  // `page tmp:scratch -> deleted`: the state after the arrow is the act that brings it about.
  [
    /^(.*?)\s*(?:->|→|=>|:)\s*(?:\w+ly )?(deleted|removed|trashed|erased|disabled|enabled|archived|gone)\b(?:\s*(?:[+,&]|and)\s*deployed)?[^,;]*$/i,
    (_: string, what: string, done: string) =>
      ` ${done.toLowerCase() === 'gone' ? 'delete' : baseOf(done)} ${what} `,
  ],
  // `flow tab 'Alerts' renamed to 'Pager Alerts'`: the state said after the thing, its act.
  [/^([^,;]*?)\s+(?:renamed|retitled)\s+(?:to|as)\b/i, ' rename $1 to '],
  // `put my file sales.csv inside jupyter`, `get a.pdf into the server`: a file sent there.
  [
    /\b(?:put|get|drop|pop|stick|place)\s+(?!rid\b)([^,.;]*?zzvaluezz\d+f[^,.;]*?)\s+(?:in|into|inside|onto|on|up on|up to|to)\b/gi,
    ' upload $1 to ',
  ],
  // `mockup.pdf onto #2`, `harbor.jpg -> MediaWiki`: a file said first, then where it goes.
  [/^(\W*)(zzvaluezz\d+f)\s+(?:onto|into|to|->|→|=>)\s+/i, '$1 upload $2 to '],
  // Into a place: an upload; to go, a delete.
  [/^(.*?)\s*\b(?:needs?|has|have) to go (?=into|onto|in|on|to)\b/i, ' upload $1 '],
  [/^(.*?)\s*\b(?:needs?|has|have) to go\b/i, ' delete $1 '],
]

/**
 * `use the tracker to raise a bug`, `could you use WordPress to save a post`: the request after
 * `to`, on what is used (`raise a bug on the tracker`).
 */
const USE_TO =
  /^(\W*(?:please\s+)?(?:(?:could|can|would|will)\s+you\s+)?(?:please\s+)?)(?:use|using)\s+(.+?)\s+to\s+(.+)$/i

/**
 * A label before a colon that only says who asks (`Agent task:`, `Step 2:`, `Plan step:`): no part
 * of the request.
 */
const LABEL =
  /^\W*(?:(?:agent|assistant|bot|plan|cleanup|setup|final|next|last|sub)[\s-]*)?(?:task|step|request|query|job|goal|action|instruction|todo|to-do|need|needed|wanted)(?:\s+\d+)?\s*:\s*/i

/**
 * What comes first of a bigger task (`I'll edit pages later, but first things first: log me in`,
 * `...; first, sign me in`, `let's start by removing X`): the step asked, without the rest.
 */
const FIRST_STEP =
  /^(?:.*?\bfirst things first|(?:.*?[,;:]\s*)?(?:but\s+)?(?:first(?:ly)?|to start(?: with)?|to begin(?: with)?))\s*[:,]\s*/i
const START_BY =
  /\b(?:(?:let['’]s|let us|we['’]ll|i['’]ll)\s+)?(?:start|begin)\s+(?:off\s+)?by\s+(\w+ing)\b/i

/** `text` with the idioms of {@link IDIOMS} rewritten as plain requests. */
export function plainRequest(text: string): string {
  let out = text
    .replace(FIRST_STEP, '')
    .replace(START_BY, (_, gerund: string) => verbLemma(gerund.toLowerCase()))
    .replace(LABEL, '')
    .replace(USE_TO, (_, lead: string, used: string, rest: string) => {
      const end = /[.!?]+\s*$/.exec(rest)?.[0] ?? ''
      return `${lead}${rest.slice(0, rest.length - end.length)} on ${used}${end}`
    })
  // (Each form by its own overload of `replace`.)
  for (const [pattern, plain] of IDIOMS)
    out = typeof plain === 'string' ? out.replace(pattern, plain) : out.replace(pattern, plain)
  return out
}
