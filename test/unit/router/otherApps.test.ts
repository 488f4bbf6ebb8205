// Apps an intent names that no tool is on (issue 10: no false match).
import { describe, expect, it } from 'vitest'
import { namedApps, type AppVocabulary } from '../../../src/main/router/otherApps'
import { createToolRouter, MIN_SCORE } from '../../../src/main/router/router'
import { fileTool } from './fileTool'

const ENGLISH = new Set([
  'drive',
  'page',
  'issue',
  'folder',
  'slack',
  'tiddler',
  'file',
  'todo',
  'scratch',
  'actions',
  'docker',
  'hub',
  'obsidian',
  'note',
  'linear',
])
const VOCABULARY: AppVocabulary = {
  isSite: (w) => w === 'filebox' || w === 'nodered',
  isKnown: (w) => ENGLISH.has(w),
  isThing: (w) =>
    [
      'issue',
      'page',
      'folder',
      'tiddler',
      'file',
      'tickets',
      'ticket',
      'workflow',
      'note',
    ].includes(w),
  isProduct: (name) =>
    [
      'notion',
      'box',
      'ghost',
      'medium',
      'google drive',
      'miro',
      'scratch',
      'github actions',
      'n8n',
      'docker',
      'gitlab',
      'gmail',
      'figma',
      'obsidian',
      'linear',
      'readme',
    ].includes(name),
}

describe('namedApps', () => {
  it('finds names English lacks where an app stands', () => {
    expect(namedApps('upload receipt.pdf to my Dropbox', VOCABULARY)).toEqual(['dropbox'])
    expect(namedApps('create a folder called Taxes in Google Drive', VOCABULARY)).toEqual([
      'google',
      'drive',
    ])
    expect(namedApps('open a GitHub issue about the login bug', VOCABULARY)).toEqual(['github'])
    expect(namedApps('search Jira for tickets about checkout', VOCABULARY)).toEqual(['jira'])
    expect(namedApps('attach shot.png to Bugzilla issue 5531', VOCABULARY)).toEqual(['bugzilla'])
    // Products whose names are English words, where an app stands.
    expect(namedApps('edit my Notion page Weekly Goals', VOCABULARY)).toEqual(['notion'])
    expect(namedApps("what's in my Box folder Contracts?", VOCABULARY)).toEqual(['box'])
    expect(namedApps('search our Ghost blog for posts about bees', VOCABULARY)).toEqual(['ghost'])
    expect(namedApps('save a draft on Medium titled June', VOCABULARY)).toEqual(['medium'])
    expect(namedApps('upload receipt.pdf to Google Drive', VOCABULARY)).toEqual(['google', 'drive'])
    expect(namedApps('trash the Squarespace page Old Offers', VOCABULARY)).toEqual(['squarespace'])
    expect(namedApps('add a sticky note to the Miro board Roadmap', VOCABULARY)).toEqual(['miro'])
    expect(namedApps('rename the Airtable base Inventory to Stock', VOCABULARY)).toEqual([
      'airtable',
    ])
    expect(namedApps('query Confluence for pages about bees', VOCABULARY)).toEqual(['confluence'])
    expect(namedApps('search Zendesk tickets for refund', VOCABULARY)).toEqual(['zendesk'])
    expect(namedApps('disable the GitHub Actions workflow build', VOCABULARY)).toEqual([
      'github',
      'actions',
    ])
    expect(namedApps('log me into Harvest', VOCABULARY)).toEqual(['harvest'])
    expect(namedApps('set Zendesk ticket #4521 to Solved', VOCABULARY)).toEqual(['zendesk'])
    expect(namedApps('run the n8n workflow called Sync', VOCABULARY)).toEqual(['n8n'])
    expect(namedApps('upload intro.mp4 to YouTube as unlisted', VOCABULARY)).toEqual(['youtube'])
    // A product's name that begins a longer one, labels the request, or stands in lower case
    // after an owner.
    expect(namedApps('search Docker Hub for node images', VOCABULARY)).toEqual(['docker', 'hub'])
    expect(namedApps("GitLab: create issue 'Broken build'", VOCABULARY)).toEqual(['gitlab'])
    expect(namedApps('search my gmail for the invoice', VOCABULARY)).toEqual(['gmail'])
    // A product before a thing apps hold, whatever comes before it; a keyed or new named thing.
    expect(namedApps('open Figma file Homepage v2', VOCABULARY)).toEqual(['figma'])
    expect(namedApps('filter Zendesk tickets to the urgent ones', VOCABULARY)).toEqual(['zendesk'])
    expect(namedApps('change the status of Linear issue ENG-214', VOCABULARY)).toEqual(['linear'])
    expect(namedApps('create a new Obsidian note called Weekly Review', VOCABULARY)).toEqual([
      'obsidian',
    ])
    // Only a site follows `log in to`, an English word or not.
    expect(namedApps('log in to Slack', VOCABULARY)).toEqual(['slack'])
  })

  it('leaves the sites of tools, record names, files and quoted text alone', () => {
    expect(namedApps('upload a.pdf to Filebox', VOCABULARY)).toEqual([])
    expect(namedApps('disable the Alerts flow in Node-RED', VOCABULARY)).toEqual([])
    expect(namedApps('replace the Todo tiddler’s text', VOCABULARY)).toEqual([])
    expect(namedApps("what's written in README.md?", VOCABULARY)).toEqual([])
    expect(namedApps("upload a.pdf to the folder 'Zebrafox'", VOCABULARY)).toEqual([])
    expect(namedApps('rename the page Trips to Fieldtrips', VOCABULARY)).toEqual([])
    expect(namedApps('rename the folder Old to Box', VOCABULARY)).toEqual([])
    // A record named before its thing, and an app that only gives a secret.
    expect(namedApps("replace the Todo tiddler's text with 'done'", VOCABULARY)).toEqual([])
    expect(namedApps('bin the Scratch tiddler', VOCABULARY)).toEqual([])
    expect(namedApps('sign in with a code from Google Authenticator', VOCABULARY)).toEqual([])
    // A lower-case brand's name that is a common word's too; a label that is no product.
    expect(namedApps('open the readme of the lunar-phase package', VOCABULARY)).toEqual([])
    expect(namedApps('Subgoal: open the page Trips', VOCABULARY)).toEqual([])
  })
})

describe('router: apps no tool is on', () => {
  const upload = fileTool('upload29', 'upload the file report.pdf', true)

  it('answers nothing for an app no tool is on, and the tool for its own site', () => {
    const router = createToolRouter()
    expect(router.route('upload receipt-march.pdf to my Dropbox', [upload]).tools).toEqual([])
    const own = router.rank('upload receipt-march.pdf to Filebox', [upload])[0]!
    expect(own.score).toBeGreaterThanOrEqual(MIN_SCORE)
  })

  it('answers nothing for a product whose name is an English word', () => {
    const router = createToolRouter()
    // (`simple-icons` lists Box and Google Drive; neither is the tool's site.)
    expect(router.route('upload receipt-march.pdf to my Box folder', [upload]).tools).toEqual([])
    expect(router.route('upload receipt-march.pdf to Google Drive', [upload]).tools).toEqual([])
  })

  it('takes a product for another app when only a site describes itself with its name', () => {
    const router = createToolRouter()
    // (The site calls itself `a non-linear notebook`; Linear is a product all the same.)
    const status = {
      ...fileTool('status31', 'set the status of issue 4 to Done', true),
      site: { names: ['Filebox', 'a non-linear notebook'], titles: [] },
    }
    expect(router.route('set the Linear issue ENG-42 to In Progress', [status]).tools).toEqual([])
    const own = router.rank('set the status of issue 7 to Closed on Filebox', [status])[0]!
    expect(own.score).toBeGreaterThanOrEqual(MIN_SCORE)
  })
})
