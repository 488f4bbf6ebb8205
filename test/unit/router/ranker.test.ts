// The router's new design (issue 25): a tool's act and words from its request (A), the fitted
// choice model and its calibration (C), text it cannot read (D), ties that are not matches (E).
import { describe, expect, it } from 'vitest'
import { calibrate, fitChoiceModel, fitPlatt, softmax } from '../../../src/main/router/choiceModel'
import { FactIndex } from '../../../src/main/router/factIndex'
import { FITTED, viewOf } from '../../../src/main/router/ranker'
import { createToolRouter, MIN_SCORE } from '../../../src/main/router/router'
import { siteNamesOf, toolFacts } from '../../../src/main/router/toolFacts'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { fileTool } from './fileTool'

/** A verified tool whose target request is `method url` with `body`, on `host`. */
function requestTool(
  id: string,
  host: string,
  intent: string,
  request: { method: string; url: string; body?: unknown },
  opts: { mutating?: boolean; names?: string[]; signals?: string[] } = {},
): ToolSpec {
  const base = fileTool(id, intent, opts.mutating ?? request.method !== 'GET')
  return {
    ...base,
    siteHost: host,
    name: `${host.split('.')[0]}__${id}`,
    capabilityId: `${host}/${id}`,
    steps: [{ request: { headers: {}, ...request } }],
    evidence: {
      traceId: 't',
      targetExchangeId: 'x',
      signals: (opts.signals ?? []).map((name) => ({ name, weight: 1 })),
    },
    site: { names: opts.names ?? [], titles: [] },
  } as unknown as ToolSpec
}

describe('tool facts: what a tool does comes from its request (issue 25 A)', () => {
  it('reads a write to an inject endpoint as a run, whatever its intent says first', () => {
    const inject = requestTool(
      'inject',
      'flows.example',
      'log in to the editor and manually trigger the inject node',
      { method: 'POST', url: 'http://flows.example/inject/{{p0}}' },
      { mutating: true, names: ['Node-RED'] },
    )
    const facts = toolFacts(inject)
    expect(facts.act).toBe('run')
    expect(facts.act).not.toBe('auth')
  })

  it('reads a sign-in from the compiler’s evidence, not from the words', () => {
    const login = requestTool(
      'login',
      'wiki.example',
      'open the wiki',
      { method: 'POST', url: 'http://wiki.example/login' },
      { signals: ['sign_in'] },
    )
    expect(toolFacts(login)).toMatchObject({ act: 'auth', actFrom: 'sign_in' })
  })

  it('reads the operation a JSON-RPC call names', () => {
    const pause = requestTool('pause', 'deluge.example', 'create then save the torrent', {
      method: 'POST',
      url: 'http://deluge.example/json',
      body: { kind: 'json', template: { method: 'core.pause_torrent', params: [] } },
    })
    expect(toolFacts(pause)).toMatchObject({ act: 'run', actFrom: 'operation' })
  })

  it('knows a site by its names and its host, never by local or localhost', () => {
    const rpc = requestTool(
      'rpc',
      'localhost:8080',
      'list the downloads',
      { method: 'POST', url: 'http://localhost:8080/rpc' },
      { names: ['NZBGet'] },
    )
    const names = siteNamesOf({ ...rpc, name: 'local__post_rpc' })
    expect(names).toContain('nzbget')
    expect(names).not.toContain('local')
    expect(names).not.toContain('localhost')
  })

  it('names a site by its first word that is no function word, never by "the"', () => {
    const page = requestTool(
      'status',
      '127.0.0.1:8080',
      'show the server status',
      { method: 'GET', url: 'http://127.0.0.1:8080/manager/status' },
      { names: ['The Tomcat Servlet/JSP Container', 'The Apache Software Foundation'] },
    )
    const names = siteNamesOf(page)
    expect(names).toEqual(expect.arrayContaining(['tomcat', 'apache']))
    expect(names).not.toContain('the')
  })
})

describe('the choice model (issue 25 C)', () => {
  it('fits weights that rank the right choice first', () => {
    // Two features: the right choice has the first, a distractor the second.
    const groups = Array.from({ length: 20 }, () => ({
      rows: [
        [1, 0],
        [0, 1],
        [0, 0],
      ],
      right: [true, false, false],
    }))
    const w = fitChoiceModel(groups, 2)
    const p = softmax(groups[0]!.rows.map((x) => x[0]! * w[0]! + x[1]! * w[1]!))
    expect(p[0]).toBeGreaterThan(0.9)
    expect(w[0]).toBeGreaterThan(w[1]!)
  })

  it('counts a group of weight k as k copies of it', () => {
    // Two kinds of intent pull the weights apart; weighting one of them moves the fit as copies do.
    const a = {
      rows: [
        [1, 0],
        [0, 1],
      ],
      right: [true, false],
    }
    const b = {
      rows: [
        [1, 0],
        [0, 1],
      ],
      right: [false, true],
    }
    const copies = fitChoiceModel([a, a, a, b], 2)
    const weighted = fitChoiceModel([{ ...a, weight: 3 }, b], 2)
    const plain = fitChoiceModel([a, b], 2)
    weighted.forEach((w, i) => expect(w).toBeCloseTo(copies[i]!, 6))
    expect(Math.abs(weighted[0]! - plain[0]!)).toBeGreaterThan(0.1)
  })

  it('calibrates: Platt on out-of-fold probabilities maps them to how often they were right', () => {
    // Half of the choices at p = 0.95 were right, one in ten at p = 0.3: 0.95 is no 0.9 on apps
    // the weights never saw.
    const pairs = [
      ...Array.from({ length: 200 }, (_, i) => ({ p: 0.95, right: i % 2 === 0 })),
      ...Array.from({ length: 200 }, (_, i) => ({ p: 0.3, right: i % 10 === 0 })),
    ]
    const platt = fitPlatt(pairs)
    expect(calibrate(0.95, platt)).toBeGreaterThan(0.45)
    expect(calibrate(0.95, platt)).toBeLessThan(0.55)
    expect(calibrate(0.3, platt)).toBeLessThan(0.15)
    expect(calibrate(0.5, { slope: 1, offset: 0 })).toBeCloseTo(0.5)
  })

  it('is fitted: the committed weights are not all zero', () => {
    expect(FITTED.weights.some((w) => w !== 0)).toBe(true)
  })
})

describe('text the router cannot read (issue 25 D)', () => {
  const tools = [
    fileTool('delete_page', 'delete the wiki page Old Draft', true),
    fileTool('read_page', 'read the wiki page Old Draft', false),
  ]
  it.each([
    ['위키 페이지 삭제', 'Hangul'],
    ['フローBillingを削除', 'Han'],
    ['supprimer la page du wiki', 'French'],
  ])('answers needs_observation to %j and says why (%s)', (intent, why) => {
    const routed = createToolRouter().route(intent, tools)
    expect(routed.status).toBe('needs_observation')
    expect(routed.tools).toEqual([])
    expect(routed.reason).toContain(why)
    expect(routed.reason).toContain('English')
  })
})

describe('ties are not matches (issue 25 E)', () => {
  it('matches none of two tools of two sites that fit alike, names them and asks which site', () => {
    const one = requestTool(
      'search_a',
      'a.example',
      'search the wiki pages for a word',
      { method: 'GET', url: 'http://a.example/search?q={{p0}}' },
      { names: ['Alphawiki'] },
    )
    const two = requestTool(
      'search_b',
      'b.example',
      'search the wiki pages for a word',
      { method: 'GET', url: 'http://b.example/search?q={{p0}}' },
      { names: ['Betawiki'] },
    )
    const router = createToolRouter()
    const ranked = router.rank('search the wiki pages for roadmap', [one, two])
    expect(ranked.every((m) => m.score < MIN_SCORE)).toBe(true)
    const routed = router.route('search the wiki pages for roadmap', [one, two])
    expect(routed.status).toBe('needs_observation')
    expect(routed.ties?.tools.map((t) => t.id).sort()).toEqual(['search_a', 'search_b'])
    expect(routed.ties?.tellApart).toContain('which site')
    expect(routed.reason).toContain('Alphawiki')
    // Naming the site tells them apart.
    const named = router.route('search Betawiki pages for roadmap', [one, two])
    expect(named.tools[0]?.id).toBe('search_b')
  })
})

describe('values a request writes bare are not words a tool must say (issue 25 A)', () => {
  const ack = requestTool(
    'acknowledge_alert',
    'status.example',
    'acknowledge the alert of a host test',
    { method: 'POST', url: 'http://status.example/ack', body: { host: '{{p0}}', min: '{{p1}}' } },
    { mutating: true },
  )
  const decode = requestTool(
    'base64_decode',
    'tools.example',
    'decode a base64 text',
    { method: 'POST', url: 'http://tools.example/base64', body: { text: '{{p0}}' } },
    { mutating: false },
  )

  it('leaves out a word with a digit that no tool says, and keeps one a tool says', () => {
    const index = new FactIndex()
    index.sync([ack, decode])
    expect(viewOf('acknowledge the db01 alert', index).words.map((w) => w.lemma)).not.toContain(
      'db01',
    )
    expect(viewOf('decode this base64 text', index).words.map((w) => w.lemma)).toContain('base64')
  })

  it('counts the unit after a number as part of the value, not as a word', () => {
    const index = new FactIndex()
    index.sync([ack, decode])
    const lemmas = (text: string) => viewOf(text, index).words.map((w) => w.lemma)
    expect(lemmas('acknowledge the disk alert for 30 minutes')).not.toContain('minute')
    // Without a number before it, the same word is a word of the request.
    expect(lemmas('acknowledge the alert of the last minute')).toContain('minute')
  })
})
