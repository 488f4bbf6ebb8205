// How the router reads an intent said with its reasons, or without its verb up front: the
// request is split from the reasons (clauses.ts), idioms read as the plain request they stand for
// (idioms.ts).
import { describe, expect, it } from 'vitest'
import { splitClauses } from '../../../src/main/router/clauses'
import { plainRequest } from '../../../src/main/router/idioms'
import { parseIntent } from '../../../src/main/router/parseIntent'

describe('splitClauses', () => {
  it('keeps one clause whole', () => {
    expect(splitClauses('search the wiki for budget')).toEqual({
      request: 'search the wiki for budget',
      context: '',
    })
  })

  it('takes what is asked after so as the request, and what comes before as the reason', () => {
    expect(
      splitClauses('I need to change a flow in the Node-RED editor, so sign me in as dev.'),
    ).toEqual({
      request: 'sign me in as dev',
      context: 'I need to change a flow in the Node-RED editor',
    })
  })

  it('takes a last step that applies the change (and deploy) as context', () => {
    expect(splitClauses('rename the tab Flow 1 to Heating and deploy')).toEqual({
      request: 'rename the tab Flow 1 to Heating',
      context: 'deploy',
    })
    expect(splitClauses('change its Name to X, then hit Deploy').request).toBe(
      'change its Name to X',
    )
    expect(splitClauses('deploy the flow').request).toBe('deploy the flow')
  })

  it('takes an aside in brackets as context, never as the request', () => {
    expect(
      splitClauses('show all packages in the registry (need the private ones, so sign in)'),
    ).toEqual({
      request: 'show all packages in the registry',
      context: 'need the private ones, so sign in',
    })
    expect(splitClauses('search the wiki for "a (b) c"').request).toBe(
      'search the wiki for "a (b) c"',
    )
  })

  // What is asked, said with its reasons: [intent, request].
  const SPLITS: Array<[string, string]> = [
    ['The email flow is spamming people — deactivate the Email flow', 'deactivate the Email flow'],
    ['The email flow is spamming people -- deactivate the Email flow', 'deactivate the Email flow'],
    ['I want to reread it before I reply: pull up the post "Blight"', 'pull up the post "Blight"'],
    ["I'll finish it later, but create a draft named Bees", 'create a draft named Bees'],
    [
      'I want to analyse the logs, so first push access.log up to the server',
      'first push access.log up to the server',
    ],
    [
      'Could you log me into our DokuWiki before we edit anything?',
      'Could you log me into our DokuWiki',
    ],
    // A question asks too, unless another clause names the act outright.
    [
      'Is there a page with holiday in its name? Just match on names.',
      'Is there a page with holiday in its name. Just match on names',
    ],
    ['did anyone report the login loop? search the tracker', 'search the tracker'],
    // (A label before a colon is no clause: what follows is about it.)
    ['Holiday Lights flow in Node-RED: disable it', 'Holiday Lights flow in Node-RED: disable it'],
  ]

  it.each(SPLITS)(
    'splits at a dash, a colon after a clause, but, so first: %s',
    (intent, request) => {
      expect(splitClauses(intent).request).toBe(request)
    },
  )

  it('drops a purpose after so and whoever it is about, and one that leads the sentence', () => {
    expect(
      splitClauses('Attach notes.txt to issue #5 so the reviewers have them at hand.'),
    ).toEqual({
      request: 'Attach notes.txt to issue #5',
      context: 'so the reviewers have them at hand',
    })
    expect(
      splitClauses(
        'In order to see which notes exist, list every page under the meetings namespace',
      ),
    ).toEqual({
      request: 'list every page under the meetings namespace',
      context: 'In order to see which notes exist',
    })
  })

  it('takes a wish said beside a request that names its act as the reason', () => {
    expect(
      splitClauses('I need to look at some automations today. Could you sign me into the editor?'),
    ).toEqual({
      request: 'Could you sign me into the editor',
      context: 'I need to look at some automations today',
    })
    // Alone, a wish is the request.
    expect(splitClauses('I need to rename a file. Thanks!').request).toBe('I need to rename a file')
  })

  it('takes a place described by what it holds as where, up to its comma', () => {
    expect(splitClauses('where our flows run, click the inject called Sync')).toEqual({
      request: 'click the inject called Sync',
      context: 'where our flows run',
    })
    expect(splitClauses('log me into the place where our automation flows run').context).toBe(
      'where our automation flows run',
    )
  })

  it('ends a reason at a comma before a request made of me', () => {
    expect(
      splitClauses("I can't change anything on the wiki until I'm signed in, please sign me in"),
    ).toEqual({
      request: 'please sign me in',
      context: "I can't change anything on the wiki until I'm signed in",
    })
  })

  it('takes what others keep doing as why, and a purpose to see as no request', () => {
    expect(
      splitClauses(
        "Customers keep reporting a broken image; search the tracker for 'broken image' to see if we have it.",
      ).request,
    ).toBe("search the tracker for 'broken image'")
    // A wish to see is the request itself.
    expect(splitClauses("I'd like to see what the wiki page about the move says").request).toBe(
      "I'd like to see what the wiki page about the move says",
    )
  })

  it('ends a request before what it says of the thing, and drops what an agent does after', () => {
    expect(splitClauses('please erase the page Test Page, it is not needed any more').request).toBe(
      'please erase the page Test Page',
    )
    expect(
      parseIntent('fetch the contents of page ops:rota and return them').core.map((w) => w.word),
    ).not.toContain('return')
  })

  it('drops a purpose after so I can', () => {
    expect(
      splitClauses('Could you pull up Redmine issue 21 so I can read the description?'),
    ).toEqual({
      request: 'Could you pull up Redmine issue 21',
      context: 'so I can read the description',
    })
  })

  it('ends a clause at a comma before a request, and leads with the clause that has the verb', () => {
    expect(
      splitClauses("'Untitled 2' is an empty tiddler I made by accident, delete it please."),
    ).toEqual({
      request: 'delete it please',
      context: "'Untitled 2' is an empty tiddler I made by accident",
    })
    // What the request points back to stays in the context, which the router reads for it.
    expect(splitClauses("blog post 'Leek Trench', show it")).toEqual({
      request: 'show it',
      context: "blog post 'Leek Trench'",
    })
    // A second request that only adds to the first follows it.
    expect(
      splitClauses("Can you set up a wiki page named ops:rota? Put 'Two days' in it.").request,
    ).toBe("Can you set up a wiki page named ops:rota. Put 'Two days' in it")
    expect(splitClauses('Can you reopen issue #3? Set it back to New.').request).toBe(
      'Can you reopen issue #3. Set it back to New',
    )
  })

  it('takes the first step of a bigger task as the request', () => {
    const first = (intent: string) => parseIntent(splitClauses(intent).request)
    const signIn = first(
      'I need to fix some pages later, but first things first: log me into the wiki.',
    )
    expect([signIn.verb?.verbClass, signIn.sites.map((w) => w.word)]).toEqual(['auth', ['wiki']])
    expect(first('I need to pull files off the server later; first, sign me in.').sites).toEqual([])
    expect(first("We're tidying up; let's start by removing big-dump.csv").action).toBe('remove')
  })

  it('ends the request before a reason said after it', () => {
    expect(splitClauses("Throw away the tiddler Ideas Backup, I don't need it.")).toEqual({
      request: 'Throw away the tiddler Ideas Backup',
      context: "I don't need it",
    })
    expect(
      splitClauses("Delete MediaWiki page 'Test Page 2' as it is no longer referenced."),
    ).toEqual({
      request: "Delete MediaWiki page 'Test Page 2'",
      context: 'as it is no longer referenced',
    })
  })

  it('reads what a request should bring about (so it stops running) as a reason', () => {
    expect(splitClauses("Disable the flow 'Legacy sync' so it stops running").request).toBe(
      "Disable the flow 'Legacy sync'",
    )
    // (With no clause that asks outright, too.)
    expect(splitClauses('flows Nightly and Backup off so they stop running')).toEqual({
      request: 'flows Nightly and Backup off',
      context: 'so they stop running',
    })
  })

  it('keeps what was said before a request that only points back at it (can you do that?)', () => {
    const intent = 'The flow editor is asking me to sign in, can you do that?'
    expect(splitClauses(intent)).toEqual({ request: intent, context: '' })
  })

  it('takes a question that asks as the request over a clause that only says how things are', () => {
    expect(splitClauses('Issue 6 in Redmine is done now, can you mark it as closed?')).toEqual({
      request: 'can you mark it as closed',
      context: 'Issue 6 in Redmine is done now',
    })
  })

  it('never splits inside quoted text', () => {
    const intent = "'The library is closed on Sundays.' Make that the text of the page Library."
    expect(splitClauses(intent).request).toBe(intent)
  })
})

describe('plainRequest and the parse of idioms', () => {
  it('reads renames said without rename', () => {
    expect(parseIntent('Jupyter: scratch.py should be called utils.py').action).toBe('rename')
    expect(parseIntent('Node-RED: flow Billing becomes Invoicing').action).toBe('rename')
    expect(parseIntent('give my file notes.txt a new name, notes-old.txt').action).toBe('rename')
    expect(parseIntent('give tiddler Draft 3 the title Final Essay').action).toBe('rename')
    expect(parseIntent('give data.json the new filename data-2026.json').action).toBe('rename')
    expect(parseIntent('give the flow tab called Misc the new name Utilities').action).toBe(
      'rename',
    )
    expect(parseIntent('Node-RED tab Test should become Staging').action).toBe('rename')
    expect(parseIntent('The tab named Misc needs a better name: Utilities').action).toBe('rename')
    expect(
      parseIntent('Could you show me everything in the Events category?').verb?.verbClass,
    ).toBe('list')
    expect(plainRequest('every package while logged in')).toBe('every package  signed in ')
    expect(parseIntent('can you check which page names include handbook').verb?.verbClass).toBe(
      'search',
    )
    expect(plainRequest('all packages, counting the private ones')).toBe(
      'all packages,  including the private ones',
    )
    expect(parseIntent('point the latest dist-tag of tidy-csv at 2.0.0').verb?.verbClass).toBe(
      'update',
    )
    // (Making a named thing one of a kind sets it; it renames nothing, nor makes one.)
    expect(parseIntent('make Weekly Roundup a sticky post').verb?.verbClass).toBe('update')
  })

  it('reads a file got onto a place as an upload, and what sits in a folder as what is in it', () => {
    expect(parseIntent('get a.pkl onto the Jupyter server').action).toBe('upload')
    expect(plainRequest("what's sitting in my scratch folder")).toBe(
      " what's in  my scratch folder",
    )
    expect(plainRequest("Could you tell me what's sitting in my scratch folder")).toBe(
      "what's in  my scratch folder",
    )
  })

  it('reads a question whether something was written as a search, and a session got as a sign-in', () => {
    const written = parseIntent('have we written anything about potatoes on the blog?')
    expect(written.verb?.verbClass).toBe('search')
    expect(parseIntent('get me a session on the notebook server').verb?.verbClass).toBe('auth')
    expect(parseIntent('Enter my password to get into the notebook server').verb?.verbClass).toBe(
      'auth',
    )
    expect(parseIntent('Any posts on the blog about compost?').verb?.verbClass).toBe('search')
  })

  it('reads a code entered after signing in as part of the sign-in', () => {
    const p = parseIntent('Log in to Redmine as rlee and enter the one-time code from the app')
    expect(p.verb?.verbClass).toBe('auth')
    expect(p.secondFactor).toBe(true)
    for (const said of [
      'Redmine wants the 6-digit number from the app on my phone, log me in',
      "log me into the tracker; my phone's security app shows 554120",
    ])
      expect([said, parseIntent(said).secondFactor]).toEqual([said, true])
    // Other work after signing in is the request.
    expect(parseIntent('log in and rename the file a.txt').verb?.verbClass).toBe('update')
  })

  it('reads sign-ins said otherwise', () => {
    for (const intent of ['let me into WordPress', 'get me logged in to Redmine', 'sign me in'])
      expect([intent, parseIntent(intent).verb?.verbClass]).toEqual([intent, 'auth'])
    expect(parseIntent('sign me out of the registry').verb?.verbClass).toBe('logout')
    expect(parseIntent('redmine log time 2h on #7').verb?.verbClass).not.toBe('auth')
  })

  it('reads where, said first before a comma, after the request', () => {
    expect(plainRequest("on our gardening blog, pull up the post 'Spring Jobs'")).toBe(
      "pull up the post 'Spring Jobs' on our gardening blog",
    )
    const p = parseIntent('on our gardening blog, draft a new post Bees')
    expect(p.verb?.verbClass).toBe('create')
  })

  it('reads a request made with a tool, and drops a label before a colon', () => {
    expect(plainRequest("Use the tracker to raise a bug titled 'X'.")).toBe(
      "raise a bug titled 'X' on the tracker.",
    )
    expect(plainRequest('Agent task: fetch the page')).toBe('fetch the page')
  })

  it('reads a new text, an upload and a delete said as what must happen', () => {
    expect(parseIntent("'Deadline: 30 May' should be the new content of the page X").action).toBe(
      'change',
    )
    expect(parseIntent('logo.svg needs to go into the media files').action).toBe('upload')
    expect(parseIntent('mockup.pdf onto #2 as an attachment').action).toBe('upload')
    expect(parseIntent('I want to put my file sales.csv inside the server').action).toBe('upload')
    expect(parseIntent('get invoice-042.pdf into my files').action).toBe('upload')
    expect(parseIntent('get rid of scratch.txt on the server').action).not.toBe('upload')
    expect(parseIntent('change the filename of data.csv to old.csv').action).toBe('rename')
    expect(parseIntent("change budget.xlsx's name to final.xlsx").action).toBe('rename')
    expect(parseIntent("change the headline of 'Plot News' to 'News'").action).toBe('rename')
    expect(parseIntent("Tiddler 'Untitled 2' -> deleted").action).toBe('delete')
    expect(parseIntent('issue 6: status -> Rejected').action).toBe('set')
    expect(parseIntent("flow 'Old Importer': disabled + deployed").action).toBe('disable')
    expect(parseIntent("flow tab 'Alerts' renamed to 'Pager Alerts', deployed").action).toBe(
      'rename',
    )
    // Clicks on the way are how; typing into a search box searches.
    expect(
      parseIntent("Click the Edit tab on the page Contact and replace the text with 'Hi'").action,
    ).toBe('replace')
    expect(parseIntent('click the inject button on the flow').verb?.verbClass).toBe('run')
    const typed = parseIntent("Type 'firewall' into the wiki search box")
    expect([typed.verb?.verbClass, typed.values.map((v) => v.word)]).toEqual([
      'search',
      ['firewall'],
    ])
    expect(parseIntent("flow 'Old Importer' -> disabled").action).toBe('disable')
    expect(parseIntent('backup.zip on the server -> gone').action).toBe('delete')
    expect(parseIntent("harbor.jpg -> the wiki, description 'Dawn'").action).toBe('upload')
    // (Not a value of another kind: `#4 to Resolved` sets it.)
    expect(parseIntent('#4 to Resolved').action).not.toBe('upload')
    expect(parseIntent('Spam Article on MediaWiki has to go').verb?.verbClass).toBe('delete')
  })

  it('reads a state wished for as the act that brings it about', () => {
    const act = (intent: string) => parseIntent(intent).action
    expect(act("I want the tiddler 'Recipes' to be called 'Family Recipes'")).toBe('rename')
    expect(act("I want the page Goals to say 'Run 5k by June.' instead")).toBe('change')
    expect(act("I want the tiddler 'Temp' gone")).toBe('delete')
    expect(act('I want ticket #14 in Redmine to show In Progress from now on')).toBe('set')
    expect(act('I want the tiddler Trip to Rome to carry the tag Travel')).toBe('tag')
    expect(act('I need spec.pdf to be on ticket #8 as an attachment')).toBe('upload')
    for (const intent of [
      'I need a Redmine session as admin',
      'I need to be signed in to our npm registry',
      'I want enter in the wiki with my user',
      'Open a session on the notebook server by entering the password',
      'establish an authenticated session on the wiki',
      'open a Redmine session for user dev1',
    ])
      expect([intent, parseIntent(intent).verb?.verbClass]).toEqual([intent, 'auth'])
    expect(parseIntent('gimme the readme of tidy-csv').verb?.verbClass).toBe('read')
    expect(parseIntent('please make delete of the file temp.csv').action).toBe('delete')
    const search = parseIntent('run a full-text search on the wiki for budget')
    expect([search.verb?.verbClass, [...search.looksIn]]).toEqual(['search', ['text']])
    expect(parseIntent('search the blog for anything on rhubarb').sites).toEqual([])
    expect(parseIntent("which packages match 'auth'?").values.map((w) => w.word)).toEqual(['auth'])
    expect(parseIntent('what did version 3.1.0 of ui-kit look like?').verb?.verbClass).toBe('read')
    expect(act('I want the tiddler Gym renamed Fitness Log')).toBe('rename')
    expect(act('I need capture.har attached to bug #5')).toBe('attach')
    expect(act('take the page Spam Article off the wiki')).toBe('delete')
    expect(act('flip bug #14 over to Rejected')).toBe('set')
    expect(act("call analysis.ipynb 'sales.ipynb' instead")).toBe('rename')
    // A wish for something to see stays a read.
    expect(parseIntent('I want to see the files in reports').verb?.verbClass).not.toBe('update')
  })
})

describe('splitClauses: what is not to be done', () => {
  it("takes `don't X` and `instead of Xing` as no request", () => {
    expect(
      splitClauses("Kick off the refresh cache inject by hand, don't wait for the schedule"),
    ).toEqual({
      request: 'Kick off the refresh cache inject by hand',
      context: "don't wait for the schedule",
    })
    expect(splitClauses('kick off the import by hand instead of waiting for its timer')).toEqual({
      request: 'kick off the import by hand',
      context: 'instead of waiting for its timer',
    })
  })
})
