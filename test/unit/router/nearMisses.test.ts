// Near misses must match nothing (issue 10): what is asked of a thing is no name of it, a
// relation between records no state of one, a file no object of a tool of other things, a version
// no thing named on a site, a format asked no value a slot takes, a role set no new name, a
// second thing compared no value.
import { describe, expect, it } from 'vitest'
import { createToolRouter, MIN_SCORE } from '../../../src/main/router/router'
import { fileTool } from './fileTool'

describe('router: a word before an attribute asked of a thing', () => {
  const tools = [
    fileTool('edit41', 'replace the text of the note a.txt', true),
    fileTool('open41', 'open the note a.txt', false),
  ]

  it('reads `the alt text of x.png` as another attribute than the text the tool sets', () => {
    const router = createToolRouter()
    const alt = router.rank("set the alt text of plot.png to 'Map of plot'", tools)[0]!
    expect(alt.score).toBeLessThan(MIN_SCORE)
    const text = router.rank("replace the text of the note b.txt with 'hi'", tools)[0]!
    expect([text.id, text.score >= MIN_SCORE]).toEqual(['edit41', true])
  })
})

describe('router: a record set in relation to another', () => {
  const tools = [fileTool('status41', 'set the status of issue #12 to Closed', true)]

  it('takes a state for one record, not a relation between two', () => {
    const router = createToolRouter()
    for (const intent of [
      'mark issue #4 as blocked by issue #6',
      'mark #2 as a duplicate of #7',
      'relate issue #4 to issue #2',
    ])
      expect(router.rank(intent, tools)[0]!.score).toBeLessThan(MIN_SCORE)
    for (const intent of ['mark issue #4 as Closed', 'set issue #4 to Resolved'])
      expect(router.rank(intent, tools)[0]!.score).toBeGreaterThanOrEqual(MIN_SCORE)
  })
})

describe('router: a file names the object of a tool of files only', () => {
  // (Recorded with a file name, the tool's object is still a flow: the file is where it goes.)
  const tools = [fileTool('export41', 'save the flow Alerts to the library as a.txt', true)]

  it('takes a file name alone as no flow', () => {
    const router = createToolRouter()
    expect(router.rank('save b.txt', tools)[0]!.score).toBeLessThan(MIN_SCORE)
    const flow = router.rank('save the flow Billing to the library as b.txt', tools)[0]!
    expect(flow.score).toBeGreaterThanOrEqual(MIN_SCORE)
  })
})

describe('router: a thing named on a named site', () => {
  const tools = [fileTool('edit42', 'edit the text of the page a.txt', true)]

  it('takes a name as the thing, but no version or decimal', () => {
    const router = createToolRouter()
    expect(router.rank('Filebox: update Budget', tools)[0]!.score).toBeGreaterThanOrEqual(MIN_SCORE)
    const upgrade = router.rank('upgrade Filebox from 1.41 to 1.42', tools)[0]!
    expect(upgrade.score).toBeLessThan(MIN_SCORE)
  })
})

describe('router: a format asked', () => {
  const tools = [fileTool('open43', 'open the page a.txt', false)]

  it('is what the tool must give, not a value it takes', () => {
    const router = createToolRouter()
    expect(router.rank('open the page Picnic Plan', tools)[0]!.score).toBeGreaterThanOrEqual(
      MIN_SCORE,
    )
    expect(router.rank('open the page Picnic Plan as a PDF', tools)[0]!.score).toBeLessThan(
      MIN_SCORE,
    )
  })
})

describe('router: a thing set as a role', () => {
  const tools = [fileTool('rename44', 'rename the file a.txt to b.txt', true)]

  it('is no rename, unless what it is set as is a name', () => {
    const router = createToolRouter()
    const role = router.rank('set plot.png as the featured image of Weekly Roundup', tools)[0]!
    expect(role.score).toBeLessThan(MIN_SCORE)
    expect(router.rank('set plot.png as map.png', tools)[0]!.score).toBeGreaterThanOrEqual(
      MIN_SCORE,
    )
  })
})

describe('router: two things compared', () => {
  const tool = fileTool('show45', 'show version 1.0.0 of the package acme-utils', false)
  const inputs = tool.inputs as { properties: Record<string, object> }
  inputs.properties.version = { type: 'string', default: '1.0.0', 'x-slot': 'p1', 'x-in': 'path' }

  it('takes the second as no value of a tool that shows one', () => {
    const router = createToolRouter()
    const diff = router.rank('diff lunar-phase 1.1.0 against 1.2.0', [tool])[0]!
    const second = diff.evidence.rules!.words.find((w) => w.word === '1.2.0')
    expect([diff.score < MIN_SCORE, second?.outcome]).toEqual([true, 'missing'])
    const between = router.rank('what changed between lunar-phase 1.1.0 and 1.2.0?', [tool])[0]!
    const later = between.evidence.rules!.words.find((w) => w.word === '1.2.0')
    expect(later?.outcome).toBe('missing')
    const one = router.rank('show lunar-phase 1.1.0', [tool])[0]!
    expect(one.score).toBeGreaterThanOrEqual(MIN_SCORE)
  })
})

describe('router: acts of their own', () => {
  // (WordNet has merging as a kind of change; the acts of web apps do not.)
  const tools = [fileTool('edit43', 'change the text of the note a.txt', true)]

  it('takes merging, splitting and locking a note as no edit of it', () => {
    const router = createToolRouter()
    for (const intent of [
      'merge the note b.txt into c.txt',
      'combine the notes b.txt and c.txt',
      'split the note b.txt in two',
      'lock the note b.txt',
    ])
      expect(router.rank(intent, tools)[0]!.score).toBeLessThan(MIN_SCORE)
    const edit = router.rank("change the note b.txt's text to 'hi'", tools)[0]!
    expect(edit.score).toBeGreaterThanOrEqual(MIN_SCORE)
  })
})

describe('router: a place a name follows', () => {
  const tools = [fileTool('list45', 'list the notes with names starting with a', false)]

  it('asks a tool that knows that kind of place', () => {
    const router = createToolRouter()
    const category = router.rank('list all notes in the category Recipes', tools)[0]!
    expect(category.score).toBeLessThan(MIN_SCORE)
    const plain = router.rank('list all notes starting with Rec', tools)[0]!
    expect(plain.score).toBeGreaterThanOrEqual(MIN_SCORE)
  })
})

describe("router: a thing made named as the site's name", () => {
  // (A site called Jupyter Notebook holds folders; a notebook made there is no folder.)
  const tools = [
    {
      ...fileTool('mkdir46', 'create a new folder named a', true),
      site: { names: ['Jupyter Notebook'], titles: [] },
    },
  ]

  it('is what is made, not where', () => {
    const router = createToolRouter()
    const notebook = router.rank(
      'create a new empty notebook named b.ipynb in the data folder',
      tools,
    )
    expect(notebook[0]!.score).toBeLessThan(MIN_SCORE)
    const folder = router.rank('create a new folder named b in Jupyter Notebook', tools)[0]!
    expect(folder.score).toBeGreaterThanOrEqual(MIN_SCORE)
  })
})

describe('router: a change of many things at once', () => {
  const tools = [fileTool('rm47', 'delete the file a.txt', true)]

  it('is not what a tool that changes one does', () => {
    const router = createToolRouter()
    const every = router.rank('delete every file in the tmp folder', tools)[0]!
    expect(every.score).toBeLessThan(MIN_SCORE)
    const one = router.rank('delete the file b.txt in the tmp folder', tools)[0]!
    expect(one.score).toBeGreaterThanOrEqual(MIN_SCORE)
  })
})

describe('router: a word before many of a thing', () => {
  const tools = [fileTool('find48', 'search the notes for a word', false)]

  it('is a kind of them, no name of one', () => {
    const router = createToolRouter()
    expect(router.rank('list the orphan notes', tools)[0]!.score).toBeLessThan(MIN_SCORE)
    const search = router.rank('search the notes for taxes', tools)[0]!
    expect(search.score).toBeGreaterThanOrEqual(MIN_SCORE)
  })
})

describe('router: what a file says', () => {
  const tools = [fileTool('mv49', 'rename the file a.txt to b.txt', true)]

  it('is its text, which no rename changes', () => {
    const router = createToolRouter()
    for (const intent of [
      "change what notes.md says to 'all done'",
      "change the text of notes.md to 'all done'",
    ])
      expect(router.rank(intent, tools)[0]!.score).toBeLessThan(MIN_SCORE)
    const name = router.rank('change the name of notes.md to todo.md', tools)[0]!
    expect(name.score).toBeGreaterThanOrEqual(MIN_SCORE)
  })
})

describe('router: what is asked of a thing before a site word', () => {
  const tools = [fileTool('rm53', 'delete the wiki page Home', true)]

  it('is no word of the site', () => {
    const router = createToolRouter()
    const cache = router.rank('purge the cache of the wiki page Book Club', tools)[0]!
    expect(cache.score).toBeLessThan(MIN_SCORE)
    const page = router.rank('delete the wiki page Book Club', tools)[0]!
    expect(page.score).toBeGreaterThanOrEqual(MIN_SCORE)
  })
})

describe('router: a word before a record named after it', () => {
  const tools = [fileTool('open54', 'open the wiki page Home', false)]

  it('is a kind of record, no name of it', () => {
    const router = createToolRouter()
    const talk = router.rank('open the talk page for Book Club', tools)[0]!
    expect(talk.score).toBeLessThan(MIN_SCORE)
    const page = router.rank('open the page for Book Club', tools)[0]!
    expect(page.score).toBeGreaterThanOrEqual(MIN_SCORE)
  })
})
