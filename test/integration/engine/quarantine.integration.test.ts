import { randomUUID } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Run } from '../../../src/shared/run'
import type { ToolSpec, ToolSummary } from '../../../src/shared/toolSpec'
import { startOrdersSite, type OrdersSite } from '../../fixtures/sites/orders'
import { startHarness, type Harness } from '../../fixtures/harness/harness'
import { callTool, searchRequests, type ErrorAnswerBody } from '../../fixtures/harness/http'
import { makeSearchTool } from '../../fixtures/harness/searchTool'
import { saveTestLogin } from '../logins/loginHelpers'
import { bearerLogin, createOrderTool, requestsTo } from './ordersTools'

let h: Harness
let tool: ToolSpec
let changes: ToolSummary[]

beforeEach(async () => {
  h = await startHarness()
  ;({ tool } = await makeSearchTool(h.core, h.site))
  changes = []
  h.core.events.on('tools.changed', ({ tool: t }) => changes.push(t))
})

afterEach(async () => {
  await h.close()
})

const status = () => h.core.store.tools.get(tool.id)!.status

/** Calls the search tool with `query` over surface A; returns the run. */
async function search(query: string): Promise<Run> {
  const answer = await callTool<Run>(h.base, h.key, tool, { query })
  expect(answer.status).toBe(200)
  return answer.body
}

/** Three drifted answers in a row after one good call with `query: 'image'`. */
async function quarantineByDrift(): Promise<void> {
  expect((await search('image')).status).toBe('succeeded')
  h.site.setFault('drift')
  for (let i = 0; i < 3; i++) {
    const run = await search('video')
    expect(run.error?.code).toBe('schema_or_auth_drift')
  }
}

describe('quarantine of a verified tool', () => {
  it('quarantines after 3 drifted answers in a row: calls answer 409 naming what to do meanwhile', async () => {
    await quarantineByDrift()
    expect(status()).toBe('quarantined')
    expect(changes.map((t) => [t.id, t.status])).toEqual([[tool.id, 'quarantined']])

    const sent = searchRequests(h.site).length
    const refused = await callTool<ErrorAnswerBody>(h.base, h.key, tool, { query: 'image' })
    expect(refused.status).toBe(409)
    expect(refused.body.error).toEqual({
      code: 'tool_quarantined',
      message: expect.stringMatching(/rechecked automatically.*record the flow again.*meanwhile/),
    })
    expect(searchRequests(h.site)).toHaveLength(sent)
  })

  it('names another verified tool of the site to use meanwhile when there is one', async () => {
    const sibling: ToolSpec = { ...tool, id: randomUUID(), name: `${tool.name}_by_category` }
    h.core.store.tools.save(sibling)
    await quarantineByDrift()
    const refused = await callTool<ErrorAnswerBody>(h.base, h.key, tool, { query: 'image' })
    expect(refused.status).toBe(409)
    expect(refused.body.error.message).toContain(`use ${sibling.name} meanwhile`)
  })

  it('counts only failures in a row: a success in between resets the streak', async () => {
    expect((await search('image')).status).toBe('succeeded')
    h.site.setFault('drift')
    await search('video')
    await search('video')
    h.site.setFault(null)
    expect((await search('code')).status).toBe('succeeded')
    h.site.setFault('drift')
    await search('video')
    await search('video')
    expect(status()).toBe('verified')
    // Failures that are not drift (the site erred) never quarantine.
    h.site.setFault('server_error')
    for (let i = 0; i < 3; i++) expect((await search('video')).error?.code).toBe('upstream_error')
    expect(status()).toBe('verified')
  })

  it('rechecks with the last good inputs: stays quarantined while the fault lasts, lifted once it passes', async () => {
    await quarantineByDrift()
    const before = searchRequests(h.site).length

    expect(await h.core.engine.recheckQuarantined()).toBe(0)
    expect(status()).toBe('quarantined')
    const recheck = searchRequests(h.site).slice(before)
    expect(recheck).toHaveLength(1)
    expect(JSON.parse(recheck[0]!.body)).toMatchObject({ query: 'image' })

    h.site.setFault(null)
    expect(await h.core.engine.recheckQuarantined()).toBe(1)
    expect(status()).toBe('verified')
    expect(changes.map((t) => t.status)).toEqual(['quarantined', 'verified'])
    expect(JSON.parse(searchRequests(h.site).at(-1)!.body)).toMatchObject({ query: 'image' })
    expect((await search('video')).status).toBe('succeeded')
    // A lifted tool starts a new streak: one more drift does not quarantine it again.
    h.site.setFault('drift')
    await search('video')
    expect(status()).toBe('verified')
  })

  it('rechecks a tool verified without a run of its own with its recorded inputs', async () => {
    h.site.setFault('drift')
    for (let i = 0; i < 3; i++) await search('video')
    expect(status()).toBe('quarantined')
    h.site.setFault(null)
    expect(await h.core.engine.recheckQuarantined()).toBe(1)
    expect(status()).toBe('verified')
    // The recording typed "writing": the recheck sends what was recorded.
    expect(JSON.parse(searchRequests(h.site).at(-1)!.body)).toMatchObject({ query: 'writing' })
  })
})

describe('quarantine of a write', () => {
  let orders: OrdersSite

  beforeEach(async () => {
    orders = await startOrdersSite()
  })
  afterEach(async () => {
    await orders.close()
  })

  it('quarantines a write whose answers drift but never rechecks it: nothing is sent', async () => {
    const write = createOrderTool(orders)
    h.core.store.tools.save(write)
    await saveTestLogin(h.core, 'local', orders.host, await bearerLogin(orders))
    const start = (item: string) =>
      h.core.engine.start(write, { item }, { tenant: 'local', allowMutation: true }).done
    expect((await start('Desk lamp')).status).toBe('succeeded')
    orders.switches.fault = 'drift'
    for (let i = 0; i < 3; i++)
      expect((await start('Desk lamp')).error?.code).toMatch(
        /^(schema_or_auth_drift|outcome_not_verified)$/,
      )
    expect(h.core.store.tools.get(write.id)!.status).toBe('quarantined')
    const posts = requestsTo(orders, 'POST', '/api/spa/orders').length
    orders.switches.fault = null
    expect(await h.core.engine.recheckQuarantined()).toBe(0)
    expect(requestsTo(orders, 'POST', '/api/spa/orders')).toHaveLength(posts)
    expect(h.core.store.tools.get(write.id)!.status).toBe('quarantined')
  })
})
