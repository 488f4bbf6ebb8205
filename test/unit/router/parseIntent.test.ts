import { describe, expect, it } from 'vitest'
import { sameAct } from '../../../src/main/router/meaning/actions'
import { parseIntent } from '../../../src/main/router/parseIntent'
import { stem, words } from '../../../src/main/router/text'

describe('stem', () => {
  it.each([
    ['searches', 'search'],
    ['searching', 'search'],
    ['search', 'search'],
    ['categories', 'category'],
    ['writing', 'writ'],
    ['write', 'writ'],
    ['updated', 'updat'],
    ['update', 'updat'],
    ['running', 'run'],
    ['boxes', 'box'],
    ['status', 'status'],
    ['verified', 'verify'],
    ['ids', 'id'],
  ])('%s → %s', (word, expected) => {
    expect(stem(word)).toBe(expected)
  })
})

describe('words', () => {
  it('splits camelCase, snake_case, paths and accents', () => {
    expect(words('perPage order_number /api/v1/Search café')).toEqual([
      'per',
      'page',
      'order',
      'number',
      'api',
      'v1',
      'search',
      'cafe',
    ])
  })
})

describe('words of an acronym', () => {
  it('keeps the plural of an acronym one word', () => {
    expect(words('which page IDs have URLs')).toEqual(['which', 'page', 'ids', 'have', 'urls'])
  })
})

describe('parseIntent', () => {
  const stems = (list: Array<{ stem: string }>) => list.map((w) => w.stem)

  it('splits verb, object, qualifiers and values', () => {
    const p = parseIntent('Search the AI tools directory for writing assistants by keyword')
    expect(p.verb).toEqual({ word: 'search', verbClass: 'search' })
    expect(stems(p.core)).toEqual(['ai', 'tool', 'directory'])
    expect(stems(p.values)).toEqual(['writ', 'assistant'])
    expect(stems(p.qualifiers)).toEqual(['keyword'])
  })

  it('reads two-word verbs and leading filler', () => {
    expect(parseIntent('please log in to the registry').verb?.verbClass).toBe('auth')
    expect(parseIntent('sign up for the newsletter').verb?.verbClass).toBe('create')
    expect(parseIntent("I'd like to look up hotels").verb?.verbClass).toBe('search')
  })

  it('keeps places, sites, literals and quoted strings apart', () => {
    const p = parseIntent('find flights from london on skyfare for order 42 named "x y"')
    expect(stems(p.places)).toEqual(['london'])
    expect(p.sites.map((w) => w.word)).toEqual(['skyfare'])
    // Quoted text and numbers are values by their form (issue 10 "Values"), after the words.
    expect(p.values.map((w) => w.word)).toEqual(['order', 'x y', '42'])
    expect(p.quoted).toBe(1)
  })

  it('reads a noun before a number as the record it names, and a verb there as the act', () => {
    const p = parseIntent('What does Redmine issue #4 say?')
    expect(p.verb).toBeNull()
    expect(p.core.map((w) => w.word)).toEqual(['issue'])
    expect(parseIntent('show #4').verb?.verbClass).toBe('read')
    expect(parseIntent('post #4 to the blog').verb).not.toBeNull()
  })

  it('reads an undoing verb no dictionary has as an act, whatever follows it', () => {
    const p = parseIntent('unpublish version 1.0.1 of lunar-phase')
    expect(p.verb).toEqual({ word: 'unpublish', verbClass: 'write' })
    expect(parseIntent('unread posts on the blog').verb).toBeNull()
  })

  it('reads duplicating as making another, not as reading', () => {
    expect(parseIntent('duplicate analysis.ipynb').verb?.verbClass).toBe('create')
    expect(parseIntent('clone the page Home').verb?.verbClass).toBe('create')
  })

  it('marks a place of one’s own that something goes to, not one it comes from', () => {
    const to = parseIntent('add the page Book Club to my watchlist')
    expect(to.places.map((w) => [w.word, w.owned === true])).toEqual([['watchlist', true]])
    const named = parseIntent('add the page Book Club to my MediaWiki watchlist')
    expect(named.places.map((w) => [w.word, w.owned === true])).toEqual([['watchlist', true]])
    const from = parseIntent('upload data.json from my machine')
    expect(from.places.map((w) => w.owned === true)).toEqual([false])
  })

  it('reads a shell command followed by a verb as a name, the verb after it as the act', () => {
    const p = parseIntent('rm login admin')
    expect(p.verb?.verbClass).toBe('auth')
    expect(p.sites.map((w) => w.word)).toContain('rm')
    expect(parseIntent('rm old.txt').verb?.verbClass).toBe('delete')
  })

  it('reads a question whether there is one as a search, before any sign-in it names', () => {
    expect(parseIntent("Is there a page with 'security' in its ID?").verb?.verbClass).toBe('search')
    expect(
      parseIntent('Is there already a ticket in the tracker about the login timeout?').verb
        ?.verbClass,
    ).toBe('search')
    expect(parseIntent('blog login').verb?.verbClass).toBe('auth')
  })

  it('reads the page after a thing as where it is shown, but not after a name', () => {
    const modifiers = (t: string) => parseIntent(t).core.map((w) => w.modifier === true)
    expect(modifiers('show the package page of tidy-csv')).toEqual([false, true])
    expect(modifiers('search doku page contents for budget')).toEqual([false, false])
  })

  it('reads up to three plain words after a record’s noun, ending the phrase, as its name', () => {
    const p = parseIntent('update my tiddler weekend plans to say hiking')
    expect(p.values.map((w) => w.word)).toContain('weekend plans')
    expect(p.core.map((w) => w.word)).toEqual(['tiddler'])
    // Not a thing said after it (`the package page`), nor a run that goes on (`the post on X`).
    expect(parseIntent('show the package page').core.map((w) => w.word)).toEqual([
      'package',
      'page',
    ])
    expect(parseIntent('show the post comments and likes').values).toEqual([])
    // Many records have no one name, unless searched by it.
    expect(parseIntent('show all packages private').values).toEqual([])
    expect(parseIntent('find tiddlers holiday').values.map((w) => w.word)).toEqual(['holiday'])
  })

  it('reads filtering as a narrowed list, and a plural after a colon as no verb', () => {
    expect(parseIntent('filter the posts to the Recipes category').verb?.verbClass).toBe('list')
    expect(parseIntent("WordPress: posts in category 'Pests'").verb).toBeNull()
    expect(parseIntent("Jupyter: new folder 'datasets'").verb?.verbClass).toBe('create')
    expect(parseIntent("DokuWiki: full-text search for 'parking'").verb?.verbClass).toBe('search')
  })

  it('reads a noun said right before a file as what the file is, not the object', () => {
    const p = parseIntent('store the scan contract-signed.pdf in the media manager')
    expect(p.core.map((w) => [w.word, w.generic])).toEqual([['scan', true]])
    expect(parseIntent('delete the image plot-7-map.png').objectKinds).toEqual(['file'])
    const log = parseIntent('add the log file error.log to ticket #9')
    expect(log.core.filter((w) => !w.generic).map((w) => w.word)).toEqual([])
  })

  it('reads what a record is tagged as as a value, and what a thing is added as as a thing', () => {
    expect(parseIntent('tag my tiddler Bread as baking').values.map((w) => w.word)).toContain(
      'baking',
    )
    expect(parseIntent('add Sam as a watcher').core.map((w) => w.word)).toContain('watcher')
  })

  it('reads a change of a record’s name as a rename, and a file pushed or copied up as an upload', () => {
    expect(parseIntent('change the file name draft.txt to draft-v2.txt').action).toBe('rename')
    expect(parseIntent('push logo.svg to the media manager').action).toBe('upload')
    expect(parseIntent('copy x.xlsx from my laptop into the server files').action).toBe('upload')
    // Copied on the site itself, it is no upload.
    expect(parseIntent('copy report.csv into the archive folder').action).not.toBe('upload')
    expect(parseIntent('browse the reports directory').verb?.verbClass).toBe('list')
  })

  it('reads chat shorthand, a phrase of many after a colon, and a question’s own verb', () => {
    const p = parseIntent('verdaccio list all pkgs incl private')
    expect(p.core.map((w) => w.word)).toContain('packages')
    expect(
      parseIntent('Verdaccio: every package, private ones too').core.map((w) => w.word),
    ).toContain('package')
    expect(
      parseIntent('what packages do we host in the registry?').core.map((w) => w.word),
    ).toEqual(['packages'])
  })

  it('looks where it was asked to and not where it was told not to', () => {
    expect([
      ...parseIntent('pages that mention parking in their writing, not just in the title').looksIn,
    ]).toEqual(['text'])
    expect([
      ...parseIntent('page IDs that contain hiring, the name only, not the text').looksIn,
    ]).toEqual(['name'])
  })

  it('takes a day or a time of day as when, not as what or where', () => {
    const p = parseIntent('update my tiddler Plans to say hiking on saturday')
    expect(p.sites.concat(p.places).every((w) => w.generic)).toBe(true)
  })

  it('takes a later verb when none leads, but not a participle', () => {
    expect(parseIntent('AI tools search').verb?.verbClass).toBe('search')
    expect(parseIntent('orders placed yesterday').verb).toBeNull()
  })

  it('reads no verb in the noun a question asks about, nor in a participle', () => {
    expect(parseIntent('which posts are in the category News?').verb).toBeNull()
    expect(parseIntent('what does issue #7 of the Website project say?').verb).toBeNull()
    expect(parseIntent("what's written in README.md?").verb).toBeNull()
  })

  it('reads a word no dictionary has before its object as a verb of unknown kind', () => {
    const p = parseIntent('unpublish the npm package tidy-csv')
    expect(p.verb).toEqual({ word: 'unpublish', verbClass: 'write' })
    expect(p.action).toBe('unpublish')
    expect(stems(p.core)).not.toContain('unpublish')
  })

  it('keeps the other classes a verb classed by meaning allows', () => {
    // WordNet's first sense of `put` is `set` (an update) and `place` (a create) at once.
    const p = parseIntent('put the issue on hold')
    expect(p.verb?.verbClass).toBe('update')
    expect(p.verb?.alternatives).toContain('create')
  })

  it('reads a file put onto a place as an upload', () => {
    const p = parseIntent('put the file results.json onto the notebook server')
    expect(p.verb?.verbClass).toBe('create')
    expect(p.action).toBe('upload')
    expect(stems(p.places)).toEqual(['notebook', 'server'])
  })

  it('reads a verb of a web-app act by its act, not by WordNet', () => {
    // WordNet's first senses of `fire` dismiss someone; asked of an app, it triggers.
    expect(parseIntent('fire the inject node').verb?.verbClass).toBe('run')
    expect(parseIntent('deactivate the flow Alerts').verb?.verbClass).toBe('update')
    expect(parseIntent('bin the post Old News').verb?.verbClass).toBe('delete')
    expect(parseIntent('match page names against security').verb?.verbClass).toBe('search')
    expect(parseIntent('put it in the bin').verb?.verbClass).toBe('delete')
    const rid = parseIntent("get rid of the post 'Draft', put it in the bin")
    expect([...rid.core, ...rid.places].map((w) => w.word)).toEqual(['post'])
    expect(sameAct(parseIntent("grey out the 'Test' tab").action!, 'disable')).toBe(true)
    // A second verb of the same act says it again; it is no word of the object.
    expect(parseIntent("grey out and switch off the 'Test' tab").core.map((w) => w.word)).toEqual([
      'tab',
    ])
  })

  it('makes what a verb files or opens when it is not named yet', () => {
    expect(parseIntent('file a bug about the footer').verb?.verbClass).toBe('create')
    expect(parseIntent('open a ticket called Logo').verb?.verbClass).toBe('create')
    expect(parseIntent('open an older version of the package').verb?.verbClass).toBe('read')
    expect(parseIntent('save a draft post').verb?.verbClass).toBe('create')
    expect(parseIntent('save a flow to the library').verb?.verbClass).not.toBe('create')
    expect(parseIntent('put a new ticket into the tracker').verb?.verbClass).toBe('create')
  })

  it('sets a numbered record to what follows its arrow or to', () => {
    for (const intent of [
      '#11 to Rejected in the tracker',
      'tracker: #3 → Resolved',
      'zork #3 -> done',
    ])
      expect(parseIntent(intent).verb?.verbClass, intent).toBe('update')
    expect(parseIntent('move Recipes -> Family Recipes').verb?.word).toBe('move')
    expect(parseIntent("move issue #2 in the tracker to 'In Progress'").action).toBe('set')
    expect(parseIntent('move issue #4 to another project').action).not.toBe('set')
    expect(parseIntent('move page Events 2025 to Events Archive 2025').action).not.toBe('set')
  })

  it('makes a new, fresh, empty or brand-new thing asked for without a verb', () => {
    for (const intent of [
      "I'd like an empty folder called Holiday Photos",
      'I need a brand-new page called hr:leave',
      "I want a fresh note named 'Plant Watering'",
    ])
      expect(parseIntent(intent).verb?.verbClass, intent).toBe('create')
    expect(parseIntent('show new posts').verb?.verbClass).toBe('read')
  })

  it('reads what a search looks for as its object when it names no other', () => {
    const p = parseIntent('look for tickets about the checkout page in the tracker')
    expect(stems(p.core)).toEqual(['ticket'])
  })

  it('reads the object of a sign-in as the site signed in to', () => {
    const p = parseIntent('sign into the flow editor as admin')
    expect(p.core).toEqual([])
    expect(p.sites.map((w) => w.word)).toEqual(['flow', 'editor'])
  })

  it('reads how one signs in as no place of the sign-in, and its second factor apart', () => {
    const p = parseIntent('log in to Redmine with two-factor authentication')
    expect(p.secondFactor).toBe(true)
    const words = [...p.core, ...p.sites, ...p.values]
    expect(words.filter((w) => !w.generic && !w.literal)).toEqual([])
    expect(words.find((w) => w.word === 'authentication')?.generic).toBe(true)
    const noun = parseIntent('Redmine 2FA sign-in')
    expect(noun.sites.filter((w) => !w.generic).map((w) => w.word)).toEqual(['redmine'])
    expect(parseIntent('use the code 665120 to finish logging in').verb?.verbClass).toBe('auth')
    const coded = parseIntent('redmine login 2fa code 118203')
    expect(coded.sites.filter((w) => !w.generic).map((w) => w.word)).toEqual(['redmine'])
  })

  it('reads what a search looks for on as its topic, and a site after on as the site', () => {
    const topic = parseIntent('look up blog posts on courgettes')
    expect(topic.values.map((w) => w.word)).toEqual(['courgettes'])
    expect(topic.sites).toEqual([])
    const site = parseIntent('look up posts on the blog')
    expect(site.sites.map((w) => w.word)).toEqual(['blog'])
    const gerund = parseIntent('look through the blog for posts on beekeeping')
    expect(gerund.values.map((w) => w.word)).toContain('beekeeping')
  })

  it('reads where a search looks: the names when a name contains it, the text when it mentions', () => {
    expect([...parseIntent('list the pages whose names contain plan').looksIn]).toEqual(['name'])
    expect([...parseIntent('list the pages that have plan in their name').looksIn]).toEqual([
      'name',
    ])
    expect(parseIntent('list the pages that have plan in their name').values[0]?.word).toBe('plan')
    expect([...parseIntent('find pages that mention parking').looksIn]).toEqual(['text'])
    // (`page names`: where to look, not a page called `names`.)
    expect(parseIntent('DokuWiki page names matching onboarding').core.map((w) => w.word)).toEqual([
      'page',
      'names',
    ])
    const prefix = parseIntent("title search, prefix 'Garden'")
    expect([...prefix.looksIn]).toEqual(['name'])
    expect(prefix.core.map((w) => w.word)).not.toContain('prefix')
  })

  it('reads the latest version of a thing as the thing, no version asked', () => {
    const p = parseIntent("what's the latest version of tidy-logger on our registry?")
    expect(p.core.map((w) => w.word)).not.toContain('version')
  })

  it('reads the type of a thing set, or a backup of it made, as what is asked of it', () => {
    const type = parseIntent('change the type of the tiddler Roadmap to text/x-markdown')
    expect(type.core.find((w) => w.word === 'type')?.ofHead).toBe(true)
    // (With a word of what kind of type: `the content type of`.)
    const content = parseIntent('set the content type of the tiddler Notes to text/markdown')
    expect(content.core.find((w) => w.word === 'type')?.ofHead).toBe(true)
    const backup = parseIntent('set up nightly backups of the wiki')
    expect(backup.core.find((w) => w.word === 'backups')?.ofHead).toBe(true)
    // (A kind of things listed is no attribute: the things are the object.)
    const kind = parseIntent('list every kind of page')
    expect(kind.core.find((w) => w.word === 'kind')?.ofHead).toBeUndefined()
  })

  it('reads a noun that is a verb too as the verb before a particle and its object', () => {
    expect(parseIntent('zip up the invoices folder').verb?.word).toBe('zip')
    expect(parseIntent('mkdir scratch in Jupyter').verb?.word).toBe('mkdir')
    // (A new folder's name may be a verb.)
    expect(parseIntent('mkdir archive in jupyter').verb?.word).toBe('mkdir')
  })

  it('reads a hyphenated verb leading the request as one verb, and a package name as a value', () => {
    const p = parseIntent('password-protect the post Plot 7 Plans')
    expect([p.verb?.word, p.core.map((w) => w.word)]).toEqual(['passwordprotect', ['post']])
    expect(parseIntent('lunar-phase details').values.map((w) => w.word)).toContain('lunar-phase')
  })

  it('reads the contents of a path as a folder’s', () => {
    const p = parseIntent('list the contents of data/raw in Jupyter')
    expect(p.core.map((w) => [w.word, w.implied])).toEqual([['folder', true]])
    expect(parseIntent('show the contents of the page X').core.map((w) => w.word)).not.toContain(
      'folder',
    )
  })

  it('reads a file name with a long extension as a file', () => {
    const p = parseIntent('transfer dataset.parquet from my laptop to the notebook server')
    expect(p.values.map((w) => [w.word, w.value])).toContainEqual(['dataset.parquet', 'file'])
  })

  it('reads a new thing wished for by its name as one to make', () => {
    for (const intent of [
      'I need a folder named 2026-taxes in Jupyter',
      "I'd like there to be a page meetings:2026-02-03 that says 'Notes to follow.'",
      "I'd like a wiki page named Movie Night that says 'Fridays at 7.' to exist",
    ])
      expect(parseIntent(intent).verb?.verbClass).toBe('create')
    // (A copy of a thing wished for is no new thing named.)
    const copy = parseIntent("I want a copy of the 'Billing' flow in the library as billing.json")
    expect(copy.verb?.verbClass).not.toBe('create')
  })

  it('reads a field given a value (`status New -> In Progress`, `make its text X`) as set', () => {
    expect(parseIntent('Redmine issue 9: status New -> In Progress.').verb?.verbClass).toBe(
      'update',
    )
    const text = parseIntent("the tiddler Contacts is stale, make its text 'Ask Jo.'")
    expect(text.verb?.verbClass).toBe('update')
    const arrow = parseIntent("tiddler Project Roadmap text → 'Beta slips to May.'")
    expect(arrow.verb?.verbClass).toBe('update')
    expect(parseIntent('plot.png -> plot-old.png (new name)').action).toBe('rename')
  })

  it('reads a tag wished to show a thing under, and a name it should have, as their acts', () => {
    const tag = parseIntent('I want the Lentil Curry tiddler to show up under the Favourite tag')
    expect(tag.action).toBe('tag')
    const renamed = parseIntent('the file is named invoice1.pdf, it should be invoice-jan.pdf')
    expect(renamed.action).toBe('rename')
  })

  it('reads what a thing contains as what is in it', () => {
    for (const intent of [
      'which files does the analysis folder contain?',
      'tell me which files the folder archive contains',
    ]) {
      const p = parseIntent(intent)
      expect(p.places.map((w) => w.word)).toContain('folder')
      expect(p.core.map((w) => w.word)).toContain('files')
    }
  })

  it('reads a noun after `new` as the thing made, not as a verb', () => {
    const draft = parseIntent("wordpress new draft 'Seed Swap' with body 'Bring seeds.'")
    expect([draft.verb?.verbClass, draft.core.map((w) => w.word)]).toEqual([
      'create',
      ['wordpress', 'draft'],
    ])
  })

  it('reads the verb of a relative clause about what is sought as no object word', () => {
    const p = parseIntent('I need every DokuWiki page that talks about vendor contracts')
    expect(p.core.find((w) => w.word === 'talks')?.modifier).toBe(true)
  })

  it('reads where we write about X as a search of the text', () => {
    const p = parseIntent('where in dokuwiki do we write about the fire drill?')
    expect([p.verb?.verbClass, [...p.looksIn]]).toEqual(['search', ['text']])
  })

  it('reads looking through a place as searching it, and what to tell as what is sought', () => {
    const p = parseIntent('look through the tracker for anything mentioning safari')
    expect(p.verb?.verbClass).toBe('search')
    const tell = parseIntent('search the wiki and tell me which pages mention parking')
    expect(tell.core.map((w) => w.word)).not.toContain('tell')
  })

  it('reads a state made (make X disabled, make me logged in) as the act that brings it', () => {
    expect(parseIntent("Please make the flow 'Test Harness' disabled").action).toBe('disable')
    expect(parseIntent('Please make me logged in to the team wiki').verb?.verbClass).toBe('auth')
    expect(parseIntent('make the login on Jupyter for me').verb?.verbClass).toBe('auth')
    expect(parseIntent('have we ever written about courgettes?').verb?.verbClass).toBe('search')
  })

  it('reads `back to` a state as no object word', () => {
    expect(parseIntent('flip bug #14 back to New').core.map((w) => w.word)).toEqual(['bug'])
  })

  it('reads the verb after a question’s noun before `to` as a relation', () => {
    const p = parseIntent('which pages link to projects:office_move?')
    expect(p.core.find((w) => w.word === 'link')?.relation).toBe(true)
    // (After the site the pages are on: `link` is their verb, a noun too or not.)
    const onSite = parseIntent('which pages on the DokuWiki link to projects:office_move?')
    expect(onSite.core.find((w) => w.word === 'link')?.relation).toBe(true)
    expect(parseIntent('which pages mention the budget?').core.some((w) => w.relation)).toBe(false)
    const depend = parseIntent('which packages in our registry depend on tidy-csv?')
    expect(depend.core.find((w) => w.word === 'depend')?.relation).toBe(true)
    // (What exists on a site is no relation to a thing.)
    const exist = parseIntent('what pages starting with Lunar exist on the MediaWiki?')
    expect(exist.core.some((w) => w.relation)).toBe(false)
  })

  it('reads whose login a sign-in names (user X, the X account) as no site', () => {
    const user = parseIntent('sign on to redmine, user manager')
    expect(user.sites.filter((w) => !w.generic).map((w) => w.word)).toEqual(['redmine'])
    const account = parseIntent('authenticate to the registry with the team account')
    expect(account.sites.map((w) => w.word)).not.toContain('team')
    expect(parseIntent('login dokuwiki as jsmith').sites.map((w) => w.word)).toEqual(['dokuwiki'])
  })

  it('reads `first` before a verb as no part of the object, and Trash as the bin', () => {
    const push = parseIntent('first push access.log up to the notebook server')
    expect([push.action, push.core.map((w) => w.word)]).toEqual(['upload', []])
    const trash = parseIntent('Move WordPress post "Hello world!" to Trash.')
    expect(trash.values.map((w) => w.word)).not.toContain('trash')
    expect(trash.verb?.verbClass).toBe('delete')
  })

  it('reads what a site does when it asks for a sign-in as no place', () => {
    const p = parseIntent('The flow editor is asking me to sign in, can you do that?')
    expect(p.verb?.verbClass).toBe('auth')
    expect(p.sites.find((w) => w.word === 'asking')?.generic).toBe(true)
  })

  it('reads the place signed in to before the credential it is signed in with', () => {
    const p = parseIntent('authenticate with the team wiki using my account')
    expect(p.sites.map((w) => w.word)).toEqual(['team', 'wiki'])
    const stored = parseIntent('authenticate to the notebook server using the stored password')
    expect(stored.sites.map((w) => w.word)).not.toContain('stored')
  })

  it('reads where an upload comes from (my local file) as nothing asked of the tool', () => {
    const p = parseIntent('upload my local file survey.xlsx to the server')
    expect(p.core.map((w) => w.word)).toEqual(['file'])
  })

  it('reads what a file shows (a photo of the marrows) as no word of the object', () => {
    const p = parseIntent('put my photo of the marrows, marrow.jpg, into the media library')
    expect(p.core.map((w) => w.word)).toEqual(['photo'])
    expect(p.places.map((w) => w.word)).toEqual(['media', 'library'])
  })

  it('takes a scoped package, with or without its release, as one value', () => {
    expect(parseIntent('show me @team/ui-kit in the registry').values[0]).toMatchObject({
      word: '@team/ui-kit',
      value: 'identifier',
    })
    expect(parseIntent('details for @team/ui-kit@0.9.1').values[0]).toMatchObject({
      word: '@team/ui-kit@0.9.1',
      value: 'version',
    })
  })

  it('reads look at as a look, not a search', () => {
    expect(parseIntent('look at the older 3.2.0 version of the package').verb?.verbClass).toBe(
      'read',
    )
    expect(parseIntent('look for packages named lunar').verb?.verbClass).toBe('search')
  })

  it('reads what follows a search and a colon as what to look for', () => {
    const p = parseIntent('Redmine search: login error')
    expect(p.verb?.verbClass).toBe('search')
    expect(p.values.map((w) => w.word)).toEqual(expect.arrayContaining(['login', 'error']))
  })

  it('reads is there anything / are there any as a search', () => {
    expect(parseIntent('is there anything in the tracker about the contact form?').verb).toEqual({
      word: 'find',
      verbClass: 'search',
    })
    expect(parseIntent('are there any packages with chart in the name?').verb?.verbClass).toBe(
      'search',
    )
  })

  it('reads a capitalised run after what is asked and a colon as the name, not a verb', () => {
    const p = parseIntent('New tiddler: Book Ideas')
    expect(p.verb?.verbClass).toBe('create')
    expect(p.core.map((w) => w.word)).toEqual(['tiddler'])
    expect(parseIntent('DokuWiki: create a page').verb?.word).toBe('create')
  })

  it('reads a complete or full list as a list, no verb to complete', () => {
    expect(
      parseIntent('Need: complete list of wiki pages beginning with Recipe').verb,
    ).toMatchObject({
      verbClass: 'list',
    })
  })

  it('takes a release as one value', () => {
    const p = parseIntent('view lunar-cal 2.1.0 in the registry')
    expect(p.values.map((w) => [w.word, w.value])).toEqual([
      ['2.1.0', 'version'],
      ['lunar-cal', 'identifier'],
    ])
  })
})
