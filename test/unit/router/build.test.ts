// The index built at start (issue 25 "the first search after a start as fast"): `build` leaves
// the event loop free between steps and answers as the lazy index does; a search waits for it
// (`ready`) and then finds a tool saved during the build.
import { describe, expect, it } from 'vitest'
import { createToolRouter, type ToolRouter } from '../../../src/main/router/router'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { fileTool } from './fileTool'

const VERBS = ['search', 'list', 'create', 'delete', 'update', 'download']
const OBJECTS = ['invoices', 'wiki pages', 'orders', 'flows', 'calendars', 'bookmarks', 'torrents']

/** `count` verified tools on 40 sites (each named), verb × object, with their requests. */
function workspace(count: number): ToolSpec[] {
  return Array.from({ length: count }, (_, i) => {
    const verb = VERBS[i % VERBS.length]!
    const object = OBJECTS[Math.floor(i / VERBS.length) % OBJECTS.length]!
    const site = `site${i % 40}`
    const base = fileTool(`t${i}`, `${verb} ${object}`, verb !== 'search' && verb !== 'list')
    const path = `/api/${object.replace(' ', '_')}`
    const method = { search: 'GET', list: 'GET', download: 'GET', delete: 'DELETE' }[verb] ?? 'POST'
    return {
      ...base,
      siteHost: `${site}.example`,
      name: `${site}__${verb}_${object.replace(' ', '_')}`,
      capabilityId: `${site}.example/t${i}`,
      steps: [{ request: { method, url: `http://${site}.example${path}`, headers: {} } }],
      site: { names: [`Site ${i % 40} ${i % 3 ? 'Books' : 'Desk'}`], titles: [] },
      createdAt: i,
      updatedAt: i,
    } as unknown as ToolSpec
  })
}

const INTENTS = [
  'delete the wiki page Old Notes on site7',
  'list my invoices',
  'search bookmarks about gardening',
  'create a new calendar called Team',
  'download the flows of Site 12 Books',
  'update order #12',
  'order a pizza',
]

/** What a router answers and ranks for each intent (ids and scores). */
function answers(router: ToolRouter, tools: readonly ToolSpec[]) {
  return INTENTS.map((intent) => ({
    route: router.route(intent, tools),
    rank: router.rank(intent, tools).map((m) => [m.id, m.score]),
  }))
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

describe('router build at start (issue 25 latency)', { timeout: 180_000 }, () => {
  const tools = workspace(400)

  it('answers what the index built lazily by the first search answers', async () => {
    const built = createToolRouter()
    await built.build(tools)
    expect(answers(built, tools)).toEqual(answers(createToolRouter(), tools))
  })

  it('lets the event loop run during the build; a search awaiting ready() answers right', async () => {
    const lazy = answers(createToolRouter(), tools)
    const router = createToolRouter()
    let done = false
    void router.build(tools).then(() => (done = true))
    await nextTurn()
    await nextTurn()
    // Still building: the event loop ran between its steps.
    expect(done).toBe(false)
    const answered = router.ready().then(() => answers(router, tools))
    expect(await answered).toEqual(lazy)
    expect(done).toBe(true)
  })

  it('a search routed in the middle of the build (without waiting) answers right too', async () => {
    const lazy = answers(createToolRouter(), tools)
    const router = createToolRouter()
    const built = router.build(tools)
    await nextTurn()
    await nextTurn()
    expect(answers(router, tools)).toEqual(lazy)
    await built
    expect(answers(router, tools)).toEqual(lazy)
  })

  it('finds a tool saved during the build', async () => {
    const router = createToolRouter()
    void router.build(tools)
    await nextTurn()
    const saved = {
      ...fileTool('saved', 'rename a notebook', true),
      siteHost: 'notes.example',
      name: 'notes__rename_notebook',
      capabilityId: 'notes.example/saved',
      steps: [
        { request: { method: 'PATCH', url: 'http://notes.example/api/notebooks/1', headers: {} } },
      ],
      site: { names: ['Jotter'], titles: [] },
      createdAt: 2000,
      updatedAt: 2000,
    } as unknown as ToolSpec
    const now = [...tools, saved]
    await router.ready()
    const intent = 'rename the notebook Ideas on Jotter'
    const lazy = createToolRouter()
    expect(router.rank(intent, now)[0]!.id).toBe('saved')
    expect(router.route(intent, now)).toEqual(lazy.route(intent, now))
    expect(router.rank(intent, now)).toEqual(lazy.rank(intent, now))
  })
})
