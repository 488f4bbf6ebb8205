// What a router keeps between searches (issue 25 latency): the reading of a text searched again
// is not made again while the tools held are the same, and is made again as soon as they change
// (a new site's name, a tool dropped), so a router answers what a fresh one answers at every step.
import { describe, expect, it, vi } from 'vitest'
import { FactIndex } from '../../../src/main/router/factIndex'
import * as parsing from '../../../src/main/router/parseIntent'
import { viewOf } from '../../../src/main/router/ranker'
import { createRuleScorer } from '../../../src/main/router/ruleEngine'
import { createToolRouter, type ToolRouter } from '../../../src/main/router/router'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { fileTool } from './fileTool'

vi.mock('../../../src/main/router/parseIntent', async (actual) => {
  const real = await actual<typeof parsing>()
  return { ...real, parseIntent: vi.fn(real.parseIntent) }
})

/** A verified tool `id` on `host` named `siteName` doing `intent` with one request. */
function tool(id: string, intent: string, host: string, siteName: string, at = 1): ToolSpec {
  const object = intent.split(' ').at(-1)!
  return {
    ...fileTool(id, intent, !/^(list|search|show)/.test(intent)),
    siteHost: host,
    name: `${host.split('.')[0]}__${intent.replace(/ /g, '_')}`,
    capabilityId: `${host}/${id}`,
    steps: [{ request: { method: 'GET', url: `http://${host}/api/${object}`, headers: {} } }],
    site: { names: [siteName], titles: [] },
    createdAt: at,
    updatedAt: at,
  } as unknown as ToolSpec
}

const BASE = [
  tool('a1', 'list invoices', 'books.example', 'Ledgerly'),
  tool('a2', 'create invoice', 'books.example', 'Ledgerly'),
  tool('b1', 'list orders', 'shop.example', 'Shopfront'),
  tool('b2', 'search orders', 'shop.example', 'Shopfront'),
  tool('c1', 'list bookmarks', 'marks.example', 'Pinboardly'),
]
/** A site whose name the intents below say, added later. */
const ZEBRA = tool('z1', 'list invoices', 'zebra.example', 'Zebradesk', 2)

const INTENTS = [
  'list my invoices on Zebradesk',
  'list my invoices',
  'search orders for socks',
  'create an invoice for ACME',
  'show the bookmarks',
]

/** What `router` answers and ranks for each intent among `tools` (ids, scores, statuses). */
function answers(router: ToolRouter, tools: readonly ToolSpec[]) {
  return INTENTS.map((intent) => ({
    route: router.route(intent, tools),
    rank: router.rank(intent, tools).map((m) => [m.id, m.score]),
  }))
}

describe('what a router keeps between searches (issue 25 latency)', () => {
  it('keeps the reading of a text while the tools held stay the same, and reads it again after', () => {
    const index = new FactIndex()
    index.sync(BASE)
    const text = 'list my invoices on Zebradesk'
    const first = viewOf(text, index)
    expect(viewOf(text, index)).toBe(first)
    expect(first.intent.sites).toEqual([])
    // The same tools in another list: nothing held changes, the reading is kept.
    index.sync([...BASE])
    expect(viewOf(text, index)).toBe(first)
    // A tool of a site the text names: read again, and the site is said.
    index.sync([...BASE, ZEBRA])
    const again = viewOf(text, index)
    expect(again).not.toBe(first)
    expect(again.intent.sites).toEqual(['zebradesk'])
    // Dropped again: no such site any more.
    index.sync(BASE)
    expect(viewOf(text, index).intent.sites).toEqual([])
  })

  it("keeps the site names' set until a site is added or dropped", () => {
    const index = new FactIndex()
    index.sync(BASE)
    const names = index.siteNames()
    index.sync([...BASE])
    expect(index.siteNames()).toBe(names)
    index.sync([...BASE, ZEBRA])
    expect(index.siteNames()).not.toBe(names)
    expect([...index.siteNames()]).toContain('zebradesk')
  })

  it('parses a text once per state of the rules index', () => {
    const parse = vi.mocked(parsing.parseIntent)
    const rules = createRuleScorer()
    const text = 'create an invoice for ACME'
    rules.scores(text, BASE)
    const once = parse.mock.calls.length
    rules.scores(text, BASE)
    rules.scores(text, [...BASE])
    expect(parse.mock.calls.length).toBe(once)
    // A new tool changes what the index holds: parsed again, and answered as a fresh scorer does.
    const now = [...BASE, ZEBRA]
    const after = rules.scores(text, now)
    expect(parse.mock.calls.length).toBeGreaterThan(once)
    expect(after).toEqual(createRuleScorer().scores(text, now))
  })

  it('answers what a fresh router answers as tools are added, changed and dropped', () => {
    const router = createToolRouter()
    const steps: ToolSpec[][] = [
      BASE,
      [...BASE, ZEBRA],
      // The same tool with a new status (quarantined) and version.
      [...BASE, { ...ZEBRA, status: 'quarantined', updatedAt: 3 } as ToolSpec],
      // Reordered: the same tools in another order.
      [ZEBRA, ...BASE].reverse(),
      BASE.slice(1),
      BASE,
    ]
    for (const tools of steps) {
      expect(answers(router, tools)).toEqual(answers(createToolRouter(), tools))
      // And again: what was kept answers the same.
      expect(answers(router, tools)).toEqual(answers(createToolRouter(), tools))
    }
  })

  it('gives each answer its own list of sites said (the reading kept is not shared out)', () => {
    const router = createToolRouter()
    const tools = [...BASE, ZEBRA]
    const one = router.rank('list my invoices on Zebradesk', tools)[0]!
    one.evidence.sites.push('changed')
    const two = router.rank('list my invoices on Zebradesk', tools)[0]!
    expect(two.evidence.sites).toEqual(['zebradesk'])
  })
})
