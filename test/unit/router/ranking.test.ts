// How the router orders tools of equal score (issue 10; router.ts `byRank`), and which site a
// possessive names, which act a light verb carries, which site a shell command abbreviates, and
// what a page shows.
import { describe, expect, it } from 'vitest'
import { createToolRouter } from '../../../src/main/router/router'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { fileTool } from './fileTool'

/** A Filebox tool moved to its own host, so two tools are of two sites. */
function onHost(id: string, intent: string, host: string): ToolSpec {
  return { ...fileTool(id, intent, true), siteHost: host, capabilityId: `${host}/${id}` }
}

describe('router ranking', () => {
  it('puts first, at equal scores, the tool whose own head noun is the intent’s head', () => {
    const page = onHost('page46', 'change the status page a.txt', 'a.example')
    const status = onHost('status46', 'change the status of a.txt', 'b.example')
    const ranked = createToolRouter().rank('change status of #6 to Feedback', [page, status])
    expect(ranked.map((m) => m.id)).toEqual(['status46', 'page46'])
  })
})

describe('router: a site named in the possessive', () => {
  it('is that site (the Sitecall Filebox’s files)', () => {
    const filebox = {
      ...onHost('upload49', 'upload the file a.txt', 'files.example'),
      site: { names: ['Sitecall Filebox'], titles: [] },
    }
    const other = {
      ...onHost('upload48', 'upload the file a.txt', 'drive.example'),
      site: { names: ['Drivebox'], titles: [] },
    }
    const router = createToolRouter()
    const ranked = router.rank("send Diagram.svg up to the Sitecall Filebox's files", [
      other,
      filebox,
    ])
    expect(ranked[0]!.id).toBe('upload49')
  })
})

describe('router: a light verb carrying the act’s noun', () => {
  it('reads stick a tag on X as tagging X', () => {
    const tag = fileTool('tag50', 'tag the note a.txt with Spring', true)
    const match = createToolRouter().rank('stick a Favourite tag on the note b.txt', [tag])[0]!
    expect(match.score).toBeGreaterThanOrEqual(0.9)
  })
})

describe('router: a shell command that abbreviates a site', () => {
  it('names the site before a numbered record (rm #12), and removes a file before a file', () => {
    const remove = fileTool('delete51', 'delete the file a.txt', true)
    const view = {
      ...onHost('view51', 'show issue #1', 'rm.example'),
      site: { names: ['Rmtracker'], titles: [] },
    }
    const router = createToolRouter()
    expect(router.rank('rm #12', [remove, view])[0]!.id).toBe('view51')
    expect(router.rank('rm b.txt', [remove, view])[0]!.id).toBe('delete51')
  })
})

describe('router: the page of a thing a site without pages holds', () => {
  it('shows that thing (the registry page for the logger package)', () => {
    const page = onHost('page52', 'open the wiki page a.txt', 'wiki.example')
    const pkg = onHost('package52', 'show the details of the package a.txt', 'npm.example')
    const router = createToolRouter()
    const ranked = router.rank('pull up the registry page for the logger-lite package', [page, pkg])
    expect(ranked[0]!.id).toBe('package52')
    expect(router.rank('pull up the wiki page b.txt', [page, pkg])[0]!.id).toBe('page52')
  })
})
